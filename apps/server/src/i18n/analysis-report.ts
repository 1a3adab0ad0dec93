// The Chinese text of the printable analysis files (the homework report and the 错题本 PDFs) and of the analysis
// metrics' names (ADR 0052): part of the host catalogue (src/i18n/), kept apart from messages.ts so the reports read
// as one list. Numbers arrive formatted: the catalogue words them, the drawing code formats them.

/** Words shared by both PDFs. */
export const PDF_TEXT = {
  /** The document's author. */
  creator: '智能作业',
  /** The page number in the footer. */
  page: (page: number) => `第 ${page} 页`,
  imageMissing: '［图片无法显示］',
  /** A table or a picture in a one-line text of the bank's rich text. */
  tableMark: '［表］',
  imageMark: '［图］',
  /** Nothing to show in a cell. */
  none: '—',
  listSeparator: '、',
  /** When the file was drawn (yyyy-mm-dd hh:mm). */
  generatedAt: (at: string) => `生成时间 ${at}`,
} as const;

/** The homework report (papaerReport). */
export const REPORT_PDF_TEXT = {
  title: (homework: string) => `${homework} 作业报告`,
  period: (start: string, due: string, fullScore: string, count: number, publisher: string) =>
    `${start} 至 ${due}\u3000满分 ${fullScore} 分\u3000共 ${count} 题\u3000发布人 ${publisher}`,
  summary: '一、成绩概况',
  bands: '二、分数段分布',
  classes: '三、班级对比',
  questions: '四、小题分析',
  knowledgePoints: '五、知识点掌握',
  /** A rate with the number of students it counts. */
  rateWithCount: (rate: string, count: number) => `${rate}（${count}人）`,
  /** What the summary's lines are, under its tables. */
  linesNote: (pass: string, good: string, excellent: string) =>
    `及格线 ${pass}、良好线 ${good}、优秀线 ${excellent}（占满分）；统计只含已批改完的学生。`,
  bandShareChart: '分数段人数占比：本班与年级',
  thisClass: '本班',
  grade: '年级',
  bandCountChart: '各分数段人数',
  classAverageChart: '各班平均分',
  /** A class whose bar is missing because nobody in it is marked yet. */
  marking: '阅卷中',
  gradeAverage: (average: string) => `年级平均 ${average}`,
  questionRateChart: '各题得分率（颜色为难度：绿 容易、蓝 适中、红 较难）',
  easyGuide: '容易 ≥70%',
  hardGuide: '较难 <40%',
  difficultyNote:
    '难度按得分率分：≥70% 容易，40%–70% 适中，<40% 较难；区分度为总分前 27% 与后 27% 学生的得分率之差（不足 4 人时不计）。',
  knowledgePointChart: '各知识点得分率',
} as const;

/** Column headers of the PDFs' tables. */
export const PDF_COLUMNS = {
  studentCount: '应考人数',
  scored: '已批改',
  pending: '批改中',
  absent: '缺考',
  average: '平均分',
  max: '最高分',
  min: '最低分',
  median: '中位数',
  standardDeviation: '标准差',
  scoreRate: '得分率',
  passRate: '及格率',
  goodRate: '良好率',
  excellentRate: '优秀率',
  failCount: '低分人数',
  objectiveAverage: '客观题均分',
  subjectiveAverage: '主观题均分',
  alpha: '信度 α',
  band: '分数段',
  scoreRange: '分数',
  count: '人数',
  share: '占比',
  gradeCount: '年级人数',
  gradeShare: '年级占比',
  className: '班级',
  teachers: '任课教师',
  overAverageRate: '超均率',
  rank: '名次',
  no: '题号',
  type: '题型',
  fullScore: '满分',
  difficulty: '难度',
  discrimination: '区分度',
  fullCount: '满分人数',
  zeroCount: '零分人数',
  wrongCount: '错题人数',
  correctAnswer: '正确答案',
  knowledgePoint: '知识点',
  points: '分值',
  index: '序号',
  homework: '作业',
  score: '得分',
  gradeScoreRate: '年级得分率',
} as const;

/** The 错题本 of a student. */
export const MISTAKE_PDF_TEXT = {
  book: '错题本',
  /** The footer of a student's pages. */
  footer: (className: string, name: string) => `错题本 · ${className} ${name}`,
  title: (name: string) => `${name} 的错题本`,
  allSubjects: '全部学科',
  student: (className: string, studentNo: string, subject: string) =>
    `${className}\u3000学号 ${studentNo}\u3000${subject}`,
  count: (count: number, generatedAt: string) => `共 ${count} 道错题\u3000${generatedAt}`,
  /** A homework with its date. */
  homework: (title: string, date: string) => `${title}（${date}）`,
  empty: '所选范围内没有错题，继续保持！',
  overview: '错题一览',
  details: '错题详解',
  entry: (n: number, homework: string, no: string, type: string, score: string, fullScore: string) =>
    `${n}. ${homework} 第 ${no} 题（${type}，${score}/${fullScore} 分）`,
  myAnswer: (response: string) => `我的作答：${response}`,
  noAnswer: '未作答',
  correctAnswer: '正确答案：',
  answer: '答案：',
  analysis: '解析：',
  knowledgePoints: (names: string[]) => `知识点：${names.join('、')}`,
  similar: '举一反三',
  /** The question a similar one is like. */
  similarOf: (homework: string, no: string) => `${homework}第 ${no} 题`,
  similarLead: (n: number, type: string, of: string) => `（${n}）［${type}，同类于${of}］`,
} as const;

/** Names the analysis metrics give. */
export const METRICS_TEXT = {
  /** The score lines of 临界生, in the order pass, good, excellent. */
  scoreLines: ['及格线', '良好线', '优秀线'] as const,
  rankLine: (rank: number) => `第${rank}名`,
  /** Objective responses read as true / false. */
  trueAnswer: /^(对|正确|√|✓|T|TRUE)$/i,
  falseAnswer: /^(错|错误|×|✗|F|FALSE)$/i,
} as const;
