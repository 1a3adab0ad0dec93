import { GradeAnalysisScreen } from '../../../features/analysis/components/grade-analysis';

/** /analysis/grade: a homework across its classes (年级分析), opened from /paperlist's 分析 with ?homeworkId. */
export function Component() {
  return <GradeAnalysisScreen />;
}
