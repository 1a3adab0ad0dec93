import { Empty } from '../../components/ui/empty';
import { ButtonLink } from '../../components/ui/button';
import { Logo } from '../../components/logo';
import { paths } from '../../config/paths';
import { t } from '../../i18n/zh-CN';

export function Component() {
  return (
    <div className="flex min-h-[70vh] flex-col items-center justify-center px-6">
      <Logo />
      <p className="mt-10 text-6xl font-semibold text-slate-500" aria-hidden="true">
        404
      </p>
      <h1 className="sr-only">{t.notFound.title}</h1>
      <Empty
        className="py-6"
        title={t.notFound.title}
        description={t.notFound.text}
        action={<ButtonLink to={paths.home}>{t.backHome}</ButtonLink>}
      />
    </div>
  );
}
