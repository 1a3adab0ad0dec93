import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { resolveCardFonts } from '@zhzy/answer-card/render';
import type { MistakeBook, MistakeEntry } from '@zhzy/contracts';
import { mistakeBookPdf } from './pdf.js';

// The 错题本 layout with what the host fixtures lack: the bank's HTML (formulas, entities), similar questions, and a
// student whose mistakes run over several pages.

const entry = (no: number): MistakeEntry => ({
  homeworkId: 'h1',
  homeworkTitle: '期中练习',
  date: '2026-11-10',
  subjectName: '数学',
  questionId: `q${no}`,
  no: String(no),
  typeName: '单选题',
  stem: `<p>已知 \\(x^2 = 4\\)，且 x &gt; 0，求 x 的值。（第 ${no} 题）</p>`,
  options: [
    { label: 'A', content: '<p>1</p>' },
    { label: 'B', content: '<p>2</p>' },
  ],
  answer: 'B',
  analysis: '<p>两边开平方，x = 2。</p>',
  difficulty: 2,
  knowledgePoints: [{ id: 'k1', name: '平方根' }],
  response: 'A',
  blank: false,
  score: 0,
  fullScore: 3,
  gradeScoreRate: 0.5,
  cropUrl: null,
  similar:
    no === 1
      ? [
          {
            id: 's1',
            typeName: '单选题',
            difficulty: 2,
            stem: '<p>已知 y² = 9，且 y &lt; 0，求 y。</p>',
            options: [],
            answer: '<p>−3</p>',
            analysis: '<p>取负的平方根。</p>',
            knowledgePoints: [],
          },
        ]
      : [],
});

const book = (name: string, count: number): MistakeBook => ({
  student: { id: name, name, studentNo: '2026001', classId: 'c1', className: '七年级(3)班' },
  subjectName: '数学',
  generatedAt: '2026-11-20T08:00:00.000Z',
  entries: Array.from({ length: count }, (_, i) => entry(i + 1)),
  questionIds: [],
});

describe('错题本 PDF', () => {
  it('lays out every student from a new page, with formulas as text, answers, analysis and similar questions', async () => {
    const bytes = await buffer(
      mistakeBookPdf([book('周小雨', 12), book('林一', 1)], { fonts: resolveCardFonts(), title: '错题本' }),
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mistake-pdf-')), 'book.pdf');
    fs.writeFileSync(file, bytes);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).split('\f');
    expect(pages).toBeGreaterThanOrEqual(3);
    const all = text.join('\n');
    for (const s of [
      '周小雨 的错题本',
      '共 12 道错题',
      '我的作答：A',
      '正确答案：B',
      '解析：两边开平方',
      '举一反三',
    ]) {
      expect(all).toContain(s);
    }
    expect(all).toContain('同类于期中练习第 1 题');
    expect(all).toContain('x > 0');
    expect(all).not.toContain('\\(');
    expect(all).toContain('y < 0');
    // 林一 starts the last page, alone on it; every page carries its number and the student in the footer.
    expect(text[pages - 1]).toContain('林一 的错题本');
    expect(text[pages - 1]).not.toContain('周小雨');
    expect(text[pages - 2]).toContain('周小雨');
    expect(text[pages - 1]).toMatch(new RegExp(`第\\s*${pages}\\s*页`));
    expect(text[1]).toContain('错题本 · 七年级(3)班 周小雨');
  });
});
