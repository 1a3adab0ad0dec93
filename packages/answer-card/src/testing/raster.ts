// Test helpers around the poppler and zbar command-line tools (scripts/lib/tools.mjs installs them).
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Tools the raster tests need; throws a message saying how to get them when one is missing. */
export function requireTools(names: string[]): void {
  const missing = names.filter((n) => spawnSync(n, ['-v'], { stdio: 'ignore' }).error !== undefined);
  if (missing.length) {
    throw new Error(
      `missing ${missing.join(', ')}: install Debian's poppler-utils and zbar-tools (ensureRasterTools() in scripts/lib/tools.mjs)`,
    );
  }
}

/** An 8-bit grey image. */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Parses a binary PGM (P5, 8 bit). */
export function parsePgm(buf: Buffer): Gray {
  let pos = 0;
  const token = (): string => {
    for (;;) {
      while (pos < buf.length && /\s/.test(String.fromCharCode(buf[pos]!))) pos++;
      if (buf[pos] === 0x23) while (pos < buf.length && buf[pos] !== 0x0a) pos++;
      else break;
    }
    const start = pos;
    while (pos < buf.length && !/\s/.test(String.fromCharCode(buf[pos]!))) pos++;
    return buf.toString('latin1', start, pos);
  };
  if (token() !== 'P5') throw new Error('not a binary PGM');
  const width = Number(token());
  const height = Number(token());
  if (Number(token()) !== 255) throw new Error('only 8-bit PGM');
  pos++;
  return { width, height, data: new Uint8Array(buf.buffer, buf.byteOffset + pos, width * height) };
}

/** Rasterises pages of a PDF in grey with pdftoppm; returns each page's PGM file and image. */
export async function rasterize(
  pdf: string,
  options: { dpi: number; first?: number; last?: number },
): Promise<{ file: string; image: Gray }[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-raster-'));
  const args = ['-r', String(options.dpi), '-gray'];
  if (options.first) args.push('-f', String(options.first));
  if (options.last) args.push('-l', String(options.last));
  await run('pdftoppm', [...args, pdf, path.join(dir, 'page')]);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.pgm'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      return { file, image: parsePgm(fs.readFileSync(file)) };
    });
}

/** The texts of every QR code zbarimg finds in an image file. */
export async function decodeQrCodes(file: string): Promise<string[]> {
  try {
    const { stdout } = await run('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', file]);
    return stdout.split('\n').filter(Boolean);
  } catch (error) {
    // zbarimg exits with 4 when it finds no code.
    if ((error as { code?: number }).code === 4) return [];
    throw error;
  }
}

/** The page count pdfinfo reports. */
export async function pdfPageCount(pdf: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [pdf]);
  const match = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!match) throw new Error('pdfinfo gave no page count');
  return Number(match[1]);
}

/** pdffonts' table: one row per font with its name, type, and whether it is embedded and subset. */
export async function pdfFonts(
  pdf: string,
): Promise<{ name: string; type: string; embedded: boolean; subset: boolean }[]> {
  const { stdout } = await run('pdffonts', [pdf]);
  return stdout
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => {
      const cols = line.trim().split(/\s+/);
      const n = cols.length;
      return {
        name: cols[0]!,
        type: cols.slice(1, n - 5).join(' '),
        embedded: cols[n - 5] === 'yes',
        subset: cols[n - 4] === 'yes',
      };
    });
}

/** A connected component of dark pixels, in pixel units (centroid at pixel centres). */
export interface Component {
  area: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  cx: number;
  cy: number;
}

/**
 * Eight-connected components of pixels darker than `threshold`, found run by run with union-find, as a
 * recogniser would find anchors and marks.
 */
export function components(img: Gray, threshold = 128): Component[] {
  const { width, height, data } = img;
  const parent: number[] = [];
  const stats: {
    area: number;
    minX: number;
    minY: number;
    maxX: number;
    maxY: number;
    sx: number;
    sy: number;
  }[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[rb] = ra;
  };
  let prev: { x0: number; x1: number; id: number }[] = [];
  for (let y = 0; y < height; y++) {
    const row: { x0: number; x1: number; id: number }[] = [];
    const base = y * width;
    let x = 0;
    while (x < width) {
      if (data[base + x]! >= threshold) {
        x++;
        continue;
      }
      const x0 = x;
      while (x < width && data[base + x]! < threshold) x++;
      const x1 = x - 1;
      const id = parent.length;
      parent.push(id);
      const n = x1 - x0 + 1;
      stats.push({
        area: n,
        minX: x0,
        maxX: x1,
        minY: y,
        maxY: y,
        sx: ((x0 + x1 + 1) / 2) * n,
        sy: (y + 0.5) * n,
      });
      row.push({ x0, x1, id });
    }
    // Runs touch (8-connected) when their x ranges overlap once widened by a pixel.
    let j = 0;
    for (const r of row) {
      while (j < prev.length && prev[j]!.x1 < r.x0 - 1) j++;
      for (let k = j; k < prev.length && prev[k]!.x0 <= r.x1 + 1; k++) union(prev[k]!.id, r.id);
    }
    prev = row;
  }
  const merged = new Map<
    number,
    { area: number; minX: number; minY: number; maxX: number; maxY: number; sx: number; sy: number }
  >();
  stats.forEach((s, id) => {
    const root = find(id);
    const m = merged.get(root);
    if (!m) merged.set(root, { ...s });
    else {
      m.area += s.area;
      m.minX = Math.min(m.minX, s.minX);
      m.maxX = Math.max(m.maxX, s.maxX);
      m.minY = Math.min(m.minY, s.minY);
      m.maxY = Math.max(m.maxY, s.maxY);
      m.sx += s.sx;
      m.sy += s.sy;
    }
  });
  return [...merged.values()].map((m) => ({
    area: m.area,
    minX: m.minX,
    minY: m.minY,
    maxX: m.maxX,
    maxY: m.maxY,
    cx: m.sx / m.area,
    cy: m.sy / m.area,
  }));
}
