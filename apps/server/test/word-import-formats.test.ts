/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import {
  AlignmentType,
  Document,
  ImageRun,
  LevelFormat,
  Math as WordMath,
  MathFraction,
  MathRadical,
  MathRun,
  MathSuperScript,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  type ParagraphChild,
} from 'docx';
import { describe, expect, it } from 'vitest';
import { parseDocx, type ParsedPaper, type ParsedQuestion } from '../src/modules/papers/word-import.js';

// Teachers' Word papers come in many layouts. Five of them, written here with the docx package as Word writes
// them, must split into the same questions: type by section, options, answer, analysis, knowledge points.

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

const p = (...runs: (string | ParagraphChild)[]) =>
  new Paragraph({ children: runs.map((r) => (typeof r === 'string' ? new TextRun(r) : r)) });
const docx = (children: (Paragraph | Table)[], numbered = false) =>
  Packer.toBuffer(
    new Document({
      numbering: numbered
        ? {
            config: [
              {
                reference: 'questions',
                levels: [
                  { level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.LEFT },
                ],
              },
            ],
          }
        : undefined,
      sections: [{ children }],
    }),
  );
const listItem = (...runs: (string | ParagraphChild)[]) =>
  new Paragraph({
    numbering: { reference: 'questions', level: 0 },
    children: runs.map((r) => (typeof r === 'string' ? new TextRun(r) : r)),
  });

const questions = (paper: ParsedPaper): ParsedQuestion[] => paper.sections.flatMap((s) => s.questions);
const text = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .trim();

/** What every layout must give back: two choices, a blank, a worked question. */
function expectTheQuestions(paper: ParsedPaper) {
  expect(paper.sections.map((s) => [s.typeName, s.questions.length])).toEqual([
    ['单选题', 2],
    ['填空题', 1],
    ['解答题', 1],
  ]);
  const [q1, q2, q3, q4] = questions(paper);
  expect(q1!.no).toBe(1);
  expect(text(q1!.stem)).toContain('最小的数是');
  expect(q1!.options.map((o) => o.label)).toEqual(['A', 'B', 'C', 'D']);
  expect(q1!.answer).toBe('B');
  expect(text(q1!.analysis)).toContain('负数小于 0');
  expect(q2!.options).toHaveLength(4);
  expect(q2!.answer).toBe('C');
  expect(text(q2!.analysis)).toContain('绝对值');
  expect(text(q3!.stem)).toContain('方程');
  expect(text(q3!.answer)).toContain('3');
  expect(text(q4!.stem)).toContain('解方程');
  expect(text(q4!.analysis)).toContain('移项');
  for (const q of [q1, q2, q3, q4]) expect(q!.warnings, `question ${q!.no}`).toEqual([]);
}

describe('importing Word papers in the common layouts', () => {
  it('layout 1: options one per line, 【答案】【解析】【知识点】 on lines of their own under each question', async () => {
    const paper = await parseDocx(
      await docx([
        p('七年级数学 周测（一）'),
        p('一、选择题（每小题 3 分，共 6 分）'),
        p('1．下列各数中，最小的数是（　　）'),
        p('A．0'),
        p('B．-2'),
        p('C．1'),
        p('D．3'),
        p('【答案】B'),
        p('【解析】负数小于 0，0 小于正数。'),
        p('【知识点】有理数的大小比较'),
        p('2．-5 的绝对值是（　　）'),
        p('A．-5'),
        p('B．1/5'),
        p('C．5'),
        p('D．-1/5'),
        p('【答案】C'),
        p('【解析】负数的绝对值是它的相反数。'),
        p('二、填空题（每小题 4 分）'),
        p('3．方程 2x-1=5 的解是 x=＿＿＿＿。'),
        p('【答案】3'),
        p('【解析】移项得 2x=6，所以 x=3。'),
        p('三、解答题（10 分）'),
        p('4．解方程：3x+2=11。'),
        p('【答案】x=3'),
        p('【解析】移项得 3x=9，系数化为 1 得 x=3。'),
      ]),
    );
    expectTheQuestions(paper);
    expect(questions(paper)[0]!.knowledgePoints).toEqual(['有理数的大小比较']);
    expect(paper.sections[0]!.score).toBe(3);
  });

  it('layout 2: four options on one line with tabs, answers in a key at the end (short key and marked entries)', async () => {
    const paper = await parseDocx(
      await docx([
        p('七年级数学 周测（二）'),
        p('一、单项选择题'),
        p('1、下列各数中，最小的数是（　　）'),
        p('A. 0\tB. -2\tC. 1\tD. 3'),
        p('2、-5 的绝对值是（　　）'),
        p('A. -5　　B. 1/5　　C. 5　　D. -1/5'),
        p('二、填空题'),
        p('3、方程 2x-1=5 的解是 x=＿＿＿＿。'),
        p('三、解答题'),
        p('4、解方程：3x+2=11。'),
        p('参考答案与解析'),
        p('1．【答案】B【解析】负数小于 0，0 小于正数。'),
        p('2．【答案】C【解析】负数的绝对值是它的相反数。'),
        p('3．【答案】3【解析】移项得 2x=6，所以 x=3。'),
        p('4．【答案】x=3'),
        p('【解析】移项得 3x=9，系数化为 1 得 x=3。'),
      ]),
    );
    expectTheQuestions(paper);
  });

  it('layout 3: Word automatic numbering, answer and analysis inline after the stem, 答案：/解析： without brackets', async () => {
    const paper = await parseDocx(
      await docx(
        [
          p('七年级数学 周测（三）'),
          p('一、选择题'),
          listItem('下列各数中，最小的数是（　　）'),
          p('A．0　　B．-2'),
          p('C．1　　D．3'),
          p('答案：B'),
          p('解析：负数小于 0，0 小于正数。'),
          listItem('-5 的绝对值是（　　）'),
          p('A．-5　　B．1/5　　C．5　　D．-1/5'),
          p('答案：C'),
          p('解析：负数的绝对值是它的相反数。'),
          p('二、填空题'),
          listItem('方程 2x-1=5 的解是 x=＿＿＿＿。【答案】3【解析】移项得 2x=6，所以 x=3。'),
          p('三、解答题'),
          listItem('解方程：3x+2=11。'),
          p('【答案】x=3【详解】移项得 3x=9，系数化为 1 得 x=3。'),
        ],
        true,
      ),
    );
    expectTheQuestions(paper);
    expect(paper.warnings).toContain('有 4 道题使用了 Word 自动编号，已按顺序编号，请核对题号');
  });

  it('layout 4: native Word equations and a figure in stems and options, 【分析】【详解】【点睛】 blocks', async () => {
    const frac = (n: string, d: string) =>
      new WordMath({
        children: [new MathFraction({ numerator: [new MathRun(n)], denominator: [new MathRun(d)] })],
      });
    const paper = await parseDocx(
      await docx([
        p('七年级数学 周测（四）'),
        p('一、选择题（本大题共 2 小题，每小题 3 分）'),
        p('1．下列各数中，最小的数是（　　）'),
        p('A．0　　B．-2　　C．', frac('1', '2'), '　　D．3'),
        p('【答案】B'),
        p('【分析】比较有理数的大小。'),
        p('【详解】负数小于 0，0 小于正数，所以最小的数是 -2。'),
        p('【点睛】正数大于 0，负数小于 0。'),
        p(
          '2．',
          new WordMath({ children: [new MathRadical({ children: [new MathRun('25')] })] }),
          ' 与 -5 的绝对值的和是（　　）',
          new ImageRun({
            type: 'png',
            data: Buffer.from(PNG_BASE64, 'base64'),
            transformation: { width: 20, height: 20 },
          }),
        ),
        p(
          'A．0　　B．-10　　C．10　　D．',
          new WordMath({
            children: [
              new MathSuperScript({ children: [new MathRun('5')], superScript: [new MathRun('2')] }),
            ],
          }),
        ),
        p('【答案】C'),
        p('【详解】算术平方根 5 加上绝对值 5，和为 10。'),
        p('二、填空题（本大题共 1 小题，每小题 4 分）'),
        p('3．方程 2x-1=5 的解是 x=＿＿＿＿。'),
        p('【答案】3'),
        p('【详解】移项得 2x=6，所以 x=3。'),
        p('三、解答题（本大题共 1 小题，共 10 分）'),
        p('4．解方程：', frac('x+1', '2'), '=2。'),
        p('【答案】x=3'),
        p('【详解】去分母得 x+1=4，移项得 x=3。'),
      ]),
    );
    const [q1, q2, , q4] = questions(paper);
    expect(q1!.options[2]!.content).toBe('\\(\\frac{1}{2}\\)');
    expect(q1!.analysis).toContain('负数小于 0');
    expect(q2!.stem).toContain('\\(\\sqrt{25}\\)');
    expect(q2!.stem).toContain('data:image/png;base64,');
    expect(q2!.options[3]!.content).toBe('\\(5^2\\)');
    expect(q4!.stem).toContain('\\(\\frac{x+1}{2}\\)');
    expect(paper.sections.map((s) => [s.typeName, s.questions.length])).toEqual([
      ['单选题', 2],
      ['填空题', 1],
      ['解答题', 1],
    ]);
    expect(q2!.answer).toBe('C');
    expect(text(q2!.analysis)).toContain('绝对值');
    for (const q of questions(paper)) expect(q.warnings).toEqual([]);
    expect(paper.warnings).toEqual([]);
  });

  it('layout 5: questions numbered 1) with options labelled (A), an answer table at the end', async () => {
    const cell = (t: string) => new TableCell({ children: [p(t)] });
    const paper = await parseDocx(
      await docx([
        p('七年级数学 周测（五）'),
        p('一、单选题'),
        p('1）下列各数中，最小的数是（　　）'),
        p('(A) 0　(B) -2　(C) 1　(D) 3'),
        p('2）-5 的绝对值是（　　）'),
        p('(A) -5　(B) 1/5　(C) 5　(D) -1/5'),
        p('二、填空题'),
        p('3）方程 2x-1=5 的解是 x=＿＿＿＿。'),
        p('三、解答题'),
        p('4）解方程：3x+2=11。'),
        p('参考答案'),
        new Table({
          rows: [
            new TableRow({ children: ['题号', '1', '2', '3'].map(cell) }),
            new TableRow({ children: ['答案', 'B', 'C', '3'].map(cell) }),
          ],
        }),
        p('1．【解析】负数小于 0，0 小于正数。'),
        p('2．【解析】负数的绝对值是它的相反数。'),
        p('3．【解析】移项得 2x=6，所以 x=3。'),
        p('4．【答案】x=3【解析】移项得 3x=9，系数化为 1 得 x=3。'),
      ]),
    );
    expectTheQuestions(paper);
  });
});
