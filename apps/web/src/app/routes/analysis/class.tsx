import { ClassAnalysisScreen } from '../../../features/analysis/components/class-analysis';

/** /analysis/class: one class of a homework against the grade (?homeworkId&classId). */
export function Component() {
  return <ClassAnalysisScreen />;
}
