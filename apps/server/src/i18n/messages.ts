// The host's Chinese text, in one catalogue (ADR 0052): every message a caller reads, every audit-log detail, file
// name and name the host writes. Messages shared with the web stay in @zhzy/contracts (MESSAGES, *_MESSAGES); this is
// what only the host says. `test/i18n-catalogue.test.ts` fails when a host source file writes Chinese outside it
// (files not migrated yet are listed there by name).

/** Validation, refusals and envelopes of the call layer. */
export const CALL_TEXT = {
  /** A zod issue named with its field. */
  issueWithField: (message: string, field: string) => `${message}（字段：${field}）`,
  nulCharacter: '不能包含空字符',
} as const;

/** Fastify's own client errors and the raw socket answers. */
export const HTTP_TEXT = {
  unsupportedMediaType: '不支持的请求内容格式',
  bodyTooLarge: '请求内容过大',
  emptyJsonBody: '请求内容不能为空',
  invalidJsonBody: '请求内容不是合法的 JSON',
  invalidContentLength: '请求内容长度不正确',
  badUrl: '请求地址不正确（含有无法识别的字符）',
  /** Cut from the contracts' timeout message when the socket timed out (no duration to name). */
  zeroDuration: '（0毫秒）',
  metricsToken: '需要有效的监控令牌（METRICS_TOKEN）',
} as const;

export const AUTH_TEXT = {
  registered: '注册成功',
  usernameTaken: '该用户名已被注册',
} as const;

export const ACCOUNT_TEXT = {
  /** Audit detail of a reply to feedback. */
  feedbackReplied: (nickname: string, type: string) => `回复反馈：${nickname}（${type}）`,
  smsText: (purpose: string, code: string, minutes: number) =>
    `【智能作业】您正在${purpose}，验证码：${code}，${minutes}分钟内有效。如非本人操作，请忽略本短信。`,
} as const;

export const CATALOG_TEXT = {
  questionNotFound: '试题不存在或已删除',
  basketNotFound: '试题篮不存在',
  typeNotFound: '题型不存在',
  textbookNotFound: '教材不存在',
  chapterNotFound: '章节不存在',
  knowledgePointNotFound: '知识点不存在',
} as const;

/** The question types the host recognises by name (shipped catalogue rows). */
export const QUESTION_TYPE_NAMES = {
  single: '单选题',
  multiple: '多选题',
  trueFalse: '判断题',
  blank: '填空题',
} as const;

export const HOMEWORK_TEXT = {
  genericCardFile: (title: string) => `${title}-通用答题卡.pdf`,
  classCount: (n: number) => `${n}个班`,
  cardFile: (title: string, who: string) => `${title}-${who}-答题卡.pdf`,
  /** A file name with nothing printable left. */
  cardFallbackName: '答题卡',
} as const;

export const SYSTEM_TEXT = {
  chooseYear: '请选择学年（字段：pid）',
  yearNotFound: '学年不存在',
  yearNotFoundOrArchived: '学年不存在或已归档',
} as const;

export const SCAN_TEXT = {
  pageName: (base: string, page: number) => `${base} 第${page}页`,
} as const;

export const AGENT_DOWNLOAD_TEXT = {
  noPackages: '服务器上还没有扫描助手安装包，请联系管理员（npm run package -w @zhzy/scan-agent）',
} as const;

export const SCHOOL_TEXT = {
  /** Names of the school's fields in the audit log. */
  fieldNames: {
    name: '名称',
    region: '地区',
    address: '地址',
    phone: '联系电话',
    intro: '简介',
    logoPath: '标志',
    timeZone: '时区',
  },
  listSeparator: '、',
  unchanged: '无变化',
  none: '无',
  graduated: (year: string, count: number) => `${year}，${count}名学生毕业`,
  subjectCount: (n: number) => `${n}个学科`,
  gradeDirectors: (grade: string, n: number) => `${grade}：${n}人`,
  memberRoles: (nickname: string, isAdministrator: boolean, grades: string[]) =>
    `${nickname}：${isAdministrator ? '管理员' : '非管理员'}${grades.length > 0 ? `，年级主任（${grades.join('、')}）` : ''}`,
  teachingEntry: (subject: string, classCount: number) => `${subject}（${classCount}个班）`,
  teaching: (nickname: string, entries: string[]) => `${nickname}：${entries.join('、') || '无'}`,
  groupMembers: (name: string, n: number) => `${name}：${n}人`,
  invitation: (role: string, grade: string | null, maxUses: number, days: number) =>
    `${role}${grade !== null ? `（${grade}）` : ''}，${maxUses}人，${days}天`,
  studentTemplateFile: '学生导入模板.xlsx',
  genders: ['男', '女'] as const,
  /** Fonts and the cell style name of the workbooks the host writes. */
  workbookFont: '宋体',
  workbookNormalStyle: '常规',
} as const;

export const PAPER_TEXT = {
  notFound: '试卷不存在或已删除',
  notYours: '这是其他老师的个人试卷，您暂无查看权限',
  readOnly: '只能修改自己的试卷，请先复制到我的试卷再编辑',
  inRecycleBin: '试卷在回收站中，请先还原',
  notInRecycleBin: '只能彻底删除回收站中的试卷',
  stale: '试卷已在其他页面或设备上修改，请刷新后再保存',
} as const;

export const MARKING_TEXT = {
  /** A default block's title: the question's number on the paper. */
  blockTitle: (no: string) => `第${no}题`,
} as const;

export const QUESTION_TEXT = {
  /** A question of an import refused, with the reason. */
  importedQuestion: (no: number, reason: string) => `第 ${no} 题：${reason}`,
  notFound: '试题不存在或已删除',
  notYours: '只能修改或删除自己的试题',
  adminsOnly: '只有学校管理员可以审核校本试题',
  alreadyPending: '该试题已提交学校审核，请等待管理员处理',
  alreadyReviewed: '该试题已审核，无需重复操作',
  notInRecycleBin: '试题不在回收站中',
  wrongType: '题型不属于该学科',
  wrongKnowledgePoint: '知识点不属于该学科',
  wrongChapter: '章节不属于该学科的教材',
  emptyStem: '题干不能为空',
  tooFewOptions: '选择题至少需要两个选项',
  choiceAnswer: (letters: string) => `答案应为选项字母（${letters}）`,
  singleAnswer: '单选题只能有一个正确答案',
  multipleAnswer: '多选题至少需要两个正确答案',
  judgeAnswer: '判断题的答案应为“正确”或“错误”',
} as const;

export const MATERIAL_TEXT = {
  unnamed: '未命名资料',
  allMaterials: '全部资料',
  movedTo: (name: string, target: string) => `“${name}”移到“${target}”`,
  movedToRecycleBin: (name: string) => `“${name}”移入回收站`,
  onlyWordPreview: '只有 Word 文档可以转换预览',
  previewLosesFormats: '部分格式（如文本框、公式、页眉页脚）无法在预览中显示，请下载后在 Word 中查看完整内容',
  previewEmpty: '文档中没有可预览的文字内容',
} as const;

/** Words the question search leaves out of its index. */
export const SEARCH_STOP_TOKENS = ['的', '了', '着', '之'] as const;

/** `npm run backup` / `restore`. */
export const OPS_TEXT = {
  usage: '用法: npm run backup -w @zhzy/server -- <目录>   |   npm run restore -w @zhzy/server -- <目录>',
  backupDone: '备份完成',
  restoreDone: '恢复完成',
  done: (verb: string, database: string, objects: number, dir: string, ms: number) =>
    `${verb}: ${database} 数据库 + ${objects} 个文件 (${dir}, ${ms} ms)\n`,
  failed: (backup: boolean, reason: string) => `${backup ? '备份' : '恢复'}失败: ${reason}`,
  backupDirNotEmpty: (dir: string) => `备份目录必须为空: ${dir}`,
  notABackup: (manifest: string, dir: string) => `不是备份目录（缺少 ${manifest}）: ${dir}`,
  unsupportedFormat: (format: string) => `不支持的备份格式: ${format}`,
  otherDatabase: (backedUp: string, current: string) => `备份来自 ${backedUp}，当前配置的数据库是 ${current}`,
  objectDamaged: (key: string) => `备份中的文件已损坏或缺失: ${key}`,
} as const;

/** Names the host writes into its logs. */
export const LOG_NAMES = {
  product: '智能作业',
  demoSchool: '演示学校',
  marking: '阅卷中',
} as const;
