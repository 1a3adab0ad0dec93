import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreatedScanBatchSchema,
  SCAN_MESSAGES,
  ScanPageInfoSchema,
  UploadedScanPageSchema,
  envelope,
  type CreatedScanBatch,
} from '@zhzy/contracts';
import { z } from 'zod';
import { DEMO_ACCOUNTS } from '../src/seed/demo.js';
import { createSchool } from '../src/seed/school.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';
import { bombPng } from './helpers/hostile-files.js';

const Created = envelope(CreatedScanBatchSchema);
const Uploaded = envelope(UploadedScanPageSchema);
const Pages = envelope(z.array(ScanPageInfoSchema));

/** A small scanned-looking page in the format asked for. */
async function page(format: 'jpeg' | 'png' | 'tiff' | 'gif', seed = 1): Promise<Buffer> {
  const img = sharp({
    create: { width: 240, height: 340, channels: 3, background: { r: 250, g: 250, b: 248 } },
  }).composite([
    {
      input: Buffer.from(
        `<svg width="240" height="340"><rect x="${10 + seed}" y="20" width="30" height="18" fill="#222"/></svg>`,
      ),
    },
  ]);
  return img.toFormat(format).toBuffer();
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(DIALECTS)('scan intake on %s', (dialect) => {
  let t: TestApp;
  let now = Date.parse('2026-03-02T08:00:00.000Z');
  let teacher: { authorization: string };
  let admin: { authorization: string };
  let other: { authorization: string };
  let yearId = '';
  let otherYearId = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-scan-pages-'));

  const call = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string | FormData,
  ) => {
    const res = await fetch(`${t.baseUrl}${url}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      type,
      body: type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer()),
    };
  };
  const json = (h: Record<string, string>) => ({ ...h, 'content-type': 'application/json' });
  const createBatch = async (
    h: Record<string, string>,
    body: object = { schoolYearId: yearId, subjectTeacher: true, deviceName: '虚拟扫描仪', paperSize: 1 },
  ) => {
    const res = await call('POST', '/teacher/scan/batch', json(h), JSON.stringify(body));
    expect(res.status).toBe(200);
    return Created.parse(res.body).data;
  };
  const upload = (
    batchId: string,
    h: Record<string, string>,
    data: Buffer,
    fields: Record<string, string> = {},
    filename = 'p-0001.jpg',
  ) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new Blob([data]), filename);
    return call('POST', `/teacher/scan/batch/${batchId}/page`, h, form);
  };

  beforeAll(async () => {
    t = await startTestApp({ dialect, listen: true, clock: () => now, env: { DATA_DIR: dataDir } });
    teacher = bearer((await signIn(t.app, DEMO_ACCOUNTS.teacher)).access_token);
    admin = bearer((await signIn(t.app, DEMO_ACCOUNTS.admin)).access_token);
    const school = await createSchool(t.testDb.db.kysely, {
      name: '第二中学',
      years: [{ name: '2026-2027学年', isDefault: true, classes: [] }],
      users: [{ username: 'b-teacher', password: 'Other@2026', nickname: '赵老师' }],
    });
    otherYearId = school.yearIds[0]!;
    other = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
    const info = (await call('GET', '/system/user/info', teacher)).body as {
      data: { gradeInfo: { orgDefaultId: string } };
    };
    const years = (
      await call('GET', `/system/class?orgId=${info.data.gradeInfo.orgDefaultId}&type=1`, teacher)
    ).body as { data: { id: string; isDefault: boolean }[] };
    yearId = years.data.find((y) => y.isDefault)!.id;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a batch with the school year and the subject-teacher flag, and answers an upload token once', async () => {
    const created = await createBatch(teacher);
    expect(created.batch).toMatchObject({
      schoolYearId: yearId,
      subjectTeacher: true,
      source: 'agent',
      deviceName: '虚拟扫描仪',
      paperSize: 1,
      pageCount: 0,
    });
    expect(created.uploadToken).toMatch(/^zus_/);
    const list = (await call('GET', '/teacher/scan/batch', teacher)).body as { data: { id: string }[] };
    expect(list.data.map((b) => b.id)).toContain(created.batch.id);
  });

  it('refuses a school year of another school', async () => {
    const res = await call(
      'POST',
      '/teacher/scan/batch',
      json(teacher),
      JSON.stringify({ schoolYearId: otherYearId }),
    );
    expect(res.status).toBe(404);
    expect((res.body as { message: string }).message).toBe(SCAN_MESSAGES.yearNotFound);
  });

  it('stores a page once: the same bytes again answer the first page with 200 (user token and upload token alike)', async () => {
    const { batch, uploadToken } = await createBatch(teacher);
    const jpeg = await page('jpeg', 3);
    const first = await upload(batch.id, teacher, jpeg, {
      seq: '1',
      name: 'p-0001.jpg',
      sha256: sha(jpeg),
      dpi: '300',
      side: 'front',
      blank: 'false',
    });
    expect(first.status).toBe(200);
    const a = Uploaded.parse(first.body).data;
    expect(a).toMatchObject({
      seq: 1,
      name: 'p-0001.jpg',
      format: 'jpeg',
      width: 240,
      height: 340,
      dpi: 300,
      side: 'front',
      duplicate: false,
      status: 'received',
      contentHash: sha(jpeg),
    });

    const again = await upload(batch.id, { authorization: `Bearer ${uploadToken}` }, jpeg, {
      seq: '1',
      sha256: sha(jpeg),
    });
    expect(again.status).toBe(200);
    expect(Uploaded.parse(again.body).data).toMatchObject({ id: a.id, duplicate: true });

    const png = await page('png', 5);
    const second = Uploaded.parse(
      (await upload(batch.id, { authorization: `Bearer ${uploadToken}` }, png, {}, 'scan.png')).body,
    ).data;
    expect(second).toMatchObject({ seq: 2, format: 'png', duplicate: false, source: 'agent' });

    const pages = Pages.parse(
      (await call('GET', `/teacher/scan/batch/${batch.id}/pages`, teacher)).body,
    ).data;
    expect(pages.map((p) => [p.seq, p.id])).toEqual([
      [1, a.id],
      [2, second.id],
    ]);
    const image = await call('GET', a.imageUrl, teacher);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/jpeg');
    expect(sha(image.body as Buffer)).toBe(sha(jpeg));
    const stored = await t.testDb.db.kysely
      .selectFrom('scan_pages')
      .select('file_path')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(fs.existsSync(path.join(dataDir, stored.file_path))).toBe(true);
  });

  it('validates the image by its content: other formats, damaged files, bombs, wrong hashes and empty uploads are refused', async () => {
    const { batch } = await createBatch(teacher);
    const gif = await upload(batch.id, teacher, await page('gif'), {}, 'looks-like.jpg');
    expect(gif.status).toBe(415);
    expect((gif.body as { message: string }).message).toBe(SCAN_MESSAGES.badImage);

    const jpeg = await page('jpeg', 9);
    const damaged = await upload(batch.id, teacher, jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(damaged.status).toBe(415);

    const bomb = await upload(batch.id, teacher, bombPng(0), {}, 'bomb.png');
    expect(bomb.status).toBe(413);
    expect((bomb.body as { message: string }).message).toBe(SCAN_MESSAGES.tooManyPixels);

    const wrongHash = await upload(batch.id, teacher, jpeg, { sha256: 'a'.repeat(64) });
    expect(wrongHash.status).toBe(400);
    expect((wrongHash.body as { message: string }).message).toBe(SCAN_MESSAGES.hashMismatch);

    const tiff = await upload(batch.id, teacher, await page('tiff', 11), { seq: 'x' });
    expect(tiff.status).toBe(400);
    expect((tiff.body as { message: string }).message).toMatch(/seq/);

    const none = await call('POST', `/teacher/scan/batch/${batch.id}/page`, json(teacher), '{}');
    expect(none.status).toBe(400);
    expect((none.body as { message: string }).message).toBe(SCAN_MESSAGES.noFile);

    // A real image padded past the limit: its size is the only thing wrong with it.
    const big = await upload(batch.id, teacher, Buffer.concat([jpeg, Buffer.alloc(31 * 1024 * 1024, 1)]));
    expect(big.status).toBe(413);
    expect((big.body as { message: string }).message).toBe(SCAN_MESSAGES.tooLarge);
    expect(
      Pages.parse((await call('GET', `/teacher/scan/batch/${batch.id}/pages`, teacher)).body).data,
    ).toEqual([]);
  });

  it('accepts TIFF pages and keeps the upload token to its own batch and its lifetime', async () => {
    const one = await createBatch(teacher);
    const two = await createBatch(teacher);
    const token = { authorization: `Bearer ${one.uploadToken}` };
    expect((await upload(one.batch.id, token, await page('tiff', 13), {}, 'a.tif')).status).toBe(200);
    const elsewhere = await upload(two.batch.id, token, await page('jpeg', 14));
    expect(elsewhere.status).toBe(403);
    expect(
      (
        await upload(
          one.batch.id,
          { authorization: 'Bearer zus_nonsense-token-value' },
          await page('jpeg', 15),
        )
      ).status,
    ).toBe(401);
    now += 8 * 24 * 3600 * 1000;
    try {
      const late = await upload(one.batch.id, token, await page('jpeg', 16));
      expect(late.status).toBe(401);
      expect((late.body as { message: string }).message).toBe(SCAN_MESSAGES.uploadTokenExpired);
    } finally {
      now -= 8 * 24 * 3600 * 1000;
    }
  });

  it('keeps two schools apart: batches, pages and images of one are not found from the other', async () => {
    const { batch } = await createBatch(teacher);
    const jpeg = await page('jpeg', 21);
    const mine = Uploaded.parse((await upload(batch.id, teacher, jpeg)).body).data;
    expect((await call('GET', `/teacher/scan/batch/${batch.id}`, other)).status).toBe(404);
    expect((await call('GET', `/teacher/scan/batch/${batch.id}/pages`, other)).status).toBe(404);
    expect((await call('GET', mine.imageUrl, other)).status).toBe(404);
    expect((await upload(batch.id, other, await page('jpeg', 22))).status).toBe(404);
    const theirs = (await call('GET', '/teacher/scan/batch', other)).body as { data: unknown[] };
    expect(theirs.data).toEqual([]);
    // The same bytes are a new page in the other school (uniqueness is per school).
    const own = await createBatch(other, { subjectTeacher: false });
    const copy = Uploaded.parse((await upload(own.batch.id, other, jpeg)).body).data;
    expect(copy.duplicate).toBe(false);
    expect(copy.id).not.toBe(mine.id);
    // Within the school, the administrator may look at a teacher's batch.
    expect((await call('GET', `/teacher/scan/batch/${batch.id}/pages`, admin)).status).toBe(200);
  });

  it('refuses every scan call without a token (401)', async () => {
    const { batch } = await createBatch(teacher);
    for (const [method, url] of [
      ['POST', '/teacher/scan/batch'],
      ['GET', '/teacher/scan/batch'],
      ['GET', `/teacher/scan/batch/${batch.id}/pages`],
      ['GET', '/teacher/scan/page/x/image'],
    ] as const) {
      expect((await call(method, url, {})).status).toBe(401);
    }
    expect((await upload(batch.id, {}, await page('jpeg', 30))).status).toBe(401);
  });
});

export type { CreatedScanBatch };
