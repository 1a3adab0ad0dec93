import type { CardPaperInput, CardQuestion } from '@zhzy/contracts';

type QuestionInput = CardPaperInput['sections'][number]['questions'][number];

/** Numbered questions of one kind, ids `q<number>`. */
export function questions(
  from: number,
  count: number,
  make: (n: number) => Partial<QuestionInput> & Pick<CardQuestion, 'kind'>,
): QuestionInput[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return { id: `q${n}`, number: String(n), score: 3, ...make(n) } as QuestionInput;
  });
}

/** A typical secondary-school mathematics paper: choices, true/false, blanks, written answers and a 选做题 pair. */
export function samplePaper(overrides: Partial<CardPaperInput> = {}): CardPaperInput {
  return {
    id: 'paper-demo-1',
    title: '2025—2026学年第一学期期中考试 数学',
    subtitle: '高一年级 · 考试时间120分钟 · 满分150分',
    sections: [
      {
        title: '一、单项选择题（每小题5分，共40分）',
        questions: questions(1, 8, () => ({ kind: 'single', options: 4, score: 5 })),
      },
      {
        title: '二、多项选择题（每小题6分，共18分）',
        questions: questions(9, 3, (n) => ({ kind: 'multiple', options: n === 11 ? 5 : 4, score: 6 })),
      },
      {
        title: '三、判断题（每小题2分，共10分）',
        questions: questions(12, 5, () => ({ kind: 'truefalse', score: 2 })),
      },
      {
        title: '四、填空题（每小题5分，共20分）',
        questions: questions(17, 4, (n) => ({ kind: 'blank', blanks: n === 20 ? 2 : 1, score: 5 })),
      },
      {
        title: '五、解答题（共62分，解答应写出文字说明、证明过程或演算步骤）',
        questions: [
          ...questions(21, 5, (n) => ({ kind: 'written', score: n < 23 ? 10 : 12 })),
          ...questions(26, 2, () => ({ kind: 'optional', optionalGroup: 'g26', score: 10, heightMm: 70 })),
        ],
      },
    ],
    ...overrides,
  };
}

/**
 * A 12-question classroom quiz (100 points): 8 single choices, 2 fill-ins and 2 written answers of 20 points, the
 * paper of issue #22 that used to take two A4 pages per student with the second two-thirds empty.
 */
export function quizPaper(): CardPaperInput {
  return {
    id: 'paper-quiz-12',
    title: '七年级数学 第一单元小测',
    subtitle: '满分100分',
    sections: [
      {
        title: '一、单项选择题（每小题6分，共48分）',
        questions: questions(1, 8, () => ({ kind: 'single', options: 4, score: 6 })),
      },
      {
        title: '二、填空题（每小题6分，共12分）',
        questions: questions(9, 2, () => ({ kind: 'blank', blanks: 1, score: 6 })),
      },
      {
        title: '三、解答题（每小题20分，共40分）',
        questions: questions(11, 2, () => ({ kind: 'written', score: 20 })),
      },
    ],
  };
}

/** A longer paper that needs two pages on an A3 card with two columns (the benchmark's card). */
export function twoPageA3Paper(): CardPaperInput {
  const p = samplePaper();
  return {
    ...p,
    id: 'paper-bench-a3',
    sections: [
      {
        title: '一、单项选择题（每小题3分，共60分）',
        questions: questions(1, 20, () => ({ kind: 'single', options: 4 })),
      },
      {
        title: '二、多项选择题（每小题4分，共20分）',
        questions: questions(21, 5, () => ({ kind: 'multiple', options: 5, score: 4 })),
      },
      {
        title: '三、判断题（每小题1分，共10分）',
        questions: questions(26, 10, () => ({ kind: 'truefalse', score: 1 })),
      },
      {
        title: '四、填空题（每小题4分，共24分）',
        questions: questions(36, 6, () => ({ kind: 'blank', blanks: 2, score: 4 })),
      },
      {
        title: '五、解答题（共86分）',
        questions: questions(42, 7, (n) => ({ kind: 'written', score: 10 + (n % 3) * 2 })),
      },
    ],
  };
}

/** Students of one class for personalised batches. */
export function students(
  count: number,
  classNo = 1,
): { id: string; name: string; number: string; className: string }[] {
  const family = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
  const given = '子涵浩然欣怡宇轩梓萱俊杰雨桐思远佳琪一诺';
  return Array.from({ length: count }, (_, i) => ({
    id: `stu-${classNo}-${String(i + 1).padStart(3, '0')}`,
    name:
      family[i % family.length]! +
      given[(i * 7) % given.length]! +
      (i % 3 === 0 ? '' : given[(i * 3 + 1) % given.length]!),
    number: `2025${String(classNo).padStart(2, '0')}${String(i + 1).padStart(2, '0')}`,
    className: `高一（${classNo}）班`,
  }));
}
