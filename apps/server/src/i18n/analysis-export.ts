// The Chinese text of the analysis workbooks (ADR 0052): sheet names, column headers and file names. Part of the
// host catalogue (src/i18n/), kept apart from messages.ts so the analysis exports read as one list.

/** Column headers of the analysis workbooks. */
export const EXPORT_HEADERS = {
  name: '姓名',
  studentNo: '学号',
  className: '班级',
  status: '状态',
  objective: '客观题',
  subjective: '主观题',
  total: '总分',
  scoreRate: '得分率',
  classRank: '班级名次',
  gradeRank: '年级名次',
  zScore: 'Z分数',
  tScore: 'T分数',
  no: '题号',
  type: '题型',
  fullScore: '满分',
  average: '平均分',
  difficulty: '难度',
  discrimination: '区分度',
  discriminationName: '区分度评价',
  fullCount: '满分人数',
  zeroCount: '零分人数',
  blankCount: '未作答',
  correctAnswer: '正确答案',
  typicalWrong: '典型错误',
  knowledgePoint: '知识点',
  rank: '名次',
  teachers: '任课教师',
  studentCount: '人数',
  scoredCount: '实考',
  overAverageRate: '超均率',
  max: '最高分',
  min: '最低分',
  median: '中位数',
  standardDeviation: '标准差',
  passRate: '及格率',
  goodRate: '良好率',
  excellentRate: '优秀率',
  points: '分值',
  gradeScoreRate: '年级得分率',
  mastery: '掌握情况',
  criticalLine: '临界线',
  lineValue: '线值',
  gap: '差距',
  priority: '讲评顺序',
  lostScore: '人均失分',
  wrongCount: '错误人数',
  wrongResponses: '错误选项分布',
  needsDiscussion: '需重点讲评',
  reason: '原因',
  homework: '作业',
  subject: '学科',
  date: '日期',
  score: '得分',
  classAverage: '班级平均',
  gradeAverage: '年级平均',
  answerCount: '作答次数',
  response: '作答',
  homeworkCount: '作业数',
  testCount: '考试数',
  doneCount: '已完成',
  sheetCount: '答卷数',
  teacher: '教师',
  marked: '已阅',
  markerScoreRate: '给分得分率',
  peerScoreRate: '同题平均',
  deviation: '偏差',
  middleShare: '趋中比例',
  indicator: '评价',
  count: '总数',
  unmarked: '未阅',
  progress: '进度',
  markers: '阅卷教师',
  grade: '年级',
  /** A question's column in the score sheet. */
  questionWithScore: (no: string, fullScore: number) => `第${no}题(${fullScore}分)`,
  /** A question's column in the details sheet. */
  question: (no: string) => `第${no}题`,
  /** A class's column in the grade trend. */
  classAverageOf: (className: string) => `${className}平均`,
} as const;

/** Sheet names (also the file names' endings) of the analysis workbooks. */
export const EXPORT_SHEETS = {
  scores: '成绩单',
  questions: '试题分析',
  classes: '班级对比',
  knowledgePoints: '知识点掌握',
  knowledgePointsFile: '知识点',
  critical: '临界生',
  details: '作业详情',
  commentary: '讲评',
  commentaryOrder: '讲评顺序',
  followUp: '需关注学生',
  student: '学情分析',
  studentTrend: '成绩趋势',
  wrongQuestions: '错题',
  gradeTrend: '成绩走势',
  subjects: '学科统计',
  marking: '阅卷报告',
  markers: '阅卷教师',
  markingQuestions: '题目进度',
  averages: '班级均分对比',
  averagesSheet: '小题得分率',
} as const;

/** Cell texts of the analysis workbooks. */
export const EXPORT_TEXT = {
  /** The workbook's author. */
  creator: '智能作业',
  noAnswer: '未作答',
  yes: '是',
  no: '否',
  /** A typical wrong answer in the question sheet. */
  typicalWrong: (response: string, count: number) => `${response}(${count}人)`,
  /** A wrong answer in the commentary sheet. */
  wrongResponse: (response: string, count: number) => `${response}：${count}人`,
  /** A cell of the details sheet: the score and what the student answered. */
  scoreWithResponse: (score: number, response: string) => `${score}（${response}）`,
  /** A marker of a question and how many answers they marked. */
  markerCount: (name: string, count: number) => `${name}(${count})`,
  listSeparator: '、',
  clauseSeparator: '，',
  /** A file name: the parts joined by hyphens, as .xlsx. */
  fileName: (...parts: string[]) => `${parts.join('-')}.xlsx`,
} as const;

/** Names and messages of the analysis screens and PDFs. */
export const ANALYSIS_TEXT = {
  /** The scope of a grade-wide analysis. */
  gradeName: '全年级',
  /** The scope of a mistake book of several students. */
  studentCount: (count: number) => `${count}名学生`,
  /** A date range as a 错题本's source. */
  rangeName: (from: string, to: string) => `${from} 至 ${to}`,
  /** The title of a published 错题重练 homework and of its paper. */
  rehearsalTitle: (className: string, day: string) => `错题重练 · ${className} · ${day}`,
  /** The 错题本 PDF's line naming the homework its wrong questions came from. */
  mistakeSources: (titles: string[]) => `来源作业：${titles.join('、')}`,
  yearNotFound: '学年不存在或不属于您的学校',
  /** The file name (without extension) of a homework report PDF. */
  reportFile: (title: string, scope: string) => `${title}-${scope}-作业报告`,
  /** The file name (without extension) of a mistake book PDF. */
  mistakeBookFile: (scope: string) => `错题本-${scope}`,
} as const;
