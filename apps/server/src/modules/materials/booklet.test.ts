import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { PaperDocument } from '@zhzy/contracts';
import { cardFonts } from '../homework/card-pdf.js';
import { bindBooklet, htmlBlocks, renderPaperPdf } from './booklet.js';

const STEM =
  '<p>已知 \\(x\\) 与 \\(y\\) 的对应值如下表：</p>' +
  '<table><thead><tr><th>x</th><th>1</th><th>2</th></tr></thead>' +
  '<tbody><tr><td>y</td><td>\\(\\frac{1}{2}\\)</td><td><b>3</b></td></tr></tbody></table>' +
  '<p>求 \\(y\\) 与 \\(x\\) 的关系式。</p>';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../../../../test-artifacts/booklet');

/** A paper with one question per stem, as the booklet reads it. */
function paperOf(stems: string[], answer = ''): PaperDocument {
  return {
    title: '方程与不等式 练习',
    subtitle: '',
    stageName: '初中',
    subjectName: '数学',
    questionCount: stems.length,
    totalScore: 10 * stems.length,
    sections: [
      {
        heading: '一、解答题',
        note: '',
        items: stems.map((stem, i) => ({
          no: i + 1,
          question: { stem, options: [], answer, analysis: '' },
        })),
      },
    ],
  } as unknown as PaperDocument;
}

const BOOKLET = {
  title: '方程与不等式 练习',
  schoolName: '演示学校',
  cover: false,
  pageNumbers: false,
  withAnswers: true,
  fonts: cardFonts(),
  date: new Date('2026-11-28T00:00:00Z'),
};

describe('questions in printed papers', () => {
  it('typesets formulas as formulas: fractions, roots, powers, a system and an inequality, on the text line', async () => {
    const stems = [
      '<p>解方程：\\(\\frac{x}{2}-\\frac{x-1}{3}=1\\)，并检验。</p>',
      '<p>计算：\\(\\sqrt{16}+\\sqrt[3]{-8}-2^{3}\\times\\left(-\\frac{1}{2}\\right)^{2}\\)</p>',
      '<p>解方程组 \\(\\begin{cases}x+y=5\\\\2x-y=1\\end{cases}\\)，再求 \\(x^{2}+y^{2}\\) 的值。</p>',
      '<p>解不等式 \\(3x-2\\geq 2x+1\\) 与 \\(-\\frac{1}{2}x<4\\)，并把解集在数轴上表示出来。</p>',
      '<p>如图，\\(\\angle ABC=90^{\\circ}\\)，\\(AB\\parallel CD\\)，\\(\\triangle ABC\\) 的面积是多少？这一行很长很长，要在页面的右边折到下一行继续排，公式也不能被拆开。</p>',
      '<p>一个写错的公式 \\(\\frac{1}{\\)照样印出来，不丢内容。</p>',
    ];
    const pdf = await renderPaperPdf(paperOf(stems, '<p>\\(x=\\frac{5}{2}\\)</p>'), BOOKLET);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'math.pdf');
    fs.writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-png', '-r', '100', '-singlefile', file, path.join(ARTIFACTS, 'math')]);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    // The Chinese around the formulas is text; the formulas are drawn, not written as TeX or as linear text.
    expect(text).toContain('解方程：');
    expect(text).toContain('并把解集在数轴上表示出来');
    expect(text).not.toMatch(/\\frac|\\sqrt|\\begin|\\\(/);
    expect(text).not.toContain('x/2');
    // A formula MathJax cannot read is printed as its text rather than lost.
    expect(text).toContain('照样印出来');
    // Drawn: the fraction bar of the first formula is ink on the page (the page has far more dark pixels than the
    // text alone would give is not asserted; instead the PNG is kept for a person to look at).
    expect(fs.statSync(path.join(ARTIFACTS, 'math.png')).size).toBeGreaterThan(10_000);
  });

  it('prints an A3 booklet as landscape sheets carrying two A4 pages side by side, formulas typeset', async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const paper = paperOf(['<p>化简：\\(\\frac{a^{2}-1}{a+1}\\)，其中 \\(a=\\sqrt{2}\\)。</p>']);
    const parts = [
      { kind: 'paper' as const, title: '第一卷', paper },
      { kind: 'paper' as const, title: '第二卷', paper },
    ];
    const a4 = await bindBooklet(parts, { ...BOOKLET, cover: true, pageNumbers: true });
    const a3 = await bindBooklet(parts, { ...BOOKLET, cover: true, pageNumbers: true, pageSize: 'A3' });
    const a4File = path.join(ARTIFACTS, 'a4-booklet.pdf');
    const file = path.join(ARTIFACTS, 'a3-booklet.pdf');
    fs.writeFileSync(a4File, a4);
    fs.writeFileSync(file, a3);
    const info = (f: string) => execFileSync('pdfinfo', [f], { encoding: 'utf8' });
    const pages = (f: string) => Number(/Pages:\s+(\d+)/.exec(info(f))![1]);
    expect(info(a4File)).toMatch(/Page size:\s+595\.\d+ x 841\.\d+/);
    expect(info(file)).toMatch(/Page size:\s+1190\.\d+ x 841\.\d+/);
    expect(pages(file)).toBe(Math.ceil(pages(a4File) / 2));
    // The cover with its contents on the left of the first sheet, the first paper on its right.
    const half = (x: number) =>
      execFileSync(
        'pdftotext',
        ['-f', '1', '-l', '1', '-x', String(x), '-y', '0', '-W', '595', '-H', '842', file, '-'],
        { encoding: 'utf8' },
      );
    expect(half(0)).toContain('第二卷');
    expect(half(0)).not.toContain('化简');
    expect(half(595)).toContain('化简');
    expect(half(595)).not.toMatch(/\\frac|\\\(/);
    execFileSync('pdftoppm', ['-r', '60', '-png', '-singlefile', file, path.join(ARTIFACTS, 'a3')]);
  });

  it('reads a stem’s table as a table: a header row and its cells, formulas in cells as linear text', () => {
    expect(htmlBlocks(STEM)).toEqual([
      {
        type: 'text',
        text: '已知 x 与 y 的对应值如下表：',
        // The formulas kept apart for the typesetter, with their linear text for a fallback.
        runs: [
          { text: '已知 ' },
          { tex: 'x', text: 'x' },
          { text: ' 与 ' },
          { tex: 'y', text: 'y' },
          { text: ' 的对应值如下表：' },
        ],
      },
      {
        type: 'table',
        header: true,
        rows: [
          ['x', '1', '2'],
          ['y', '1/2', '3'],
        ],
      },
      {
        type: 'text',
        text: '求 y 与 x 的关系式。',
        runs: [
          { text: '求 ' },
          { tex: 'y', text: 'y' },
          { text: ' 与 ' },
          { tex: 'x', text: 'x' },
          { text: ' 的关系式。' },
        ],
      },
    ]);
  });

  it('prints the table of a question in a booklet as ruled cells in one row per table row', async () => {
    // Only what the booklet reads of a paper.
    const paper = {
      title: '表格测验',
      subtitle: '',
      stageName: '初中',
      subjectName: '数学',
      questionCount: 1,
      totalScore: 10,
      sections: [
        {
          heading: '一、解答题',
          note: '',
          items: [
            {
              no: 1,
              question: { stem: STEM, options: [], answer: '<p>\\(y=\\frac{x}{2}\\)</p>', analysis: '' },
            },
          ],
        },
      ],
    } as unknown as PaperDocument;
    const pdf = await renderPaperPdf(paper, {
      title: '表格测验',
      schoolName: '演示学校',
      cover: false,
      pageNumbers: false,
      withAnswers: true,
      fonts: cardFonts(),
      date: new Date('2026-11-28T00:00:00Z'),
    });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'booklet-table-')), 'paper.pdf');
    fs.writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    // Each table row stays on one line of the page, its cells side by side.
    expect(text).toMatch(/x\s+1\s+2/);
    expect(text).toMatch(/y\s+1\/2\s+3/);
    expect(text).toContain('【答案】');
    // Ruled: the page drawn at 72 dpi has the grid's three horizontal rules (top, under the header, bottom), long
    // runs of grey that text never makes.
    const png = path.join(path.dirname(file), 'page');
    execFileSync('pdftoppm', ['-png', '-r', '72', '-gray', '-singlefile', file, png]);
    const { data, info } = await sharp(`${png}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
    let rules = 0;
    for (let y = 0; y < info.height; y += 1) {
      let run = 0;
      let longest = 0;
      for (let x = 0; x < info.width; x += 1) {
        run = data[y * info.width + x]! < 235 ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
      if (longest >= 60) rules += 1;
    }
    expect(rules).toBeGreaterThanOrEqual(3);
  });
});
