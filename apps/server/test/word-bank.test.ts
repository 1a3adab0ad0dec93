import { Document, Packer, Paragraph, TextRun } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ImportPreviewSchema,
  ImportQuestionsResultSchema,
  QuestionSchema,
  SchoolQuestionSchema,
  page,
  type ImportPreview,
  type QuestionInput,
} from '@zhzy/contracts';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { DIALECTS, bearer, multipart, signIn, startTestApp, type TestApp } from './helpers/index.js';

// Word import into the question bank (issue #23): a teacher's paper is read, fixed up and saved into 我的题库,
// optionally shared to the school bank; nothing of it is seen by colleagues until the school approves it.

type Headers = { authorization: string };
const QuestionPage = page(QuestionSchema);
const SharesPage = page(SchoolQuestionSchema);

async function paperDocx(): Promise<Buffer> {
  const p = (text: string) => new Paragraph({ children: [new TextRun(text)] });
  const doc = new Document({
    sections: [
      {
        children: [
          p('七年级数学 题库导入测验'),
          p('一、选择题（每小题 3 分）'),
          p('1. 题库导入甲：-7 的相反数是（　　）'),
          p('A. 7　　B. -7　　C. 1/7　　D. -1/7'),
          p('【答案】A'),
          p('【解析】只有符号不同的两个数互为相反数。'),
          p('二、填空题（每小题 4 分）'),
          p('2. 题库导入乙：计算 3 - 8 = ____。'),
          p('【解析】3 - 8 = -5。'),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** The preview's questions as the dialog sends them after the teacher's fix-up. */
function asInputs(preview: ImportPreview): QuestionInput[] {
  return preview.sections.flatMap((s) =>
    s.questions.map((q) => ({
      subjectId: preview.subjectId,
      typeId: q.typeId,
      difficulty: q.difficulty,
      stem: q.stem,
      options: q.options,
      answer: q.answer,
      analysis: q.analysis,
      knowledgePointIds: q.knowledgePointIds,
      source: preview.title,
    })),
  );
}

describe.each(DIALECTS)('Word import into the question bank on %s', (dialect) => {
  let t: TestApp;
  let teacher: Headers;
  let colleague: Headers;
  let preview: ImportPreview;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    teacher = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    colleague = bearer((await signIn(t.app, 'demo-director')).access_token);
    const body = await multipart({
      subjectId: SUBJECT_IDS.数学,
      file: new Blob([new Uint8Array(await paperDocx())]),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/import/preview',
      headers: { ...teacher, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    preview = ImportPreviewSchema.parse(res.json().data);
  });
  afterAll(() => t.close());

  const mine = async (who: Headers, keyword: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&scope=mine&keyword=${encodeURIComponent(keyword)}&size=50`,
      headers: who,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return QuestionPage.parse(res.json().data).records;
  };
  const importQuestions = (who: Headers, questions: QuestionInput[], share = false) =>
    t.app.inject({
      method: 'POST',
      url: '/teacher/question/personal/import',
      headers: who,
      payload: { questions, share },
    });

  it('the preview carries the paragraphs of the document as read, for the side-by-side fix-up', () => {
    expect(preview.source).toContain('一、选择题（每小题 3 分）');
    expect(preview.source).toContain('【答案】A');
    expect(preview.questionCount).toBe(2);
    const second = preview.sections[1]!.questions[0]!;
    expect(second.warnings.join('')).toContain('第 2 题');
  });

  it('refuses the whole batch, naming the question, when one of them is not valid; nothing is saved', async () => {
    const inputs = asInputs(preview);
    inputs[1] = { ...inputs[1]!, typeId: typeId('语文', '填空题') };
    const res = await importQuestions(teacher, inputs);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('第 2 题：题型不属于该学科');
    expect(await mine(teacher, '题库导入甲')).toHaveLength(0);
  });

  it("saves the corrected questions into the teacher's own bank, searchable, and only the teacher sees them", async () => {
    const inputs = asInputs(preview);
    inputs[1] = { ...inputs[1]!, answer: '<p>-5</p>' };
    const res = await importQuestions(teacher, inputs);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const result = ImportQuestionsResultSchema.parse(res.json().data);
    expect(result.ids).toHaveLength(2);
    expect(result.shared).toBe(0);
    const found = await mine(teacher, '题库导入乙');
    expect(found.map((q) => q.id)).toEqual([result.ids[1]]);
    expect(found[0]!.answer).toBe('<p>-5</p>');
    expect(found[0]!.typeName).toBe('填空题');
    const first = (await mine(teacher, '题库导入甲'))[0]!;
    expect(first.answer).toBe('A');
    expect(first.options.map((o) => o.label)).toEqual(['A', 'B', 'C', 'D']);

    expect(await mine(colleague, '题库导入甲')).toHaveLength(0);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/info/${result.ids[0]}`,
      headers: colleague,
    });
    expect(detail.statusCode).toBe(404);
  });

  it('shares them to the school bank for review when asked; colleagues see them only once approved', async () => {
    const res = await importQuestions(teacher, asInputs(preview).slice(0, 1), true);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const result = ImportQuestionsResultSchema.parse(res.json().data);
    expect(result.shared).toBe(1);
    const shares = await t.app.inject({
      method: 'GET',
      url: '/teacher/question/shares?size=50',
      headers: teacher,
    });
    expect(shares.statusCode, shares.body.slice(0, 300)).toBe(200);
    const pending = SharesPage.parse(shares.json().data).records.filter((r) =>
      r.question.stem.includes('题库导入甲'),
    );
    expect(pending.map((r) => r.reviewStatus)).toEqual(['pending']);
    const school = await t.app.inject({
      method: 'GET',
      url: '/school/question/page?status=approved&keyword=' + encodeURIComponent('题库导入甲'),
      headers: colleague,
    });
    expect(SharesPage.parse(school.json().data).records).toHaveLength(0);
  });
});
