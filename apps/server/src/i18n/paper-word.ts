// The Chinese text of papers as Word documents (ADR 0052): the .docx a teacher downloads, the import of a teacher's
// .docx (the words it recognises and the warnings it gives) and the fonts of both. Part of the host catalogue
// (src/i18n/), kept apart from papers.ts so the Word files read as one list.

/** The East Asian fonts of a .docx: 宋体 for text and formulas, 黑体 for headings and labels. */
export const WORD_FONTS: { song: string; hei: string } = { song: '宋体', hei: '黑体' };

/** The paper as a .docx. */
export const WORD_EXPORT_TEXT = {
  /** The document's author. */
  creator: '智能作业',
  sealingLine: '…………○…………密…………○…………封…………○…………线…………○…………',
  sealingNote: '密 封 线 内 不 要 答 题',
  teacherCopy: '（教师用卷：含答案与解析）',
  examMinutes: (minutes: number) => `考试时间：${minutes} 分钟`,
  fullScore: (score: string) => `满分：${score} 分`,
  factSeparator: '　　',
  /** A student-info field with its blank line. */
  infoField: (field: string) => `${field}：＿＿＿＿＿＿`,
  infoSeparator: '　',
  scoreTableNo: '题号',
  scoreTableTotal: '总分',
  scoreTableScore: '得分',
  notice: '注意事项：',
  /** A question's own score, after its number. */
  itemScore: (score: string) => `（${score}分）`,
  questionDeleted: '（试题已删除）',
  answerKey: '参考答案与解析',
  /** The answer of a question that has none. */
  answerOmitted: '（略）',
  answerLabel: '【答案】',
  analysisLabel: '【解析】',
  knowledgeLabel: '【知识点】',
  listSeparator: '、',
} as const;

/** What the Word import recognises in a teacher's document. */
export const WORD_IMPORT_WORDS = {
  /** 一、单选题（每小题 3 分）: a section heading. */
  section: /^([一二三四五六七八九十]{1,3})\s*[、.．]\s*(.+)$/,
  /** 答案：… / 解析：… written without brackets at the start of a line. */
  plainMarker: /^(答案|解析|详解|分析|点评|点睛|知识点|考点)\s*[:：]/,
  keyHeading: /^(参考答案|答案与解析|答案及解析|参考答案与解析|答案)\s*[:：]?$/,
  marker: /【(答案|解析|详解|分析|点评|点睛|知识点|考点)】/,
  markerSplit: /【(答案|解析|详解|分析|点评|点睛|知识点|考点)】/g,
  /** A marker's name as written inside 【】. */
  markerOf: (name: string) => `【${name}】`,
  answerMarker: '答案',
  knowledgeMarkers: ['知识点', '考点'] as readonly string[],
  /** The rows of an answer table. */
  noRow: /题号/,
  answerRow: /答案/,
  /** The score per question in a section heading. */
  scoreEach: /每(?:小)?题\s*(\d+(?:\.\d)?)\s*分/,
  /** Question type names by the words of a section heading, first match wins. */
  types: [
    [/多选|多项选择|不定项/, '多选题'],
    [/单选|单项选择|选择题/, '单选题'],
    [/判断/, '判断题'],
    [/填空/, '填空题'],
    [/完形/, '完形填空'],
    [/阅读/, '阅读理解'],
    [/书面表达|写作/, '书面表达'],
    [/作文/, '作文'],
    [/实验/, '实验题'],
    [/计算/, '计算题'],
    [/解答|应用|证明|综合/, '解答题'],
  ] as [RegExp, string][],
} as const;

/** Names and warnings of the Word import. */
export const WORD_IMPORT_TEXT = {
  /** The section of questions before any heading. */
  defaultSection: '试题',
  defaultTitle: '导入的试卷',
  equationsFailed: (failed: number) =>
    `文档中有 ${failed} 个 Word 公式无法自动识别，已略去，请在预览中补上（可用 LaTeX，如 \\(x^2\\)）`,
  optionTail: (no: number, label: string) =>
    `第 ${no} 题选项 ${label} 后面有一段无法归类的内容，已并入该选项，请核对`,
  repeatedNo: (no: number) => `题号 ${no} 出现了不止一次，请核对`,
  gapInNos: (last: number, no: number) =>
    `题号不连续：第 ${last} 题之后是第 ${no} 题，可能有题目没有识别出来`,
  autoNumbered: (count: number) => `有 ${count} 道题使用了 Word 自动编号，已按顺序编号，请核对题号`,
  noStem: (no: number) => `第 ${no} 题没有识别到题干`,
  fewOptions: (no: number, labels: string[]) =>
    `第 ${no} 题只识别到 ${labels.length} 个选项（${labels.join('、')}），可能有选项没有识别出来`,
  answerNotAnOption: (no: number, letters: string) => `第 ${no} 题的答案“${letters}”不在识别出的选项中`,
  noAnswer: (no: number) => `第 ${no} 题没有找到【答案】`,
} as const;
