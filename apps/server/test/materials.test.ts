import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Document, Packer, Paragraph } from 'docx';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MATERIAL_MESSAGES,
  type Material,
  type MaterialFolder,
  type PaperDocument,
  calls,
} from '@zhzy/contracts';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import {
  FORBIDDEN,
  call,
  dataOf,
  demoSchool,
  fileForm,
  secondSchool,
  type DemoSchool,
  type SecondSchool,
} from './school-fixtures.js';

// School materials and binding, on both databases: content-validated uploads, folders, who may change what, the
// recycle bin, previews and downloads, the audit log, binding into one PDF, and two schools that never see each other.

async function pdfBytes(pages: number, label = 'material'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${label} page ${i + 1}`, { x: 72, y: 760, size: 24, font });
  }
  return Buffer.from(await doc.save());
}

async function docxBytes(text: string): Promise<Buffer> {
  return Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ text })] }] }));
}

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

type Page<T> = { records: T[]; total: number };

describe.each(DIALECTS)('school materials on %s', (dialect) => {
  let t: TestApp;
  let a: DemoSchool;
  let b: SecondSchool;
  let now = Date.parse('2026-11-20T08:00:00.000Z');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-materials-'));
  let folder: MaterialFolder;

  const materialCount = async () =>
    Number(
      (
        await t.testDb.db.kysely
          .selectFrom('materials')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const upload = (
    headers: Record<string, string>,
    data: Buffer,
    filename: string,
    fields: Record<string, string> = {},
  ) => call(t, 'POST', '/school/materials', headers, fileForm(data, filename, fields));

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { DATA_DIR: dataDir }, clock: () => now });
    a = await demoSchool(t);
    b = await secondSchool(t);
    folder = dataOf<MaterialFolder>(
      await call(t, 'POST', '/school/materials/folders', a.teacher, { name: '八年级物理' }),
    );
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows 演示学校 its demo folders and materials at first start', async () => {
    const folders = dataOf<MaterialFolder[]>(await call(t, 'GET', '/school/materials/folders', a.teacher));
    expect(folders.map((f) => f.name)).toEqual(
      expect.arrayContaining(['教研活动', '七年级数学', '单元复习', '通知与制度']),
    );
    const review = folders.find((f) => f.name === '单元复习')!;
    expect(folders.find((f) => f.id === review.parentId)?.name).toBe('七年级数学');
    const all = dataOf<Page<Material>>(await call(t, 'GET', '/school/materials?keyword=%E6', a.teacher));
    expect(all.total).toBeGreaterThanOrEqual(0);
    const root = dataOf<Page<Material>>(await call(t, 'GET', '/school/materials', a.teacher));
    expect(root.records.map((m) => `${m.name}.${m.ext}`)).toContain('校园平面示意图.png');
    const inReview = dataOf<Page<Material>>(
      await call(t, 'GET', `/school/materials?folderId=${review.id}`, a.teacher),
    );
    expect(inReview.records[0]).toMatchObject({
      name: '七年级数学第一单元复习提纲',
      kind: 'pdf',
      folderPath: ['七年级数学', '单元复习'],
    });
    expect(inReview.records[0]!.pageCount).toBeGreaterThanOrEqual(1);
  });

  it('uploads a PDF into a folder, lists, previews through a short-lived link and downloads the same bytes', async () => {
    const pdf = await pdfBytes(3);
    const res = await upload(a.teacher, pdf, '浮力实验报告.pdf', { folderId: folder.id });
    const m = dataOf<Material>(res);
    expect(res.body.message).toBe('“浮力实验报告.pdf”上传成功');
    expect(m).toMatchObject({
      name: '浮力实验报告',
      ext: 'pdf',
      kind: 'pdf',
      pageCount: 3,
      folderId: folder.id,
      canManage: true,
    });
    expect(m.uploader?.nickname).toBeTruthy();

    const listed = dataOf<Page<Material>>(
      await call(t, 'GET', `/school/materials?folderId=${folder.id}`, a.director),
    );
    expect(listed.records.map((r) => r.id)).toEqual([m.id]);
    expect(listed.records[0]!.canManage).toBe(false);

    const link = dataOf<{ url: string }>(
      await call(t, 'POST', `/school/materials/${m.id}/link`, a.director, {}),
    );
    const file = await call(t, 'GET', link.url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.raw, pdf)).toBe(0);

    const download = await call(t, 'POST', `/school/materials/${m.id}/download`, a.director, {});
    expect(download.status).toBe(200);
    expect(String(download.headers['content-disposition'])).toContain(encodeURIComponent('浮力实验报告.pdf'));
    expect(Buffer.compare(download.raw, pdf)).toBe(0);

    // Ten minutes later the link is dead.
    now += 11 * 60_000;
    const late = await call(t, 'GET', link.url);
    expect(late.status).toBe(404);
    expect(late.body.message).toBe(MATERIAL_MESSAGES.linkExpired);
  });

  it('takes the type from the content: a PNG named .pdf is an image, and keeps the name the teacher typed', async () => {
    const m = dataOf<Material>(await upload(a.teacher, await png(), '看起来像.pdf', { name: '电路图' }));
    expect(m).toMatchObject({
      name: '电路图',
      ext: 'png',
      kind: 'image',
      mime: 'image/png',
      width: 40,
      height: 30,
    });
  });

  it('refuses wrong, truncated, disguised and oversized files with a Chinese reason and stores nothing', async () => {
    const before = await materialCount();
    const pdf = await pdfBytes(2);
    const jpeg = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#a0c' } })
      .jpeg()
      .toBuffer();
    const xlsx = await new JSZip()
      .file('[Content_Types].xml', '<Types/>')
      .file('xl/workbook.xml', '<workbook/>')
      .generateAsync({ type: 'nodebuffer' });
    const cases: [Buffer, string, number, string][] = [
      [Buffer.from('MZ\x90\x00 this is a program'), '课件.pdf', 415, MATERIAL_MESSAGES.unsupported],
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        '图.png',
        415,
        MATERIAL_MESSAGES.unsupported,
      ],
      [Buffer.from('just some text'), 'notes.docx', 415, MATERIAL_MESSAGES.unsupported],
      [xlsx, '成绩.docx', 415, MATERIAL_MESSAGES.unsupported],
      [
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
        '旧文档.doc',
        400,
        MATERIAL_MESSAGES.legacyWord,
      ],
      [pdf.subarray(0, Math.floor(pdf.length * 0.6)), '半截.pdf', 400, MATERIAL_MESSAGES.badPdf],
      [Buffer.from('%PDF-1.7\n garbage garbage\n%%EOF'), '假的.pdf', 400, MATERIAL_MESSAGES.badPdf],
      [(await docxBytes('内容')).subarray(0, 300), '半截.docx', 400, MATERIAL_MESSAGES.badWord],
      [jpeg.subarray(0, Math.floor(jpeg.length * 0.5)), '半截.jpg', 400, MATERIAL_MESSAGES.badImage],
      [
        Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          Buffer.alloc(21 * 1024 * 1024),
        ]),
        '巨图.png',
        413,
        MATERIAL_MESSAGES.tooLarge(20),
      ],
      [
        Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(51 * 1024 * 1024)]),
        '巨大.pdf',
        413,
        MATERIAL_MESSAGES.tooLarge(50),
      ],
    ];
    for (const [data, name, status, message] of cases) {
      const res = await upload(a.teacher, data, name);
      expect({ name, status: res.status, message: res.body.message }).toEqual({ name, status, message });
    }
    const empty = await upload(a.teacher, Buffer.alloc(0), '空.pdf');
    expect([empty.status, empty.body.message]).toEqual([400, MATERIAL_MESSAGES.noFile]);
    const badName = await upload(a.teacher, pdf, 'x.pdf', { name: 'a/b' });
    expect([badName.status, badName.body.message]).toEqual([400, MATERIAL_MESSAGES.nameInvalid]);
    expect(await materialCount()).toBe(before);
    expect((await call(t, 'POST', '/school/materials', {}, fileForm(pdf, 'x.pdf'))).status).toBe(401);
  });

  it('shows a Word document as sanitised HTML', async () => {
    const m = dataOf<Material>(
      await upload(a.teacher, await docxBytes('课堂纪律要求：<script>alert(1)</script>'), '纪律.docx'),
    );
    expect(m).toMatchObject({ kind: 'word', ext: 'docx' });
    const html = dataOf<{ html: string }>(await call(t, 'GET', `/school/materials/${m.id}/html`, a.director));
    expect(html.html).toContain('课堂纪律要求');
    expect(html.html).not.toContain('<script');
    const notWord = dataOf<Page<Material>>(
      await call(t, 'GET', '/school/materials?kind=pdf&keyword=浮力', a.teacher),
    );
    const res = await call(t, 'GET', `/school/materials/${notWord.records[0]!.id}/html`, a.teacher);
    expect(res.status).toBe(400);
  });

  it('searches names across every folder and filters by kind and uploader', async () => {
    const hits = dataOf<Page<Material>>(
      await call(t, 'GET', `/school/materials?keyword=${encodeURIComponent('复习')}`, a.director),
    );
    expect(hits.records.map((m) => m.name)).toContain('七年级数学第一单元复习提纲');
    expect(hits.records.every((m) => m.name.includes('复习'))).toBe(true);
    const mine = dataOf<Page<Material>>(
      await call(t, 'GET', '/school/materials?keyword=%E5&mine=true', a.director),
    );
    expect(mine.total).toBe(0);
    const images = dataOf<Page<Material>>(
      await call(t, 'GET', '/school/materials?kind=image&keyword=图', a.teacher),
    );
    expect(images.records.every((m) => m.kind === 'image')).toBe(true);
  });

  it('lets teachers manage only their own files and folders, administrators everything', async () => {
    const adminFile = dataOf<Material>(await upload(a.admin, await pdfBytes(1), '校历.pdf'));
    const own = dataOf<Material>(
      await upload(a.teacher, await pdfBytes(1), '我的讲义.pdf', { folderId: folder.id }),
    );
    expect(adminFile.canManage).toBe(true);

    // A teacher on someone else's file: 403, nothing changes.
    for (const [method, url, body] of [
      ['PUT', `/school/materials/${adminFile.id}/name`, { name: '改名' }],
      ['PUT', `/school/materials/${adminFile.id}/folder`, { folderId: folder.id }],
      ['DELETE', `/school/materials/${adminFile.id}`, undefined],
    ] as const) {
      const res = await call(t, method, url, a.teacher, body);
      expect([res.status, res.body.message]).toEqual([403, FORBIDDEN]);
    }
    expect(dataOf<Material>(await call(t, 'GET', `/school/materials/${adminFile.id}`, a.teacher)).name).toBe(
      '校历',
    );

    // Their own: rename, move, delete to the recycle bin, restore.
    expect(
      dataOf<Material>(
        await call(t, 'PUT', `/school/materials/${own.id}/name`, a.teacher, { name: '浮力讲义' }),
      ).name,
    ).toBe('浮力讲义');
    expect(
      dataOf<Material>(
        await call(t, 'PUT', `/school/materials/${own.id}/folder`, a.teacher, { folderId: null }),
      ).folderId,
    ).toBeNull();
    const renameBad = await call(t, 'PUT', `/school/materials/${own.id}/name`, a.teacher, { name: '  ' });
    expect([renameBad.status, renameBad.body.message]).toEqual([
      400,
      `${MATERIAL_MESSAGES.nameRequired}（字段：name）`,
    ]);

    // An administrator on the teacher's file.
    expect(
      dataOf<Material>(
        await call(t, 'PUT', `/school/materials/${own.id}/name`, a.admin, { name: '物理讲义' }),
      ).name,
    ).toBe('物理讲义');

    // Folders: the teacher's own folder is theirs; the administrator's folders are not.
    const adminFolder = dataOf<MaterialFolder[]>(
      await call(t, 'GET', '/school/materials/folders', a.teacher),
    ).find((f) => f.name === '教研活动')!;
    expect(adminFolder.canManage).toBe(false);
    const forbidden = await call(t, 'PUT', `/school/materials/folders/${adminFolder.id}`, a.teacher, {
      name: '改',
    });
    expect(forbidden.status).toBe(403);
    expect((await call(t, 'DELETE', `/school/materials/folders/${adminFolder.id}`, a.teacher)).status).toBe(
      403,
    );
    const notEmpty = await call(t, 'DELETE', `/school/materials/folders/${adminFolder.id}`, a.admin);
    expect([notEmpty.status, notEmpty.body.message]).toEqual([409, MATERIAL_MESSAGES.folderNotEmpty]);
    const dup = await call(t, 'POST', '/school/materials/folders', a.teacher, { name: '教研活动' });
    expect([dup.status, dup.body.message]).toEqual([409, MATERIAL_MESSAGES.folderExists('教研活动')]);
    const sub = dataOf<MaterialFolder>(
      await call(t, 'POST', '/school/materials/folders', a.teacher, { name: '力学', parentId: folder.id }),
    );
    const loop = await call(t, 'PUT', `/school/materials/folders/${folder.id}`, a.teacher, {
      parentId: sub.id,
    });
    expect([loop.status, loop.body.message]).toEqual([400, MATERIAL_MESSAGES.folderIntoItself]);
    expect((await call(t, 'DELETE', `/school/materials/folders/${sub.id}`, a.teacher)).status).toBe(200);

    // The recycle bin: a teacher sees their own deleted files, an administrator all of them.
    dataOf(await call(t, 'DELETE', `/school/materials/${own.id}`, a.teacher));
    dataOf(await call(t, 'DELETE', `/school/materials/${adminFile.id}`, a.admin));
    expect((await call(t, 'GET', `/school/materials/${own.id}`, a.teacher)).status).toBe(404);
    const teacherBin = dataOf<Page<Material>>(await call(t, 'GET', '/school/materials-recycle', a.teacher));
    expect(teacherBin.records.map((m) => m.id)).toEqual([own.id]);
    const adminBin = dataOf<Page<Material>>(await call(t, 'GET', '/school/materials-recycle', a.admin));
    expect(adminBin.records.map((m) => m.id).sort()).toEqual([own.id, adminFile.id].sort());
    expect((await call(t, 'PUT', `/school/materials/${adminFile.id}/restore`, a.teacher)).status).toBe(403);
    expect(
      dataOf<Material>(await call(t, 'PUT', `/school/materials/${own.id}/restore`, a.teacher)).deletedAt,
    ).toBeNull();
    expect((await call(t, 'DELETE', `/school/materials/${adminFile.id}/purge`, a.admin)).status).toBe(200);
    expect((await call(t, 'GET', `/school/materials/${adminFile.id}`, a.admin)).status).toBe(404);

    // Every change is in the audit log, read by administrators.
    const log = dataOf<{ records: { actionName: string; detail: string }[] }>(
      await call(t, 'GET', '/school/audit?size=100', a.admin),
    );
    const names = log.records.map((r) => r.actionName);
    expect(names).toEqual(
      expect.arrayContaining([
        '上传资料',
        '重命名资料',
        '移动资料',
        '删除资料',
        '恢复资料',
        '彻底删除资料',
        '创建资料文件夹',
        '删除资料文件夹',
      ]),
    );
    expect(log.records.some((r) => r.detail.includes('“我的讲义.pdf”→“浮力讲义.pdf”'))).toBe(true);
  });

  it('binds a paper, a PDF and an image into one booklet with a cover, and refuses Word with a reason', async () => {
    const questions = await t.testDb.db.kysely
      .selectFrom('questions')
      .select('id')
      .where('subject_id', '=', SUBJECT_IDS.数学)
      .where('owner', '=', 'system')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(4)
      .execute();
    const blank = dataOf<PaperDocument>(
      await call(t, 'POST', '/teacher/paper/create', a.teacher, {
        subjectId: SUBJECT_IDS.数学,
        title: '第一单元小测',
      }),
    );
    const paper = dataOf<PaperDocument>(
      await call(t, 'POST', `/teacher/paper/detail/${blank.id}/questions`, a.teacher, {
        version: blank.version,
        questionIds: questions.map((q) => q.id),
      }),
    );
    const pdf = dataOf<Material>(await upload(a.teacher, await pdfBytes(2, 'handout'), '讲义.pdf'));
    const image = dataOf<Material>(await upload(a.teacher, await png(), '示意图.png'));
    const word = dataOf<Material>(await upload(a.teacher, await docxBytes('Word 资料'), '说明.docx'));

    const check = dataOf<{ items: { id: string; title: string; problem: string | null }[] }>(
      await call(t, 'POST', '/school/binding/check', a.teacher, {
        items: [
          { type: 'paper', id: paper.id },
          { type: 'material', id: word.id },
          { type: 'paper', id: 'no-such-paper' },
        ],
      }),
    );
    expect(check.items.map((i) => [i.title, i.problem])).toEqual([
      ['第一单元小测', null],
      ['', MATERIAL_MESSAGES.bindingWord('说明.docx')],
      ['', MATERIAL_MESSAGES.bindingPaperNotFound],
    ]);

    const refused = await call(t, 'POST', '/school/binding/pdf', a.teacher, {
      title: '复习资料汇编',
      items: [
        { type: 'paper', id: paper.id },
        { type: 'material', id: word.id },
      ],
    });
    expect([refused.status, refused.body.message]).toEqual([400, MATERIAL_MESSAGES.bindingWord('说明.docx')]);
    const none = await call(t, 'POST', '/school/binding/pdf', a.teacher, { title: '空', items: [] });
    expect([none.status, none.body.message]).toEqual([
      400,
      `${MATERIAL_MESSAGES.bindingEmpty}（字段：items）`,
    ]);

    const res = await call(t, 'POST', '/school/binding/pdf', a.teacher, {
      title: '复习资料汇编',
      items: [
        { type: 'material', id: pdf.id },
        { type: 'paper', id: paper.id },
        { type: 'material', id: image.id },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('复习资料汇编.pdf'));
    const booklet = await PDFDocument.load(res.raw);
    // cover + 2 handout pages + the paper (at least one page) + 1 image page
    expect(booklet.getPageCount()).toBeGreaterThanOrEqual(5);
    expect(booklet.getTitle()).toBe('复习资料汇编');
    const file = path.join(dataDir, 'booklet.pdf');
    fs.writeFileSync(file, res.raw);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('复习资料汇编');
    expect(text).toContain('演示学校');
    expect(text).toMatch(/讲义（PDF）\s+第\s*1\s*页/);
    expect(text).toMatch(/第一单元小测（试卷）\s+第\s*3\s*页/);
    expect(text).toContain('handout page 2');
    expect(text).toMatch(/1\s*\/\s*4/);
  });

  it('keeps two schools apart in every call', async () => {
    const fileA = dataOf<Material>(
      await upload(a.teacher, await pdfBytes(1), '甲校资料.pdf', { folderId: folder.id }),
    );
    const deletedA = dataOf<Material>(await upload(a.teacher, await pdfBytes(1), '甲校已删.pdf'));
    dataOf(await call(t, 'DELETE', `/school/materials/${deletedA.id}`, a.teacher));
    const linkA = dataOf<{ url: string }>(
      await call(t, 'POST', `/school/materials/${fileA.id}/link`, a.teacher, {}),
    );
    const fileB = dataOf<Material>(await upload(b.teacher, await pdfBytes(1), '乙校资料.pdf'));

    // Lists of school B show none of school A's folders or files.
    const foldersB = dataOf<MaterialFolder[]>(await call(t, 'GET', '/school/materials/folders', b.admin));
    expect(foldersB).toEqual([]);
    const listB = dataOf<Page<Material>>(await call(t, 'GET', '/school/materials', b.admin));
    expect(listB.records.map((m) => m.id)).toEqual([fileB.id]);
    const searchB = dataOf<Page<Material>>(
      await call(t, 'GET', `/school/materials?keyword=${encodeURIComponent('甲校')}`, b.admin),
    );
    expect(searchB.total).toBe(0);
    expect(dataOf<Page<Material>>(await call(t, 'GET', '/school/materials-recycle', b.admin)).total).toBe(0);
    const auditB = dataOf<{ records: { detail: string }[] }>(
      await call(t, 'GET', '/school/audit?size=100', b.admin),
    );
    expect(auditB.records.some((r) => r.detail.includes('甲校'))).toBe(false);

    // Every call on a row of school A, by school B's administrator: 404, and nothing changes.
    const rowCases: [keyof typeof calls, 'GET' | 'POST' | 'PUT' | 'DELETE', string, object | undefined][] = [
      ['materials', 'GET', `/school/materials?folderId=${folder.id}`, undefined],
      ['updateMaterialFolder', 'PUT', `/school/materials/folders/${folder.id}`, { name: '乙改' }],
      ['deleteMaterialFolder', 'DELETE', `/school/materials/folders/${folder.id}`, undefined],
      [
        'createMaterialFolder',
        'POST',
        '/school/materials/folders',
        { name: '乙校子目录', parentId: folder.id },
      ],
      ['materialDetail', 'GET', `/school/materials/${fileA.id}`, undefined],
      ['renameMaterial', 'PUT', `/school/materials/${fileA.id}/name`, { name: '乙改' }],
      ['moveMaterial', 'PUT', `/school/materials/${fileA.id}/folder`, { folderId: null }],
      ['moveMaterial', 'PUT', `/school/materials/${fileB.id}/folder`, { folderId: folder.id }],
      ['deleteMaterial', 'DELETE', `/school/materials/${fileA.id}`, undefined],
      ['restoreMaterial', 'PUT', `/school/materials/${deletedA.id}/restore`, undefined],
      ['purgeMaterial', 'DELETE', `/school/materials/${deletedA.id}/purge`, undefined],
      ['materialLink', 'POST', `/school/materials/${fileA.id}/link`, {}],
      ['materialHtml', 'GET', `/school/materials/${fileA.id}/html`, undefined],
      ['downloadMaterial', 'POST', `/school/materials/${fileA.id}/download`, {}],
      [
        'bindBooklet',
        'POST',
        '/school/binding/pdf',
        { title: '乙', items: [{ type: 'material', id: fileA.id }] },
      ],
    ];
    const covered = new Set<string>();
    for (const [name, method, url, body] of rowCases) {
      covered.add(name);
      const res = await call(t, method, url, b.admin, body);
      expect({ name, url, status: res.status }).toEqual({ name, url, status: 404 });
    }
    const check = dataOf<{ items: { problem: string | null }[] }>(
      await call(t, 'POST', '/school/binding/check', b.admin, {
        items: [{ type: 'material', id: fileA.id }],
      }),
    );
    expect(check.items[0]!.problem).toBe(MATERIAL_MESSAGES.materialNotFound);
    covered.add('checkBinding');
    const uploadIntoA = await upload(b.teacher, await pdfBytes(1), 'x.pdf', { folderId: folder.id });
    expect(uploadIntoA.status).toBe(404);
    covered.add('uploadMaterial');
    // A preview link is made only for a member of the file's school; a guessed token opens nothing.
    expect((await call(t, 'GET', '/school/material-file/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(404);
    expect((await call(t, 'GET', linkA.url)).status).toBe(200);
    covered.add('materialFile');
    covered.add('materialFolders');
    covered.add('materialRecycleBin');

    // Nothing of school A changed.
    const after = dataOf<Material>(await call(t, 'GET', `/school/materials/${fileA.id}`, a.teacher));
    expect(after).toMatchObject({ name: '甲校资料', folderId: folder.id, deletedAt: null });
    expect(
      dataOf<Material>(await call(t, 'GET', `/school/materials/${fileB.id}`, b.teacher)).folderId,
    ).toBeNull();
    const folderAfter = dataOf<MaterialFolder[]>(
      await call(t, 'GET', '/school/materials/folders', a.teacher),
    ).find((f) => f.id === folder.id);
    expect(folderAfter?.name).toBe('八年级物理');
    const binA = dataOf<Page<Material>>(await call(t, 'GET', '/school/materials-recycle', a.teacher));
    expect(binA.records.map((m) => m.id)).toContain(deletedA.id);

    // Every material call of the contracts is covered above.
    const materialCalls = Object.values(calls)
      .filter((c) => c.path.startsWith('/school/material') || c.path.startsWith('/school/binding'))
      .map((c) => c.name);
    expect(materialCalls.filter((n) => !covered.has(n))).toEqual([]);
  });
});
