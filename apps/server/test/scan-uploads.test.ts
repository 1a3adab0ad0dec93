import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreatedScanBatchSchema,
  SCAN_MESSAGES,
  ScanBatchInfoSchema,
  ScanPageInfoSchema,
  ScanUploadErrorDataSchema,
  UploadedScanPageSchema,
  envelope,
} from '@zhzy/contracts';
import { z } from 'zod';
import { DEMO_ACCOUNTS } from '../src/seed/demo.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

/*
 * Issue 6's intake rules: machine-readable reasons for refused uploads (what the agent retries and what it reports),
 * an upload token that reaches only its own batch, and a page replaced by a rescan in its place.
 */

const Created = envelope(CreatedScanBatchSchema);
const Uploaded = envelope(UploadedScanPageSchema);
const Pages = envelope(z.array(ScanPageInfoSchema));
const Batch = envelope(ScanBatchInfoSchema);
const Refusal = z.object({ code: z.number(), message: z.string(), data: ScanUploadErrorDataSchema });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function page(seed: number, format: 'jpeg' | 'gif' = 'jpeg'): Promise<Buffer> {
  return sharp({ create: { width: 200, height: 280, channels: 3, background: '#fafaf8' } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="200" height="280"><rect x="${10 + seed}" y="${20 + (seed % 7)}" width="30" height="18" fill="#222"/></svg>`,
        ),
      },
    ])
    .toFormat(format)
    .toBuffer();
}

describe.each(DIALECTS)('scan uploads on %s: refusal codes, token scope, rescans', (dialect) => {
  let t: TestApp;
  let now = Date.parse('2026-03-02T08:00:00.000Z');
  let teacher: { authorization: string };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-scan-uploads-'));

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
    return { status: res.status, body: await res.json() };
  };
  const createBatch = async () => {
    const res = await call(
      'POST',
      '/teacher/scan/batch',
      { ...teacher, 'content-type': 'application/json' },
      JSON.stringify({ deviceName: '虚拟扫描仪' }),
    );
    return Created.parse(res.body).data;
  };
  const upload = (
    batchId: string,
    h: Record<string, string>,
    data: Buffer,
    fields: Record<string, string> = {},
  ) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new Blob([new Uint8Array(data)]), 'p.jpg');
    return call('POST', `/teacher/scan/batch/${batchId}/page`, h, form);
  };
  const refusal = (res: { status: number; body: unknown }) => ({
    status: res.status,
    ...Refusal.parse(res.body),
  });
  const pages = async (batchId: string) =>
    Pages.parse((await call('GET', `/teacher/scan/batch/${batchId}/pages`, teacher)).body).data;

  beforeAll(async () => {
    t = await startTestApp({ dialect, listen: true, clock: () => now, env: { DATA_DIR: dataDir } });
    teacher = bearer((await signIn(t.app, DEMO_ACCOUNTS.teacher)).access_token);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says why an upload was refused in a code the agent acts on: never, with a new token, or later', async () => {
    const { batch, uploadToken } = await createBatch();
    const token = { authorization: `Bearer ${uploadToken}` };
    const jpeg = await page(1);
    expect(refusal(await upload(batch.id, token, await page(2, 'gif')))).toMatchObject({
      status: 415,
      message: SCAN_MESSAGES.badImage,
      data: { uploadError: 'badImage', retry: 'never' },
    });
    expect(refusal(await upload(batch.id, token, jpeg, { sha256: 'b'.repeat(64) }))).toMatchObject({
      status: 400,
      message: SCAN_MESSAGES.hashMismatch,
      data: { uploadError: 'hashMismatch', retry: 'later' },
    });
    expect(refusal(await upload(batch.id, token, jpeg, { seq: 'zero' }))).toMatchObject({
      status: 400,
      data: { uploadError: 'invalidFields', retry: 'never' },
    });
    const noFile = await call('POST', `/teacher/scan/batch/${batch.id}/page`, token, new FormData());
    expect(refusal(noFile)).toMatchObject({ status: 400, data: { uploadError: 'noFile', retry: 'never' } });
    expect(
      refusal(await upload(batch.id, { authorization: 'Bearer zus_unknown-token-0123456789' }, jpeg)),
    ).toMatchObject({ status: 401, data: { uploadError: 'tokenUnknown', retry: 'newToken' } });
    now += 8 * 24 * 3600 * 1000;
    try {
      expect(refusal(await upload(batch.id, token, jpeg))).toMatchObject({
        status: 401,
        message: SCAN_MESSAGES.uploadTokenExpired,
        data: { uploadError: 'tokenExpired', retry: 'newToken' },
      });
    } finally {
      now -= 8 * 24 * 3600 * 1000;
    }
    expect(await pages(batch.id)).toEqual([]);
  });

  it('lets an upload token reach only its own batch, and tells it nothing about pages of other batches', async () => {
    const one = await createBatch();
    const two = await createBatch();
    const tokenOne = { authorization: `Bearer ${one.uploadToken}` };
    const tokenTwo = { authorization: `Bearer ${two.uploadToken}` };
    const jpeg = await page(3);
    expect((await upload(one.batch.id, tokenOne, jpeg, { sha256: sha(jpeg) })).status).toBe(200);
    expect(refusal(await upload(one.batch.id, tokenTwo, await page(4)))).toMatchObject({
      status: 403,
      message: SCAN_MESSAGES.wrongBatch,
      data: { uploadError: 'wrongBatch', retry: 'never' },
    });
    const copy = refusal(await upload(two.batch.id, tokenTwo, jpeg));
    expect(copy).toMatchObject({
      status: 409,
      message: SCAN_MESSAGES.duplicateElsewhere,
      data: { uploadError: 'duplicateElsewhere', retry: 'never' },
    });
    expect(JSON.stringify(copy)).not.toContain(one.batch.id);
    expect(await pages(two.batch.id)).toEqual([]);
    // Its own page again (a lost answer) is still answered as the first copy.
    const again = Uploaded.parse((await upload(one.batch.id, tokenOne, jpeg)).body).data;
    expect(again).toMatchObject({ duplicate: true, batchId: one.batch.id });
  });

  it('replaces a page by its rescan in the same place, keeps the order, and takes the same rescan twice once', async () => {
    const { batch, uploadToken } = await createBatch();
    const token = { authorization: `Bearer ${uploadToken}` };
    const sheets = await Promise.all([11, 12, 13].map((s) => page(s)));
    for (const [i, data] of sheets.entries())
      expect((await upload(batch.id, token, data, { seq: String(i + 1), name: `p-${i + 1}` })).status).toBe(
        200,
      );
    const rescan = await page(22);
    const fields = { seq: '2', name: 'p-2-重扫', replaces: 'true', sha256: sha(rescan) };
    const first = Uploaded.parse((await upload(batch.id, token, rescan, fields)).body).data;
    expect(first).toMatchObject({ seq: 2, duplicate: false, name: 'p-2-重扫' });
    const retried = Uploaded.parse((await upload(batch.id, token, rescan, fields)).body).data;
    expect(retried).toMatchObject({ id: first.id, duplicate: true });

    const list = await pages(batch.id);
    expect(list.map((p) => [p.seq, p.contentHash])).toEqual([
      [1, sha(sheets[0]!)],
      [2, sha(rescan)],
      [3, sha(sheets[2]!)],
    ]);
    const info = Batch.parse((await call('GET', `/teacher/scan/batch/${batch.id}`, teacher)).body).data;
    expect(info.pageCount).toBe(3);

    expect(
      refusal(await upload(batch.id, token, await page(23), { seq: '9', replaces: 'true' })),
    ).toMatchObject({
      status: 404,
      message: SCAN_MESSAGES.replaceMissing,
      data: { uploadError: 'replaceMissing', retry: 'never' },
    });
    expect(refusal(await upload(batch.id, token, await page(24), { replaces: '1' }))).toMatchObject({
      status: 400,
      message: SCAN_MESSAGES.replaceNeedsSeq,
    });
    expect(await pages(batch.id)).toHaveLength(3);
  });
});
