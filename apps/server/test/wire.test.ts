import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES, registerCompression } from '../src/plugins/compression.js';
import { ANSWER_CACHE_MIN_CHARS, AnswerCache, registerEtags } from '../src/plugins/etag.js';
import { startTestApp, type TestApp } from './helpers/index.js';

// What goes over a school's uplink: built assets sent precompressed, big JSON compressed, small JSON as it is, and
// an unchanged analysis answered 304 (ADR 0047).

describe('the wire', () => {
  const big = {
    rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `学生 ${i}`, score: i % 100 })),
  };
  const app = Fastify();
  let t: TestApp;
  let webDir: string;
  const script = `console.log(${JSON.stringify('x'.repeat(5000))})`;

  beforeAll(async () => {
    registerEtags(app);
    await registerCompression(app);
    app.get('/teacher/analysis/homework/1', async () => big);
    app.get('/teacher/small', async () => ({ ok: true }));
    app.get('/teacher/big', async () => big);
    await app.ready();
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-wire-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const asset = path.join(webDir, 'assets', 'app-abc123.js');
    fs.writeFileSync(asset, script);
    fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
    fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
    t = await startTestApp({ dialect: 'sqlite', env: { WEB_DIST: webDir } });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('sends a built asset precompressed in the encoding the browser takes, and as it is to one that takes none', async () => {
    const url = '/assets/app-abc123.js';
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses JSON above the threshold and leaves small answers as they are', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/teacher/big',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    const json = zlib.brotliDecompressSync(res.rawPayload).toString();
    expect(JSON.parse(json)).toEqual(big);
    expect(json.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(res.rawPayload.length).toBeLessThan(json.length / 4);
    const gz = await app.inject({
      method: 'GET',
      url: '/teacher/big',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(big);
    const small = await app.inject({
      method: 'GET',
      url: '/teacher/small',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
  });

  it('tags an analysis answer and answers 304 with no body while the client holds it', async () => {
    const first = await app.inject({ method: 'GET', url: '/teacher/analysis/homework/1' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.inject({
      method: 'GET',
      url: '/teacher/analysis/homework/1',
      headers: { 'if-none-match': etag, 'accept-encoding': 'br, gzip' },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // The tag names the answer, not its encoding.
    const compressed = await app.inject({
      method: 'GET',
      url: '/teacher/analysis/homework/1',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(compressed.headers.etag).toBe(etag);
    const stale = await app.inject({
      method: 'GET',
      url: '/teacher/analysis/homework/1',
      headers: { 'if-none-match': '"older"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(big);
  });

  it('sends a large answer compressed once and tagged once while it stays the same; a changed analysis gets a new tag', async () => {
    const cache = new AnswerCache();
    const kept = Fastify();
    registerEtags(kept, undefined, cache);
    await registerCompression(kept);
    let current = big;
    kept.get('/teacher/analysis/homework/2', async () => current);
    await kept.ready();
    try {
      const get = (headers: Record<string, string>) =>
        kept.inject({ method: 'GET', url: '/teacher/analysis/homework/2', headers });
      expect(JSON.stringify(big).length).toBeGreaterThan(ANSWER_CACHE_MIN_CHARS);
      const first = await get({ 'accept-encoding': 'gzip, deflate, br' });
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers.vary).toContain('accept-encoding');
      expect(JSON.parse(zlib.brotliDecompressSync(first.rawPayload).toString())).toEqual(big);
      const hitsBefore = cache.hits;
      const second = await get({ 'accept-encoding': 'br' });
      // The same bytes and tag, from the cache: neither hashed nor compressed again.
      expect(cache.hits).toBeGreaterThan(hitsBefore);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(Buffer.compare(second.rawPayload, first.rawPayload)).toBe(0);
      const gz = await get({ 'accept-encoding': 'gzip;q=1, br;q=0' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(big);
      const plain = await get({});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.json()).toEqual(big);
      expect(plain.headers.etag).toBe(first.headers.etag);

      // The figures change: another answer, another tag; the tag the client holds no longer answers 304.
      current = { rows: big.rows.map((r) => (r.id === 7 ? { ...r, score: r.score + 1 } : r)) };
      const changed = await get({ 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(first.headers.etag);
      expect(JSON.parse(zlib.brotliDecompressSync(changed.rawPayload).toString())).toEqual(current);
      const held = await get({ 'if-none-match': changed.headers.etag as string });
      expect(held.statusCode).toBe(304);
    } finally {
      await kept.close();
    }
  });
});
