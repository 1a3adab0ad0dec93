// The Chinese text of the question bank's checks (ADR 0052): the answers a 判断题 accepts. Part of the host catalogue
// (src/i18n/); the type names themselves are QUESTION_TYPE_NAMES in messages.ts.

/** The answers a 判断题 accepts, each with the answer it is stored as. */
export const JUDGE_ANSWERS: Readonly<Record<string, string>> = {
  正确: '正确',
  对: '正确',
  '√': '正确',
  错误: '错误',
  错: '错误',
  '×': '错误',
};
