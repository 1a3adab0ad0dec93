import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import svgCaptcha from 'svg-captcha';

/** Letters and digits a reader cannot confuse (no 0/O/o, 1/I/l, 9/g/q). */
export const CAPTCHA_ALPHABET = 'abcdefhjkmnprstuvwxyzABCDEFGHJKMNPRSTUVWXYZ2345678';
export const CAPTCHA_WIDTH = 150;
export const CAPTCHA_HEIGHT = 50;
const LENGTH = 4;

/** An image captcha: the text to type and the picture that shows it (PNG, or SVG from a test's fake). */
export interface CaptchaDrawing {
  text: string;
  png?: Buffer;
  svg?: string;
}

/** Draws an image captcha (tests supply a known text). */
export type CaptchaMaker = () => CaptchaDrawing | Promise<CaptchaDrawing>;

const between = (min: number, max: number) => min + (randomInt(0, 1_000_000) / 1_000_000) * (max - min);

interface GlyphPath {
  toPathData(decimals?: number): string;
  getBoundingBox(): { x1: number; y1: number; x2: number; y2: number };
}
// svg-captcha's font (an opentype.js font; its typings leave it out).
const font = (
  svgCaptcha.options as unknown as {
    font: { getPath(t: string, x: number, y: number, size: number): GlyphPath };
  }
).font;

/** The outline of one glyph of the captcha font, centred on (0, 0) (exported for the solver test). */
export function glyphPath(ch: string): string {
  const probe = font.getPath(ch, 0, 0, 44).getBoundingBox();
  return font.getPath(ch, -(probe.x1 + probe.x2) / 2, -(probe.y1 + probe.y2) / 2, 44).toPathData(1);
}

function darkColor(): string {
  const c = () => randomInt(20, 120);
  return `rgb(${c()},${c()},${c()})`;
}

/**
 * The glyphs, each turned, scaled and shifted at random and overlapping its neighbours, crossed by curves drawn
 * as thick as a stroke of the letters, as SVG (never sent: the browser gets pixels only).
 */
function scene(text: string): string {
  const glyphs = [...text].map((ch, i) => {
    const x = 22 + i * 33 + between(-5, 5);
    const y = 25 + between(-4, 4);
    const turn = between(-25, 25);
    const scale = between(1.05, 1.25);
    const colour = darkColor();
    return `<path transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${turn.toFixed(1)}) scale(${scale.toFixed(2)} ${(scale * between(0.9, 1.2)).toFixed(2)})" fill="${colour}" stroke="${colour}" stroke-width="1.2" d="${glyphPath(ch)}"/>`;
  });
  const curves = Array.from({ length: 3 }, () => {
    const y = () => between(5, CAPTCHA_HEIGHT - 5).toFixed(1);
    return `<path d="M${between(0, 15).toFixed(1)} ${y()} C${between(30, 70).toFixed(1)} ${y()},${between(80, 120).toFixed(1)} ${y()},${between(135, 150).toFixed(1)} ${y()}" stroke="${darkColor()}" stroke-width="${between(0.8, 1.3).toFixed(1)}" fill="none"/>`;
  });
  const shapes = [...glyphs, ...curves].sort(() => randomInt(0, 3) - 1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}"><rect width="100%" height="100%" fill="#f4f6f8"/>${shapes.join('')}</svg>`;
}

/** Bends the picture along two sine waves and sprinkles it with specks (nearest pixel, three channels). */
function warp(pixels: Buffer, width: number, height: number): Buffer {
  const out = Buffer.alloc(pixels.length);
  const ax = between(2, 4);
  const ay = between(2, 3.5);
  const px = between(18, 30);
  const py = between(30, 60);
  const fx = between(0, Math.PI * 2);
  const fy = between(0, Math.PI * 2);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const sx = Math.round(x + ax * Math.sin((2 * Math.PI * y) / px + fx));
      const sy = Math.round(y + ay * Math.sin((2 * Math.PI * x) / py + fy));
      const o = (y * width + x) * 3;
      if (sx < 0 || sy < 0 || sx >= width || sy >= height) {
        out[o] = 0xf4;
        out[o + 1] = 0xf6;
        out[o + 2] = 0xf8;
        continue;
      }
      const s = (sy * width + sx) * 3;
      pixels.copy(out, o, s, s + 3);
    }
  for (let i = 0; i < (width * height) / 25; i += 1) {
    const o = randomInt(0, width * height) * 3;
    const v = randomInt(0, 2) === 0 ? randomInt(40, 120) : randomInt(200, 256);
    out[o] = v;
    out[o + 1] = v;
    out[o + 2] = v;
  }
  return out;
}

/**
 * The host's image captcha: drawn as vectors, rasterised, bent and speckled on the host, sent as a PNG. The
 * browser gets pixels only, so the answer cannot be read off the drawing's structure (ADR 0042).
 */
export const drawCaptcha: CaptchaMaker = async () => {
  const text = Array.from(
    { length: LENGTH },
    () => CAPTCHA_ALPHABET[randomInt(0, CAPTCHA_ALPHABET.length)],
  ).join('');
  const { data, info } = await sharp(Buffer.from(scene(text)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const png = await sharp(warp(data, info.width, info.height), {
    raw: { width: info.width, height: info.height, channels: 3 },
  })
    .blur(0.5)
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { text, png };
};

/** The data URL the captcha call answers. */
export function captchaImage(drawing: CaptchaDrawing): string {
  return drawing.png
    ? `data:image/png;base64,${drawing.png.toString('base64')}`
    : `data:image/svg+xml;base64,${Buffer.from(drawing.svg ?? '').toString('base64')}`;
}
