// The recognition module's own Chinese text (ADR 0052): the reasons recorded with each answer change and the
// messages of exceptions and refusals that name a page, a student or a question. Messages shared with the web stay
// in @zhzy/contracts (RECOGNITION_MESSAGES, RECOGNITION_PROBLEM_MESSAGES).

/** The reason recorded with every answer recognition or a teacher changes. */
export const RECOGNITION_REASONS = {
  recognised: '识别',
  chosen: '异常处理：人工选择答案',
  accepted: '异常处理：确认识别结果',
  override: '复核改判',
  rekey: '答案修改后重新评分',
} as const;

export const RECOGNITION_TEXT = {
  confirmBlocked: '请先处理这张答题卡的异常，再确认',
  needBatchOrHomework: '请指定扫描批次或作业',
  /** A message about one question: `第3题：…`. */
  ofQuestion: (no: string, message: string) => `第${no}题：${message}`,
  studentNumberNotListed: (studentNumber: string) =>
    `考号 ${studentNumber} 不在这份作业的学生名单中，请指定学生`,
  pageWithoutStudent: (page: number) =>
    `无法确定这张第 ${page} 页答题卡属于哪位学生（前一页不是同一学生的第 ${page - 1} 页），请指定学生`,
  duplicatePage: (name: string, page: number) =>
    `${name}已有一张第 ${page} 页的答题卡，这一张是重复的（可能重复扫描或学生信息填错）`,
  missingPage: (name: string | undefined, page: number) =>
    `${name ?? '该学生'}的答题卡缺少第 ${page} 页，请检查是否漏扫`,
} as const;
