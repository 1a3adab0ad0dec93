import { useSearchParams } from 'react-router-dom';
import {
  USERSET_SECTIONS,
  UsersetScreen,
  type UsersetSection,
} from '../../features/account/components/userset-screen';

/** 个人中心; `?nav=2` opens 问题反馈 (SPEC §2). Each section has its `nav` number. */
export function Component() {
  const [params, setParams] = useSearchParams();
  const index = Number(params.get('nav') ?? 0);
  const section: UsersetSection = USERSET_SECTIONS[index] ?? 'profile';
  return (
    <UsersetScreen
      section={section}
      onSection={(s) => setParams({ nav: String(USERSET_SECTIONS.indexOf(s)) }, { replace: true })}
    />
  );
}
