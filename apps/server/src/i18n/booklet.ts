// The Chinese text of bound material booklets (ADR 0052): the cover, the contents and the papers drawn into them.
// Part of the host catalogue (src/i18n/), kept apart from messages.ts so the booklet reads as one list.

export const BOOKLET_TEXT = {
  /** The PDF's author and producer. */
  creator: '智能作业',
  producer: '智能作业 资料装订',
  /** A paper's line under its title. */
  paperFacts: (stageSubject: string, count: number, totalScore: number) =>
    `${stageSubject}\u3000共 ${count} 题\u3000满分 ${totalScore} 分`,
  questionDeleted: '（试题已删除）',
  answerLabel: '【答案】',
  analysisLabel: '【解析】',
  /** The booklet's date on the cover. */
  date: (d: Date) => `${d.getFullYear()}年${d.getMonth() + 1}月${d.getDate()}日`,
  contents: '目\u3000录',
  /** A part in the contents, with its kind. */
  contentsEntry: (n: number, title: string, kind: string) => `${n}. ${title}（${kind}）`,
  page: (page: number) => `第 ${page} 页`,
  /** The kinds of the parts. */
  kinds: { paper: '试卷', pdf: 'PDF', image: '图片' },
} as const;
