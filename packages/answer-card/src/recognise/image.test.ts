import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodePage } from './image.js';
import { rectify } from './sample.js';

/** A grey JPEG of an A4 page at `dpi`, saying so in its density, with a dark square near the top-left. */
async function a4Jpeg(dpi: number, density = dpi): Promise<Buffer> {
  const width = Math.round((210 / 25.4) * dpi);
  const height = Math.round((297 / 25.4) * dpi);
  const data = Buffer.alloc(width * height, 240);
  for (let y = 100; y < 200; y++) data.fill(20, y * width + 100, y * width + 200);
  return sharp(data, { raw: { width, height, channels: 1 } })
    .jpeg({ quality: 85 })
    .withDensity(density)
    .toBuffer();
}

/** A 300 × 300 two-colour palette PNG (1-bit): white, with a square of `ink` (red, green, blue) in the middle. */
async function twoColourPng(ink: [number, number, number]): Promise<Buffer> {
  const width = 300;
  const data = Buffer.alloc(width * width * 3, 255);
  for (let y = 100; y < 200; y++) for (let x = 100; x < 200; x++) data.set(ink, (y * width + x) * 3);
  const png = await sharp(data, { raw: { width, height: width, channels: 3 } })
    .png({ palette: true, colours: 2 })
    .toBuffer();
  expect((await sharp(png).metadata()).bitsPerSample).toBe(1);
  return png;
}

describe('decodePage', () => {
  it('decodes a 300 dpi JPEG at a quarter of its size when asked to reduce, and says by how much', async () => {
    const d = await decodePage(await a4Jpeg(300), 0, { reduce: true });
    expect([d.fullWidth, d.fullHeight]).toEqual([2480, 3508]);
    expect([d.image.width, d.image.height]).toEqual([620, 877]);
    expect(d.scale.x).toBeCloseTo(4, 5);
    expect(d.scale.y).toBeCloseTo(4, 5);
    // The square is still there, dark, where the file has it.
    expect(d.image.data[Math.round(150 / 4) * 620 + Math.round(150 / 4)]).toBeLessThan(60);
  });

  it('keeps a third (≥ 3.5 samples a millimetre) for a 275 dpi JPEG and the full page below ~270 dpi', async () => {
    const third = await decodePage(await a4Jpeg(275), 0, { reduce: true });
    expect(third.scale.x).toBeCloseTo(3, 1);
    const full = await decodePage(await a4Jpeg(250), 0, { reduce: true });
    expect(full.scale).toEqual({ x: 1, y: 1 });
    expect(full.image.width).toBe(full.fullWidth);
  });

  it('reads a two-colour palette PNG (a 1-bit scan stored as RGB) as the 1-bit page it is, black and white', async () => {
    const width = 300;
    const data = Buffer.alloc(width * width, 255);
    for (let y = 100; y < 200; y++) data.fill(0, y * width + 100, y * width + 200);
    const png = await sharp(data, { raw: { width, height: width, channels: 1 } })
      .toColourspace('srgb')
      .png({ palette: true, colours: 2 })
      .toBuffer();
    const meta = await sharp(png).metadata();
    expect([meta.channels, meta.bitsPerSample]).toEqual([3, 1]);
    const d = await decodePage(png);
    expect(d.bitonal).toBe(true);
    expect(Buffer.from(d.image.data).equals(data)).toBe(true);
    // Its palette is grey: the page is what the file reads as in grey (score boxes are read from it).
    expect(d.greyFile).toBe(true);
  });

  it('does not take a coloured two-colour palette for the file’s grey, though its first channel is read', async () => {
    // Dark blue on white: the red channel tells the two apart, the file's grey is not the red channel.
    const d = await decodePage(await twoColourPng([0, 0, 128]));
    expect(d.image.data[150 * 300 + 150]).toBe(0);
    expect(d.greyFile).toBe(false);
  });

  it('still sees the mark of a two-colour palette whose first channel does not tell the colours apart', async () => {
    // Red on white: the red channel is 255 everywhere.
    const d = await decodePage(await twoColourPng([255, 0, 0]));
    expect(d.image.data[150 * 300 + 150]).toBeLessThan(128);
    expect(d.image.data[20 * 300 + 20]).toBeGreaterThan(200);
    expect(d.greyFile).toBe(false);
  });

  it('decodes in full unless asked to reduce', async () => {
    const d = await decodePage(await a4Jpeg(300));
    expect([d.image.width, d.image.height, d.scale.x]).toEqual([2480, 3508, 1]);
  });
});

describe('rectify', () => {
  // A white 40 × 40 image with a one-pixel dark column at x = 17.
  const width = 40;
  const data = new Uint8Array(width * width).fill(255);
  for (let y = 0; y < width; y++) data[y * width + 17] = 0;
  const img = { width, height: width, data };
  // 1 mm = 1 pixel, shifted by a quarter pixel: bilinear weights spread the line over two samples.
  const m = [1, 0, 0.25, 0, 1, 0] as const;

  it('keeps a one-pixel stroke at full darkness with nearest samples, where bilinear ones halve it', () => {
    const r = { x: 10, y: 10, w: 20, h: 5 };
    const near = rectify(img, [...m], r, 1, { nearest: true });
    const bilinear = rectify(img, [...m], r, 1);
    expect(Math.min(...near.data)).toBe(0);
    expect(Math.min(...bilinear.data)).toBeGreaterThan(50);
    // The stroke is at the same place in both grids.
    const at = (g: { data: Uint8Array }) => g.data.indexOf(Math.min(...g.data));
    expect(at(near)).toBe(at(bilinear));
  });

  it('reads white outside the image with nearest samples too', () => {
    const out = rectify(img, [...m], { x: -10, y: -10, w: 5, h: 5 }, 1, { nearest: true });
    expect([...out.data].every((v) => v === 255)).toBe(true);
  });
});
