// The shipped template papers (GoodsPaper) for 七年级数学 (ADR 0052): their titles and the question types they ask
// for, read by modules/papers/templates.ts, which assembles them at seed time. Part of the host catalogue
// (src/i18n/): content a teacher reads, kept apart from the messages.

/** The subject every template paper is of. */
export const TEMPLATE_SUBJECT = '数学';

export interface TemplateSpec {
  id: string;
  title: string;
  subtitle: string;
  chapters: string[];
  types: { name: string; count: number; score: number }[];
  difficulty: number;
  examMinutes: number;
}

export const PAPER_TEMPLATE_SPECS: TemplateSpec[] = [
  {
    id: 'gp-m7a-unit-1-2',
    title: '七年级上册 第一、二章 有理数 单元测试卷',
    subtitle: '人教版 · 七年级数学',
    chapters: ['m7a-1', 'm7a-2'],
    types: [
      { name: '单选题', count: 6, score: 4 },
      { name: '判断题', count: 3, score: 2 },
      { name: '填空题', count: 5, score: 4 },
      { name: '解答题', count: 5, score: 10 },
    ],
    difficulty: 0.35,
    examMinutes: 60,
  },
  {
    id: 'gp-m7a-midterm',
    title: '七年级上册 期中测试卷',
    subtitle: '人教版 · 七年级数学（第一章至第四章）',
    chapters: ['m7a-1', 'm7a-2', 'm7a-3', 'm7a-4'],
    types: [
      { name: '单选题', count: 8, score: 3 },
      { name: '多选题', count: 2, score: 4 },
      { name: '填空题', count: 6, score: 3 },
      { name: '解答题', count: 5, score: 10 },
    ],
    difficulty: 0.45,
    examMinutes: 90,
  },
  {
    id: 'gp-m7b-final',
    title: '七年级下册 期末测试卷',
    subtitle: '人教版 · 七年级数学（第七章至第十二章）',
    chapters: ['m7b-7', 'm7b-8', 'm7b-9', 'm7b-10', 'm7b-11', 'm7b-12'],
    types: [
      { name: '单选题', count: 10, score: 3 },
      { name: '填空题', count: 6, score: 3 },
      { name: '解答题', count: 4, score: 13 },
    ],
    difficulty: 0.5,
    examMinutes: 120,
  },
];
