// The Chinese text of composing, editing and importing papers (ADR 0052): part of the host catalogue (src/i18n/),
// kept apart from messages.ts so the paper use cases read as one list.

/** Section numerals: 一 … 十. */
export const CHINESE_NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'] as const;
export const TEN = '十';

/** Score per question a new section of a type starts with (the teacher changes it in /edit). */
export const DEFAULT_SCORES: Record<string, number> = {
  单选题: 3,
  多选题: 4,
  判断题: 2,
  填空题: 3,
  解答题: 10,
  实验题: 6,
  计算题: 8,
  完形填空: 15,
  阅读理解: 10,
  书面表达: 15,
  作文: 50,
};

/** Question type names the Word import maps answers to. */
export const IMPORT_TYPE_NAMES = {
  single: '单选题',
  multiple: '多选题',
  trueFalse: '判断题',
  fallback: '解答题',
} as const;
/** An answer that reads as true/false. */
export const TRUE_FALSE_ANSWER = /^(正确|错误|对|错|√|×|✓|✗)$/;

export const PAPERS_TEXT = {
  systemOwner: '智能作业',
  /** A section's heading note with one score per question. */
  sectionNoteEach: (count: number, each: string, total: string) =>
    `（本大题共 ${count} 小题，每小题 ${each} 分，共 ${total} 分）`,
  sectionNote: (count: number, total: string) => `（本大题共 ${count} 小题，共 ${total} 分）`,
  duplicateQuestion: '同一道试题不能在试卷中出现两次',
  questionNotFound: '试题不存在或已删除',
  otherSubject: '只能加入本学科的试题',
  sectionTypeOtherSubject: '大题的题型不属于本学科',
  subjectNotFound: '学科不存在',
  textbookNotFound: '教材不存在',
  basketEmpty: '试题篮不存在或已清空',
  basketTitle: (subject: string, day: string) => `${subject}试卷（${day}）`,
  notInPaper: '该试题不在试卷中',
  replacementInPaper: '替换的试题已在试卷中',
  stemRequired: '请输入题干',
  adaptedSource: '个人改编',
  copyTitle: (title: string) => `${title}（副本）`,
  notInRecycleBin: '试卷不在回收站中',
  typeOtherSubject: '所选题型不属于该学科',
  classOtherSchool: '只能选择本校的班级',
  booknodeNotFound: '章节不存在',
  knowledgePointNotFound: '知识点不存在',
  smartNothing: '没有符合条件的试题，请扩大章节或知识点范围，或换一种题型',
  smartShort: (name: string, found: number, requested: number) =>
    `${name}只有 ${found} 道符合条件，少于要求的 ${requested} 道`,
  smartAvoided: (name: string, avoided: number) =>
    `${name}可选试题不足，其中 ${avoided} 道在所选班级最近的作业中出现过`,
  smartDifficulty: (target: string, reached: string) =>
    `所选范围内的试题达不到目标难度系数 ${target}，已选出最接近的组合，难度系数为 ${reached}`,
  smartEmptyPoints: (count: number, names: string) =>
    `所选知识点中有 ${count} 个没有符合条件的试题：${names}`,
  smartMissedPoints: (count: number, names: string) => `受题量限制，有 ${count} 个知识点没有覆盖到：${names}`,
  smartNone: '没有符合条件的试题，无法生成试卷',
  smartTitle: (subject: string, day: string) => `${subject}智能组卷（${day}）`,
  teacherCopySuffix: '（教师用卷）',
  unreadableWord: '无法读取该文件，请上传 .docx 格式的 Word 文档',
  suggestedPoints: (no: string | number, names: string) =>
    `第 ${no} 题没有标注知识点，已按题库中的相似试题推荐“${names}”，请核对`,
  importTypeOtherSubject: '题型不属于所选学科',
  emptyStem: (no: string | number) => `第 ${no} 题的题干是空的，请补充或删除该题`,
  importSource: 'Word 导入',
  /** A short list of names, with 等 when there are more. */
  nameList: (names: string[], more: boolean) => `${names.join('、')}${more ? ` 等` : ''}`,
  noTypes: '该学科还没有题型，无法导入',
  unknownPoint: (no: string | number, name: string) =>
    `第 ${no} 题的知识点“${name}”不在知识点库中，请重新选择`,
  noOptions: (no: string | number, type: string) => `第 ${no} 题是${type}，但没有识别到选项`,
  defaultScoreUsed: (title: string, score: number) =>
    `“${title}”没有写明每小题分值，已按 ${score} 分计，请核对`,
  nothingRecognised: '没有识别到试题：请确认题目以“1.”或“1、”开头，选项以“A.”开头',
} as const;
