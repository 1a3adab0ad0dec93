import { MistakesScreen } from '../../../features/mistakes/components/mistakes-screen';

/** 错题重练: explains what appears here once marked homework exists. */
export function Component() {
  return <MistakesScreen />;
}
