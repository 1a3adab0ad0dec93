import { MistakesScreen } from '../../../features/analysis/components/mistakes-screen';

/** 错题重练: the analysis 错题本 of a chosen class, homework and student, to print or redo (ADR 0048). */
export function Component() {
  return <MistakesScreen />;
}
