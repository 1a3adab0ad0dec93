import { AssistantAnalysisScreen } from '../../../features/analysis/components/assistant-analysis';

/** /assistant/analysis: the questions of a homework (?homeworkId&classId). */
export function Component() {
  return <AssistantAnalysisScreen />;
}
