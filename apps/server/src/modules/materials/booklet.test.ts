import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { PaperDocument } from '@zhzy/contracts';
import { cardFonts } from '../homework/card-pdf.js';
import { htmlBlocks, renderPaperPdf } from './booklet.js';

const STEM =
  '<p>已知 \\(x\\) 与 \\(y\\) 的对应值如下表：</p>' +
  '<table><thead><tr><th>x</th><th>1</th><th>2</th></tr></thead>' +
  '<tbody><tr><td>y</td><td>\\(\\frac{1}{2}\\)</td><td><b>3</b></td></tr></tbody></table>' +
  '<p>求 \\(y\\) 与 \\(x\\) 的关系式。</p>';

describe('questions in printed papers', () => {
  it('reads a stem’s table as a table: a header row and its cells, formulas as linear text', () => {
    expect(htmlBlocks(STEM)).toEqual([
      { type: 'text', text: '已知 x 与 y 的对应值如下表：' },
      {
        type: 'table',
        header: true,
        rows: [
          ['x', '1', '2'],
          ['y', '1/2', '3'],
        ],
      },
      { type: 'text', text: '求 y 与 x 的关系式。' },
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
