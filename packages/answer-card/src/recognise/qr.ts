import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReaderOptions, type ReadResult } from 'zxing-wasm/reader';
import type { GreyImage } from './image.js';

let ready: Promise<unknown> | undefined;

/** The reader's .wasm from node_modules: zxing-wasm would otherwise fetch it from a CDN. */
export function zxingWasmPath(): string {
  return createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
}

/** Loads zxing-wasm once per process (offline: the binary comes from node_modules). */
export function loadZxing(): Promise<unknown> {
  ready ??= (async () => {
    const bytes = await fs.promises.readFile(zxingWasmPath());
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return ready;
}

const QR_OPTIONS: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  maxNumberOfSymbols: 1,
};

const LINEAR_OPTIONS: ReaderOptions = {
  formats: ['Code128', 'Code39', 'Code93', 'Codabar', 'EAN-13', 'ITF'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  maxNumberOfSymbols: 1,
};

export interface CodeHit {
  text: string;
  /** Centre of the symbol in the crop's pixels. */
  x: number;
  y: number;
  /** The symbol's rotation as zxing reports it, degrees. */
  orientation: number;
}

/** Reads one code from a grey crop (zxing takes RGBA image data). */
export async function readCode(crop: GreyImage, kind: 'qr' | 'linear' = 'qr'): Promise<CodeHit | undefined> {
  await loadZxing();
  const rgba = new Uint8ClampedArray(crop.width * crop.height * 4);
  const src = crop.data;
  for (let i = 0, j = 0; i < src.length; i++, j += 4) {
    const v = src[i]!;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  // An ImageData-shaped object (Node has no ImageData; `colorSpace` keeps the DOM typing of the web's typecheck,
  // which reaches this file through the e2e tests' host, satisfied).
  const image = { data: rgba, width: crop.width, height: crop.height, colorSpace: 'srgb' as const };
  const results: ReadResult[] = await readBarcodes(image, kind === 'qr' ? QR_OPTIONS : LINEAR_OPTIONS);
  const hit = results.find((r) => r.isValid && r.text);
  if (!hit) return undefined;
  const p = hit.position;
  return {
    text: hit.text,
    x: (p.topLeft.x + p.topRight.x + p.bottomLeft.x + p.bottomRight.x) / 4,
    y: (p.topLeft.y + p.topRight.y + p.bottomLeft.y + p.bottomRight.y) / 4,
    orientation: hit.orientation,
  };
}

/**
 * A box blur of `radius` pixels (separable, clamped at the edges): a dithered 1-bit code averaged back to grey at its
 * module size, so the binarizer sees modules instead of the dither's dots.
 */
export function smoothForCode(img: GreyImage, radius: number): GreyImage {
  const { width: w, height: h, data } = img;
  if (radius < 1) return img;
  const tmp = new Uint16Array(w * h);
  const out = new Uint8Array(w * h);
  const n = 2 * radius + 1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let s = 0;
    for (let x = -radius; x <= radius; x++) s += data[row + Math.min(w - 1, Math.max(0, x))]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = s;
      s += data[row + Math.min(w - 1, x + radius + 1)]! - data[row + Math.max(0, x - radius)]!;
    }
  }
  for (let x = 0; x < w; x++) {
    let s = 0;
    for (let y = -radius; y <= radius; y++) s += tmp[Math.min(h - 1, Math.max(0, y)) * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = Math.round(s / (n * n));
      s += tmp[Math.min(h - 1, y + radius + 1) * w + x]! - tmp[Math.max(0, y - radius) * w + x]!;
    }
  }
  return { width: w, height: h, data: out };
}
