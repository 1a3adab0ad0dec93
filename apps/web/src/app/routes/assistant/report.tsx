import { ReportScreen } from '../../../features/analysis/components/report';

/** papaerReport: the printable analysis report of a homework (?homeworkId&classId), also as PDF. */
export function Component() {
  return <ReportScreen />;
}
