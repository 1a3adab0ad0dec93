/**
 * Shapes of the demo catalogue seed: textbooks with their chapter trees, knowledge-point trees and
 * the system question bank. All content in this folder is original text written for this project.
 */

/** A numbered section of a chapter, e.g. `{ key: 'm7a-1-1', name: '1.1 正数和负数' }`. */
export interface SectionSeed {
  key: string;
  name: string;
}

/** A chapter (or unit) of a textbook, e.g. `{ key: 'm7a-1', name: '第一章 有理数', sections }`. */
export interface ChapterSeed {
  key: string;
  name: string;
  sections: SectionSeed[];
}

/** One volume of a textbook series, e.g. publisher '人教版', name '七年级上册'. */
export interface TextbookSeed {
  key: string;
  subject: SubjectName;
  publisher: string;
  name: string;
  chapters: ChapterSeed[];
}

/** A node of a subject's knowledge-point tree; keys look like 'k-m-rational-abs'. */
export interface KnowledgeSeed {
  key: string;
  name: string;
  children?: KnowledgeSeed[];
}

export type SubjectName = '语文' | '数学' | '英语' | '物理';

/** Must be one of `QUESTION_TYPES[subject]`. */
export type QuestionTypeName = string;

export interface QuestionSeed {
  /** Unique across all seeds, e.g. 'q-m7a-1-1-01'. */
  key: string;
  subject: SubjectName;
  /** A `TextbookSeed.key`. */
  textbookKey: string;
  /** A `SectionSeed.key` inside that textbook. */
  sectionKey: string;
  type: QuestionTypeName;
  /** 1 容易, 2 较易, 3 适中, 4 较难, 5 困难. */
  difficulty: 1 | 2 | 3 | 4 | 5;
  /**
   * HTML subset: `<p>`, `<br>`, `<b>`, `<i>`, `<u>`, `<sub>`, `<sup>`, `<table>`…; formulas as LaTeX inside
   * `\( … \)` (inline) or `\[ … \]` (display); blanks in 填空题 written as '＿＿＿＿'.
   */
  stem: string;
  /** For 单选题/多选题: the option contents without the 'A.' label, usually 4 items (A–D). */
  options?: string[];
  /** e.g. 'B', 'AC', '\(-3\)', or HTML for 解答题. 判断题 use '正确' / '错误'. */
  answer: string;
  /** 解析: HTML, a worked explanation in Chinese. */
  analysis: string;
  /** At least one `KnowledgeSeed.key` of the same subject. */
  knowledgeKeys: string[];
  /** 2021..2026 */
  year: number;
  /** e.g. '原创', '2025年期中练习（自编）'. */
  source: string;
  /** One of the contracts' AREAS; the seed spreads the demo bank over a few when left out. */
  region?: string;
}

export const QUESTION_TYPES: Record<SubjectName, string[]> = {
  数学: ['单选题', '多选题', '判断题', '填空题', '解答题'],
  语文: ['单选题', '填空题', '阅读理解', '作文'],
  英语: ['单选题', '完形填空', '阅读理解', '书面表达'],
  物理: ['单选题', '多选题', '填空题', '实验题', '计算题'],
};
