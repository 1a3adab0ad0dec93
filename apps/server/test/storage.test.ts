import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectStorage, S3ObjectStorage, type ObjectStorage } from '../src/lib/storage/index.js';
import { DEMO_ACCOUNTS } from '../src/seed/demo.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';
import { as, call, dataOf, fileForm } from './school-fixtures.js';

const STORES = ['local', 's3'] as const;

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const key of keys) out.push(key);
  return out.sort();
}

describe.each(STORES)('object storage: %s', (kind) => {
  let storage: ObjectStorage;
  let s3: TestS3 | undefined;
  let dir = '';

  beforeAll(async () => {
    if (kind === 's3') {
      s3 = await startTestS3();
      storage = new S3ObjectStorage({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: 'district-a',
      });
    } else {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-store-'));
      storage = new LocalObjectStorage(dir);
    }
  });
  afterAll(async () => {
    await storage.close();
    await s3?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores, reads, streams, lists and deletes objects by key', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
    const page = Buffer.from('page image bytes: 扫描页');
    await storage.put('pages/org-1/ab/abcdef.png', page, { contentType: 'image/png' });
    await storage.put('files/avatars/x.webp', Buffer.from([1, 2, 3]));
    expect(await storage.exists('pages/org-1/ab/abcdef.png')).toBe(true);
    expect((await storage.get('pages/org-1/ab/abcdef.png'))?.toString()).toBe(page.toString());
    const stream = await storage.stream('pages/org-1/ab/abcdef.png');
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(page)).toBe(true);
    expect(await collect(storage.list('pages/'))).toEqual(['pages/org-1/ab/abcdef.png']);
    expect(await collect(storage.list('files/'))).toEqual(['files/avatars/x.webp']);

    await storage.put('pages/org-1/ab/abcdef.png', Buffer.from('replaced'));
    expect((await storage.get('pages/org-1/ab/abcdef.png'))?.toString()).toBe('replaced');
    await storage.delete('pages/org-1/ab/abcdef.png');
    expect(await storage.exists('pages/org-1/ab/abcdef.png')).toBe(false);
    expect(await collect(storage.list('pages/'))).toEqual([]);
  });

  it('answers null for a missing object and deletes a missing one quietly', async () => {
    expect(await storage.get('pages/none/zz/missing.png')).toBeNull();
    expect(await storage.stream('pages/none/zz/missing.png')).toBeNull();
    expect(await storage.exists('pages/none/zz/missing.png')).toBe(false);
    await expect(storage.delete('pages/none/zz/missing.png')).resolves.toBeUndefined();
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of ['../etc/passwd', '/abs/key', 'pages/../../x', 'pages//x', 'a b']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/invalid storage key/);
      await expect(storage.get(key)).rejects.toThrow(/invalid storage key/);
    }
  });

  it('keeps a large object whole (5 MB) and many small ones under one prefix', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 7);
    big.write('end', big.length - 3);
    await storage.put('pages/big/00/big.tiff', big);
    const back = await storage.get('pages/big/00/big.tiff');
    expect(back?.length).toBe(big.length);
    expect(back?.subarray(-3).toString()).toBe('end');
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => storage.put(`files/logos/${i}.png`, Buffer.from([i]))),
    );
    expect(await collect(storage.list('files/logos/'))).toHaveLength(30);
  });
});

describe('an S3 bucket that is not there', () => {
  it('fails the readiness check, and is created by ensureBucket (S3_CREATE_BUCKET)', async () => {
    const s3 = await startTestS3();
    const storage = new S3ObjectStorage({
      bucket: 'created-at-boot',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    try {
      await expect(storage.check()).rejects.toThrow();
      await storage.ensureBucket();
      await expect(storage.check()).resolves.toBeUndefined();
      await storage.put('files/logos/a.png', Buffer.from('x'));
      expect(await storage.exists('files/logos/a.png')).toBe(true);
    } finally {
      await storage.close();
      await s3.close();
    }
  });
});

describe.each(DIALECTS)('the host on S3 object storage (%s)', (dialect) => {
  let s3: TestS3;
  let t: TestApp;
  let dataDir = '';

  beforeAll(async () => {
    s3 = await startTestS3();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-s3-host-'));
    t = await startTestApp({ dialect, env: { ...s3.env, DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps an uploaded avatar in the bucket (not on disk) and serves it from there', async () => {
    expect(t.app.storage.kind).toBe('s3');
    const teacher = await as(t, DEMO_ACCOUNTS.teacher);
    const photo = await sharp({
      create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 80, b: 40 } },
    })
      .png()
      .toBuffer();
    const { avatar } = dataOf<{ avatar: string }>(
      await call(t, 'POST', '/system/account/avatar', teacher, fileForm(photo, 'me.png')),
    );
    const key = `files/${avatar.replace(/^\/files\//, '')}`;
    const probe = new S3ObjectStorage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    try {
      expect(await probe.exists(key)).toBe(true);
    } finally {
      await probe.close();
    }
    expect(fs.existsSync(path.join(dataDir, key))).toBe(false);
    const served = await t.app.inject({ method: 'GET', url: avatar });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(256);
  });
});
