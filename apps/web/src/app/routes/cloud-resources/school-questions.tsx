import { SchoolQuestionsScreen } from '../../../features/cloud/components/school-questions';

/** 校本题库, with the review queue for administrators. */
export function Component() {
  return <SchoolQuestionsScreen />;
}
