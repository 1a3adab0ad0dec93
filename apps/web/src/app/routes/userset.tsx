import { useSearchParams } from 'react-router-dom';
import { ComingSoon } from '../../components/page';

/** 个人中心; `?nav=2` opens 问题反馈 (SPEC §2). */
export function Component() {
  const [params] = useSearchParams();
  return <ComingSoon screen={params.get('nav') === '2' ? 'feedback' : 'userset'} />;
}
