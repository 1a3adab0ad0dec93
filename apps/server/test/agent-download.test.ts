import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerAgentDownloads } from '../src/modules/agent-download/routes.js';
import { registerCompression } from '../src/plugins/compression.js';
import { registerErrorHandler } from '../src/plugins/errors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-agent-packages-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function app() {
  const a = Fastify();
  // As in the host: answers are compressed globally; the packages must come through byte for byte.
  await registerCompression(a);
  registerErrorHandler(a);
  registerAgentDownloads(a, { dir });
  await a.ready();
  return a;
}

describe('the host serves the 扫描助手 installers (ADR 0043)', () => {
  it('answers 404 with a Chinese message while nothing is built', async () => {
    const a = await app();
    const res = await a.inject({ url: '/agent/download/manifest' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('扫描助手安装包');
    expect((await a.inject({ url: '/agent/download/win32-x64' })).statusCode).toBe(404);
  });

  it('serves the manifest and the installer with its SHA-256 and version; unknown platforms are 404', async () => {
    const bytes = crypto.randomBytes(4096);
    const file = 'zhzy-scan-agent-setup-0.3.0.exe';
    fs.writeFileSync(path.join(dir, file), bytes);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    fs.writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        version: '0.3.0',
        packages: { 'win32-x64': { version: '0.3.0', file, size: 4096, sha256 } },
      }),
    );
    const a = await app();
    const manifest = await a.inject({ url: '/agent/download/manifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.json().data.packages['win32-x64']).toEqual({
      version: '0.3.0',
      file,
      size: 4096,
      sha256,
    });
    const res = await a.inject({ url: '/agent/download/win32-x64' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-checksum-sha256']).toBe(sha256);
    expect(res.headers['x-agent-version']).toBe('0.3.0');
    expect(res.headers['content-disposition']).toContain(file);
    expect(crypto.createHash('sha256').update(res.rawPayload).digest('hex')).toBe(sha256);
    expect((await a.inject({ url: '/agent/download/linux-x64' })).statusCode).toBe(404);
    expect((await a.inject({ url: '/agent/download/..%2Fmanifest.json' })).statusCode).toBe(404);
  });

  it('sends a package byte for byte even when the browser or agent accepts gzip and brotli (ADR 0055)', async () => {
    // Compressible bytes (a tarball's padding is zeros): the global compressor would shrink them below content-length.
    const bytes = Buffer.alloc(64 * 1024, 0);
    const file = 'zhzy-scan-agent-0.3.0-linux-x64.tar.gz';
    fs.writeFileSync(path.join(dir, file), bytes);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    fs.writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        version: '0.3.0',
        packages: { 'linux-x64': { version: '0.3.0', file, size: bytes.length, sha256 } },
      }),
    );
    const a = await app();
    for (const encoding of ['gzip', 'br', 'gzip, deflate, br']) {
      const res = await a.inject({
        url: '/agent/download/linux-x64',
        headers: { 'accept-encoding': encoding },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(bytes.length));
      expect(res.rawPayload.length).toBe(bytes.length);
      expect(crypto.createHash('sha256').update(res.rawPayload).digest('hex')).toBe(sha256);
    }
  });
});
