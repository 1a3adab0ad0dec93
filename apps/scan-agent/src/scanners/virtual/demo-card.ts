import { layoutCard } from '@zhzy/answer-card';
import type { CardIdentity, CardLayout, CardPaperInput } from '@zhzy/contracts';

type QuestionInput = CardPaperInput['sections'][number]['questions'][number];

const numbered = (from: number, count: number, make: (n: number) => QuestionInput): QuestionInput[] =>
  Array.from({ length: count }, (_, i) => make(from + i));

/** The demo paper the virtual scanner fills when the page sends no card: choices, true/false, blanks, written. */
export const DEMO_PAPER: CardPaperInput = {
  id: 'demo-card',
  title: '2025—2026学年第一学期期中考试 数学',
  subtitle: '七年级 · 考试时间90分钟 · 满分100分',
  sections: [
    {
      title: '一、单项选择题（每小题3分，共30分）',
      questions: numbered(1, 10, (n) => ({
        id: `q${n}`,
        number: String(n),
        score: 3,
        kind: 'single',
        options: 4,
      })),
    },
    {
      title: '二、多项选择题（每小题4分，共12分）',
      questions: numbered(11, 3, (n) => ({
        id: `q${n}`,
        number: String(n),
        score: 4,
        kind: 'multiple',
        options: 4,
      })),
    },
    {
      title: '三、判断题（每小题2分，共10分）',
      questions: numbered(14, 5, (n) => ({ id: `q${n}`, number: String(n), score: 2, kind: 'truefalse' })),
    },
    {
      title: '四、填空题（每小题4分，共16分）',
      questions: numbered(19, 4, (n) => ({
        id: `q${n}`,
        number: String(n),
        score: 4,
        kind: 'blank',
        blanks: 1,
      })),
    },
    {
      title: '五、解答题（共32分）',
      questions: numbered(23, 3, (n) => ({
        id: `q${n}`,
        number: String(n),
        score: n === 25 ? 12 : 10,
        kind: 'written',
        lines: 6,
      })),
    },
  ],
};

/** The demo card's layout (one A4 page with a personalised QR, or the student-number grid). */
export function demoLayout(identity: CardIdentity = 'qr'): CardLayout {
  return layoutCard(DEMO_PAPER, { size: 'A4', identity }, { cardId: 'demo-card', version: 1 });
}
