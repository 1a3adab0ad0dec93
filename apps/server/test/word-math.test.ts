/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaperDocumentSchema, PaperSettingsSchema, type PaperDocument } from '@zhzy/contracts';
import { latexToText } from '../src/modules/papers/latex.js';
import { latexToOmml, ommlToLatex } from '../src/modules/papers/omml.js';
import { renderPaperDocx } from '../src/modules/papers/word-export.js';
import { parseDocx, type ParsedQuestion } from '../src/modules/papers/word-import.js';

// Mathematics that survives Word both ways: a paper with fractions, roots, powers, a system, inequalities, a
// geometry figure and a table is exported as .docx (native Word equations) and read back by the importer; the
// questions come back the same. LibreOffice renders the export to PDF and PNG (kept in test-artifacts/word).

const ARTIFACTS = path.resolve(import.meta.dirname, '../../../test-artifacts/word');
const r = String.raw;

/** A triangle ABC with its labels, as a PNG figure the way a teacher pastes one. */
async function triangleFigure(): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="160">
    <rect width="220" height="160" fill="white"/>
    <polygon points="30,140 190,140 80,25" fill="none" stroke="black" stroke-width="2"/>
    <text x="70" y="20" font-size="16" font-family="serif">A</text>
    <text x="12" y="152" font-size="16" font-family="serif">B</text>
    <text x="194" y="152" font-size="16" font-family="serif">C</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

let seq = 0;
const id = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

function question(
  typeName: string,
  stem: string,
  answer: string,
  analysis: string,
  options: string[] = [],
): PaperDocument['sections'][number]['items'][number]['question'] {
  return {
    id: id(),
    typeId: id(),
    typeName,
    difficulty: 3,
    stem,
    options: options.map((content, i) => ({ label: String.fromCharCode(65 + i), content })),
    answer,
    analysis,
    owner: 'system',
    knowledgePoints: [{ id: id(), name: '一元一次方程' }],
  };
}

async function mathPaper(): Promise<PaperDocument> {
  const figure = await triangleFigure();
  const choices = [
    question(
      '单选题',
      r`<p>解方程 \(\frac{x}{2}-\frac{x-1}{3}=1\)，去分母正确的是（　　）</p>`,
      'A',
      r`<p>方程两边同乘 6，得 \(3x-2(x-1)=6\)。</p>`,
      [r`\(3x-2(x-1)=6\)`, r`\(3x-2x-1=6\)`, r`\(3x-2(x-1)=1\)`, r`\(2x-3(x-1)=6\)`],
    ),
    question(
      '单选题',
      r`<p>计算 \(\sqrt{16}+\sqrt[3]{-8}\) 的结果是（　　）</p>`,
      'C',
      r`<p>\(\sqrt{16}=4\)，\(\sqrt[3]{-8}=-2\)，所以结果为 \(4+(-2)=2\)。</p>`,
      [r`\(6\)`, r`\(-6\)`, r`\(2\)`, r`\(-2\)`],
    ),
    question(
      '单选题',
      `<p>如图，在 \\(\\triangle ABC\\) 中，\\(\\angle A=50^{\\circ}\\)，\\(\\angle B=60^{\\circ}\\)，则 \\(\\angle C\\) 的度数是（　　）</p><p><img src="${figure}"></p>`,
      'B',
      r`<p>三角形内角和为 \(180^{\circ}\)，\(\angle C=180^{\circ}-50^{\circ}-60^{\circ}=70^{\circ}\)。</p>`,
      [r`\(60^{\circ}\)`, r`\(70^{\circ}\)`, r`\(80^{\circ}\)`, r`\(90^{\circ}\)`],
    ),
  ];
  const blanks = [
    question(
      '填空题',
      r`<p>计算：\((-2)^{3}\times\left(-\frac{1}{2}\right)^{2}=\)＿＿＿＿。</p>`,
      r`\(-2\)`,
      r`<p>\((-2)^{3}=-8\)，\(\left(-\frac{1}{2}\right)^{2}=\frac{1}{4}\)，所以原式 \(=-8\times\frac{1}{4}=-2\)。</p>`,
    ),
    question(
      '填空题',
      r`<p>不等式 \(2x-1\le 3\) 的解集是＿＿＿＿，不等式组 \(\begin{cases}x+1\gt 0\\x-2\lt 0\end{cases}\) 的解集是＿＿＿＿。</p>`,
      r`\(x\le 2\)；\(-1\lt x\lt 2\)`,
      r`<p>由 \(2x\le 4\) 得 \(x\le 2\)；由 \(x+1\gt 0\) 得 \(x\gt -1\)，由 \(x-2\lt 0\) 得 \(x\lt 2\)。</p>`,
    ),
  ];
  const solutions = [
    question(
      '解答题',
      r`<p>解方程组：\(\begin{cases}2x+y=5\\x-y=1\end{cases}\)</p>`,
      r`\(\begin{cases}x=2\\y=1\end{cases}\)`,
      r`<p>两式相加得 \(3x=6\)，\(x=2\)；代入 \(x-y=1\) 得 \(y=1\)。</p>`,
    ),
    question(
      '解答题',
      r`<p>下表是某商店一周的销售情况，求平均每天的销售额 \(\bar{x}\)（单位：元）。</p><table><tbody><tr><td>星期</td><td>一</td><td>二</td><td>三</td></tr><tr><td>销售额</td><td>\(1200\)</td><td>\(900\)</td><td>\(1500\)</td></tr></tbody></table>`,
      r`\(1200\)`,
      r`<p>\(\frac{1200+900+1500}{3}=1200\)（元）。</p>`,
    ),
  ];
  const section = (number: string, title: string, score: number, qs: typeof choices, start: number) => ({
    id: id(),
    number,
    typeId: null,
    title,
    note: '',
    defaultScore: score,
    heading: `${number}、${title}（本大题共 ${qs.length} 小题，每小题 ${score} 分，共 ${qs.length * score} 分）`,
    questionCount: qs.length,
    totalScore: qs.length * score,
    items: qs.map((q, i) => ({
      id: id(),
      no: start + i,
      questionId: q!.id,
      score,
      scoreOverride: null,
      question: q,
    })),
  });
  const now = new Date().toISOString();
  return PaperDocumentSchema.parse({
    id: id(),
    title: '七年级数学 公式往返测试卷',
    subtitle: '',
    stageId: id(),
    stageName: '初中',
    subjectId: id(),
    subjectName: '数学',
    textbookId: null,
    status: 'draft',
    source: 'blank',
    version: 1,
    questionCount: 7,
    totalScore: 9 + 8 + 20,
    owner: 'personal',
    ownerName: '演示老师',
    mine: true,
    shared: false,
    isTemplate: false,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    purgeInDays: null,
    permissions: { edit: true, delete: true, share: true, copy: true },
    basketPaperId: null,
    settings: PaperSettingsSchema.parse({ answers: 'separate' }),
    sections: [
      section('一', '单选题', 3, choices, 1),
      section('二', '填空题', 4, blanks, 4),
      section('三', '解答题', 10, solutions, 6),
    ],
  });
}

/** What a reader sees of rich content: text with each formula in its linear reading, images by their bytes. */
function reading(html: string): string {
  return html
    .replace(/<img[^>]*src="([^"]*)"[^>]*>/g, (_, src: string) => `[图:${src.length}]`)
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\\\(([\s\S]*?)\\\)/g, (_, tex: string) => latexToText(tex))
    .replace(/[\s\u3000]+/g, '');
}

describe('Word equations (OMML) from and to LaTeX', () => {
  it('writes fractions, roots, powers and systems as Word structures and reads them back', () => {
    const cases: [string, RegExp][] = [
      [r`\frac{x}{2}-\frac{x-1}{3}=1`, /<m:f><m:num>.*x.*<\/m:num><m:den>.*2.*<\/m:den><\/m:f>/],
      [r`\sqrt[3]{-8}`, /<m:rad><m:deg>.*3.*<\/m:deg><m:e>.*−8.*<\/m:e><\/m:rad>/],
      [r`(-2)^{3}`, /<m:sSup><m:e>.*\(−2\).*<\/m:e><m:sup>.*3.*<\/m:sup><\/m:sSup>/],
      [
        r`\begin{cases}x+y=5\\x-y=1\end{cases}`,
        /<m:begChr m:val="\{"\/>.*<m:eqArr><m:e>.*<\/m:e><m:e>.*<\/m:e><\/m:eqArr>/,
      ],
      [r`x\le 2`, /≤/],
    ];
    for (const [tex, shape] of cases) expect(latexToOmml(tex), tex).toMatch(shape);
    expect(ommlToLatex(latexToOmml(r`\frac{x}{2}-\frac{x-1}{3}=1`))).toBe(r`\frac{x}{2}-\frac{x-1}{3}=1`);
    expect(ommlToLatex(latexToOmml(r`\sqrt{16}+\sqrt[3]{-8}`))).toBe(r`\sqrt{16}+\sqrt[3]{-8}`);
    expect(ommlToLatex(latexToOmml(r`\begin{cases}x+y=5\\x-y=1\end{cases}`))).toBe(
      r`\begin{cases}x+y=5 \\ x-y=1\end{cases}`,
    );
    expect(ommlToLatex(latexToOmml(r`\angle A=50^{\circ}`))).toBe(r`\angle A={50}^\circ`);
  });

  it('reads equations as Word itself writes them (linear fractions, n-ary sums, functions, matrices)', () => {
    const word =
      '<m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math">' +
      '<m:f><m:fPr><m:type m:val="lin"/></m:fPr><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f>' +
      '<m:r><m:t>+</m:t></m:r>' +
      '<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub><m:r><m:t>i=1</m:t></m:r></m:sub><m:sup><m:r><m:t>n</m:t></m:r></m:sup><m:e><m:r><m:t>i</m:t></m:r></m:e></m:nary>' +
      '<m:r><m:t>+</m:t></m:r>' +
      '<m:func><m:fName><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>sin</m:t></m:r></m:fName><m:e><m:r><m:t>x</m:t></m:r></m:e></m:func>' +
      '<m:d><m:e><m:m><m:mr><m:e><m:r><m:t>1</m:t></m:r></m:e><m:e><m:r><m:t>2</m:t></m:r></m:e></m:mr></m:m></m:e></m:d>' +
      '</m:oMath>';
    expect(ommlToLatex(word)).toBe(r`a/b+\sum_{i=1}^n i+\sin x\left(\begin{matrix}1 & 2\end{matrix}\right)`);
  });
});

describe('a paper with mathematics exported to Word and imported again', () => {
  let paper: PaperDocument;
  let docx: Buffer;

  beforeAll(async () => {
    paper = await mathPaper();
    docx = await renderPaperDocx(paper, 'teacher');
  });

  it('writes every formula as a native Word equation, none as linear text', async () => {
    const xml = await (await JSZip.loadAsync(docx)).file('word/document.xml')!.async('string');
    const formulas =
      paper.sections
        .flatMap((s) => s.items)
        .flatMap(({ question: q }) => [q!.stem, ...q!.options.map((o) => o.content), q!.answer, q!.analysis])
        .join('')
        .split('\\(').length - 1;
    expect((xml.match(/<m:oMath>/g) ?? []).length).toBe(formulas);
    expect(xml).toContain('xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"');
    expect(xml).not.toContain('\\frac');
    expect(xml).not.toContain('(x−1)/3');
  });

  it('gives back the same questions: sections, types, stems, options, answers, analyses, figure and table', async () => {
    const parsed = await parseDocx(docx);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.title).toBe(paper.title);
    expect(parsed.sections.map((s) => [s.title, s.typeName, s.score, s.questions.length])).toEqual(
      paper.sections.map((s) => [s.title, s.title, s.defaultScore, s.items.length]),
    );
    const back: ParsedQuestion[] = parsed.sections.flatMap((s) => s.questions);
    const items = paper.sections.flatMap((s) => s.items);
    expect(back).toHaveLength(items.length);
    items.forEach((item, i) => {
      const q = item.question!;
      const got = back[i]!;
      expect(got.no).toBe(item.no);
      expect(reading(got.stem), `stem of ${item.no}`).toBe(reading(q.stem));
      expect(got.options.map((o) => [o.label, reading(o.content)])).toEqual(
        q.options.map((o) => [o.label, reading(o.content)]),
      );
      expect(reading(got.answer), `answer of ${item.no}`).toBe(reading(q.answer));
      expect(reading(got.analysis), `analysis of ${item.no}`).toBe(reading(q.analysis));
      expect(got.knowledgePoints).toEqual(['一元一次方程']);
      expect(got.warnings).toEqual([]);
    });
    // Structures come back as LaTeX a teacher can edit, not as flattened text.
    expect(back[0]!.stem).toContain(r`\frac{x}{2}-\frac{x-1}{3}=1`);
    expect(back[1]!.stem).toContain(r`\sqrt[3]{-8}`);
    expect(back[4]!.stem).toContain(r`\begin{cases}x+1&gt;0 \\ x-2&lt;0\end{cases}`);
    expect(back[5]!.answer).toContain(r`\begin{cases}x=2 \\ y=1\end{cases}`);
    // The figure keeps its bytes; the table keeps its cells.
    const figure = /src="(data:image\/png;base64,[^"]+)"/.exec(items[2]!.question!.stem)![1];
    expect(back[2]!.stem).toContain(figure);
    expect(back[6]!.stem).toMatch(/<table>[\s\S]*销售额[\s\S]*1200[\s\S]*<\/table>/);
  });

  it('opens in LibreOffice and renders the equations on the page (PDF and PNG kept)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'word-math-'));
    const file = path.join(dir, 'paper.docx');
    fs.writeFileSync(file, docx);
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        file,
      ],
      { stdio: 'ignore', timeout: 90_000 },
    );
    const pdf = path.join(dir, 'paper.pdf');
    expect(fs.existsSync(pdf)).toBe(true);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('公式往返测试卷');
    expect(text).toContain('去分母正确的是');
    // Equations are laid out by LibreOffice Math: the fraction's numerator and denominator sit on lines of their
    // own (the stem's line keeps only the bar's neighbours), roots get their radical sign.
    expect(text).toMatch(/1．解方程\s+−\s+=1，去分母正确的是/);
    expect(text).toMatch(/A．3\s*x\s*−\s*2\(\s*x\s*−\s*1\)=6/);
    expect(text).toMatch(/√\s*16\+\s*√\s*−\s*8/);
    expect(text).not.toContain('x/2');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.copyFileSync(file, path.join(ARTIFACTS, 'math-paper.docx'));
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      pdf,
      path.join(ARTIFACTS, 'math-paper'),
    ]);
    expect(fs.statSync(path.join(ARTIFACTS, 'math-paper.png')).size).toBeGreaterThan(10_000);
  }, 120_000);
});
