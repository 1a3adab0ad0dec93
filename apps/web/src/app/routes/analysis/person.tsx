import { PersonAnalysisScreen } from '../../../features/analysis/components/person-analysis';

/** /analysis/person: one student's trend, knowledge points, wrong questions and 错题本 (?classId&studentId). */
export function Component() {
  return <PersonAnalysisScreen />;
}
