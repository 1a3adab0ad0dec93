import QRCode from 'qrcode';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeCardQr } from '@zhzy/contracts';
import type { GreyImage } from './image.js';
import { loadZxing, readCode, zxingWasmPath } from './qr.js';

/** A QR code drawn as a grey image, 6 px per module with a quiet zone. */
function qrImage(text: string): GreyImage {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const m = 6;
  const side = (n + 8) * m;
  const data = new Uint8Array(side * side).fill(250);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      if (qr.modules.data[y * n + x])
        for (let dy = 0; dy < m; dy++)
          data.fill(20, ((y + 4) * m + dy) * side + (x + 4) * m, ((y + 4) * m + dy) * side + (x + 5) * m);
  return { width: side, height: side, data };
}

afterEach(() => vi.unstubAllGlobals());

describe('zxing-wasm', () => {
  it('loads offline from node_modules, never from a CDN', async () => {
    expect(zxingWasmPath()).toMatch(/node_modules\/zxing-wasm\/dist\/reader\/zxing_reader\.wasm$/);
    const fetch = vi.fn(() => Promise.reject(new Error('no network in this test')));
    vi.stubGlobal('fetch', fetch);
    await loadZxing();
    const text = encodeCardQr({
      cardId: '0199a3f2-7c41-7b3e-9d5a-2f6c8e1b4a70',
      version: 3,
      page: 2,
      studentId: 'stu-1-001',
    });
    const hit = await readCode(qrImage(text));
    expect(hit?.text).toBe(text);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('finds nothing in a crop without a code', async () => {
    const blank = { width: 200, height: 200, data: new Uint8Array(200 * 200).fill(240) };
    expect(await readCode(blank)).toBeUndefined();
  });
});
