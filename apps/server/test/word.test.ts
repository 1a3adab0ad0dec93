/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import { Document, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCX_MIME,
  ImportPreviewSchema,
  PaperDocumentSchema,
  PaperSettingsSchema,
  type ImportPreview,
  type PaperDocument,
} from '@zhzy/contracts';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { DIALECTS, bearer, multipart, signIn, startTestApp, type TestApp } from './helpers/index.js';

type Headers = { authorization: string };

// A 2×2 red PNG.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

/** A teacher's Word paper in the common convention, built here with the docx package. */
async function teacherDocx(): Promise<Buffer> {
  const p = (text: string) => new Paragraph({ children: [new TextRun(text)] });
  const doc = new Document({
    sections: [
      {
        children: [
          p('七年级数学 第一单元 随堂测验'),
          p('（时间：40分钟）'),
          p('一、选择题（每小题 3 分，共 9 分）'),
          p('1. 下列各数中，最小的数是（　　）'),
          p('A. 0　　B. -2　　C. 1　　D. 3'),
          p('【答案】B'),
          p('【解析】负数小于 0，0 小于正数，所以最小的数是 -2。'),
          p('【知识点】有理数的大小比较'),
          p('2、-5 的绝对值是（　　）'),
          p('A. 5'),
          p('B. -5'),
          p('C. 1/5'),
          p('【知识点】绝对值，没有这个知识点'),
          p('4. 比较大小：-3 ____ -4（填“>”或“<”）【答案】>【解析】两个负数比较，绝对值大的反而小。'),
          p('二、填空题'),
          new Paragraph({
            children: [
              new TextRun('1. 如图，数轴上点 A 表示的数是____。'),
              new ImageRun({
                type: 'png',
                data: Buffer.from(PNG_BASE64, 'base64'),
                transformation: { width: 20, height: 20 },
              }),
            ],
          }),
          p('参考答案'),
          p('1. -1'),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

describe.each(DIALECTS)('Word export and import on %s', (dialect) => {
  let t: TestApp;
  let me: Headers;
  let paper: PaperDocument;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    me = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/smart',
      headers: me,
      payload: {
        subjectId: SUBJECT_IDS.数学,
        types: [
          { typeId: typeId('数学', '单选题'), count: 4, score: 3 },
          { typeId: typeId('数学', '填空题'), count: 3, score: 4 },
          { typeId: typeId('数学', '解答题'), count: 2, score: 10 },
        ],
        difficulty: 0.4,
        createPaper: true,
        title: '七年级数学 导出测试卷',
      },
    });
    paper = PaperDocumentSchema.parse(res.json().data.paper);
  });
  afterAll(() => t.close());

  const exportDocx = async (copy: 'student' | 'teacher') => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/teacher/paper/export/${paper.id}`,
      headers: me,
      payload: { copy },
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe(DOCX_MIME);
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent(paper.title));
    const zip = await JSZip.loadAsync(res.rawPayload);
    return { zip, xml: await zip.file('word/document.xml')!.async('string') };
  };
  /** The text of a document.xml, runs joined. */
  const textOf = (xml: string) =>
    [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');

  it('exports a student copy that opens as a zip with the title, the numbered sections and the questions', async () => {
    const { xml } = await exportDocx('student');
    const text = textOf(xml);
    expect(text).toContain('七年级数学 导出测试卷');
    expect(text).toContain('一、单选题（本大题共 4 小题，每小题 3 分，共 12 分）');
    expect(text).toContain('三、解答题');
    expect(text).toContain('满分：44 分');
    for (const item of paper.sections.flatMap((s) => s.items)) {
      const lead = item
        .question!.stem.replace(/<[^>]*>/g, '')
        .split('\\(')[0]!
        .slice(0, 6);
      if (lead) expect(text).toContain(lead);
      expect(text).toContain(`${item.no}．`);
    }
    expect(text).not.toContain('【答案】');
    expect(xml).toContain('宋体');
  });

  it('exports a teacher copy with every answer and analysis', async () => {
    const { xml } = await exportDocx('teacher');
    const text = textOf(xml);
    expect(text).toContain('教师用卷');
    expect(text.split('【答案】').length - 1).toBe(paper.questionCount);
    expect(text).toContain('【解析】');
  });

  it('follows the paper settings: A3 in two landscape columns, answers at the end, images from data URLs', async () => {
    await t.app.inject({
      method: 'PUT',
      url: `/teacher/paper/settings/${paper.id}`,
      headers: me,
      payload: PaperSettingsSchema.parse({
        paperSize: 'A3',
        answers: 'end',
        sealingLine: true,
        scoreTable: true,
        header: { school: '演示学校', examMinutes: 90, showNotice: true },
      }),
    });
    const item = paper.sections[0]!.items[0]!;
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/teacher/paper/detail/${paper.id}/edit-question`,
      headers: me,
      payload: {
        version: paper.version,
        questionId: item.questionId,
        stem: `<p>如图，\\(\\frac{1}{2}x^{2}=8\\)，则 x 等于（\u3000\u3000）<img src="data:image/png;base64,${PNG_BASE64}"></p>`,
        options: item.question!.options,
        answer: item.question!.answer,
        analysis: item.question!.analysis,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const { zip, xml } = await exportDocx('student');
    const text = textOf(xml);
    expect(xml).toContain('w:orient="landscape"');
    expect(xml).toMatch(/<w:cols [^>]*w:num="2"/);
    expect(text).toContain('参考答案与解析');
    expect(text).toContain('考试时间：90 分钟');
    expect(text).toContain('密 封 线 内 不 要 答 题');
    expect(text).toContain('注意事项：');
    // The formula as a native Word equation: a stacked fraction ½ and x with a superscript 2.
    expect(xml).toMatch(/<m:f><m:num>.*?1<\/m:t>.*?<\/m:num><m:den>.*?2<\/m:t>.*?<\/m:den><\/m:f>/);
    expect(xml).toMatch(/<m:sSup><m:e>.*?x<\/m:t>.*?<\/m:e><m:sup>.*?2<\/m:t>.*?<\/m:sup><\/m:sSup>/);
    expect(text).not.toContain('1/2');
    expect(Object.keys(zip.files).some((f) => f.startsWith('word/media/'))).toBe(true);
  });

  let preview: ImportPreview;

  it('imports a Word paper written in the common convention into a preview with warnings', async () => {
    const { payload, contentType } = await multipart({
      subjectId: SUBJECT_IDS.数学,
      file: new Blob([new Uint8Array(await teacherDocx())], { type: DOCX_MIME }),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/import/preview',
      headers: { ...me, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    preview = ImportPreviewSchema.parse(res.json().data);
    expect(preview.title).toBe('七年级数学 第一单元 随堂测验');
    expect(preview.subtitle).toBe('（时间：40分钟）');
    expect(preview.questionCount).toBe(4);
    expect(preview.sections.map((s) => [s.title, s.typeId, s.defaultScore, s.questions.length])).toEqual([
      ['选择题', typeId('数学', '单选题'), 3, 3],
      ['填空题', typeId('数学', '填空题'), 3, 1],
    ]);
    const [q1, q2, q4] = preview.sections[0]!.questions;
    expect(q1).toMatchObject({
      no: 1,
      answer: 'B',
      knowledgePointIds: ['kp-k-m-rational-compare'],
      warnings: [],
    });
    expect(q1!.options.map((o) => [o.label, o.content])).toEqual([
      ['A', '0'],
      ['B', '-2'],
      ['C', '1'],
      ['D', '3'],
    ]);
    expect(q1!.stem).toContain('下列各数中，最小的数是');
    expect(q1!.analysis).toContain('负数小于 0');
    expect(q2!.options).toHaveLength(3);
    expect(q2!.knowledgePointIds).toEqual(['kp-k-m-rational-abs']);
    expect(q2!.warnings).toEqual([
      '第 2 题只识别到 3 个选项（A、B、C），可能有选项没有识别出来',
      '第 2 题没有找到【答案】',
      '第 2 题的知识点“没有这个知识点”不在知识点库中，请重新选择',
    ]);
    expect(q4).toMatchObject({ no: 4, answer: '&gt;' === q4!.answer ? '&gt;' : '>' });
    expect(q4!.analysis).toContain('绝对值大的反而小');
    expect(preview.warnings).toContain('题号不连续：第 2 题之后是第 4 题，可能有题目没有识别出来');
    const blank = preview.sections[1]!.questions[0]!;
    expect(blank.stem).toContain('data:image/png;base64,');
    expect(blank.answer).toBe('-1');
    expect(preview.warnings).toContain('“填空题”没有写明每小题分值，已按 3 分计，请核对');
  });

  it('saves the fixed preview as personal questions and a draft paper', async () => {
    const sections = preview.sections.map((s) => ({
      ...s,
      questions: s.questions.map((q) =>
        q.no === 2 ? { ...q, answer: 'A', options: [...q.options, { label: 'D', content: '0' }] } : q,
      ),
    }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/import/save',
      headers: me,
      payload: { subjectId: SUBJECT_IDS.数学, title: preview.title, subtitle: preview.subtitle, sections },
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = PaperDocumentSchema.parse(res.json().data);
    expect(saved).toMatchObject({ source: 'word', status: 'draft', questionCount: 4, totalScore: 12 });
    const q2 = saved.sections[0]!.items[1]!.question!;
    expect(q2).toMatchObject({ owner: 'personal', answer: 'A' });
    expect(q2.options).toHaveLength(4);
    expect(saved.sections[1]!.items[0]!.question!.stem).toContain('<img src="data:image/png;base64,');
    const other = bearer((await signIn(t.app, 'demo-director')).access_token);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/teacher/paper/detail/${saved.id}`,
      headers: other,
    });
    expect(theirs.statusCode).toBe(403);
  });

  it('refuses a file that is not a Word document, in Chinese', async () => {
    const { payload, contentType } = await multipart({
      subjectId: SUBJECT_IDS.数学,
      file: new Blob(['这不是 Word 文件'], { type: 'text/plain' }),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/import/preview',
      headers: { ...me, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('无法读取该文件，请上传 .docx 格式的 Word 文档');
    const missing = await multipart({ subjectId: SUBJECT_IDS.数学 });
    const none = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/import/preview',
      headers: { ...me, 'content-type': missing.contentType },
      payload: missing.payload,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain('请选择要导入的 Word 文件');
  });
  it('suggests knowledge points for a question imported without them, from the bank question most like it', async () => {
    const db = t.testDb.db.kysely;
    const source = await db
      .selectFrom('questions')
      .select('id')
      .where('stem', 'like', '%篮球和足球共 15 个%')
      .where('owner', '=', 'system')
      .executeTakeFirstOrThrow();
    const expected = (
      await db
        .selectFrom('question_knowledge_points')
        .select('knowledge_point_id')
        .where('question_id', '=', source.id)
        .execute()
    ).map((r) => r.knowledge_point_id);
    expect(expected.length).toBeGreaterThan(0);

    const p = (text: string) => new Paragraph({ children: [new TextRun(text)] });
    const doc = new Document({
      sections: [
        {
          children: [
            p('应用题练习'),
            p('一、解答题（每小题 10 分）'),
            p(
              '1. 某班用 1560 元购买了篮球和足球共 15 个，已知篮球每个 120 元，足球每个 90 元。该班购买篮球、足球各多少个？',
            ),
            p('2. 请观察校园里的一棵树，写下你看到的颜色和形状。'),
          ],
        },
      ],
    });
    const { payload, contentType } = await multipart({
      subjectId: SUBJECT_IDS.数学,
      file: new Blob([new Uint8Array(await Packer.toBuffer(doc))], { type: DOCX_MIME }),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/import/preview',
      headers: { ...me, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [related, unrelated] = ImportPreviewSchema.parse(res.json().data).sections[0]!.questions;
    expect([...related!.knowledgePointIds].sort()).toEqual([...expected].sort());
    expect(related!.warnings.some((w) => w.includes('已按题库中的相似试题推荐'))).toBe(true);
    expect(unrelated!.knowledgePointIds).toEqual([]);
    expect(unrelated!.warnings.join('')).not.toContain('推荐');
  });
});
