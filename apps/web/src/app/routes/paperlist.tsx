import { ComingSoon } from '../../components/page';
import { ButtonLink } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { t } from '../../i18n/zh-CN';

/** 作业列表: the signed-in landing page; until its issue lands it points to where work starts today. */
export function Component() {
  return (
    <ComingSoon
      screen="paperlist"
      action={
        <ButtonLink to={paths.rehearse.select} className="mt-2">
          {t.basket.goPick}
        </ButtonLink>
      }
    />
  );
}
