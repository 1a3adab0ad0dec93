// Synthetic phone photos of filled cards (issue #26): a card from the renderer, rasterised and filled like the scan
// corpus, then photographed by a pinhole camera with random perspective (up to 20° by default), uneven light, a
// shadow, motion blur and noise, encoded as a colour JPEG at 8 or 12 MP. Bad photos (too tilted, too small,
// blurred, dark, glare, a corner out of frame) are made on purpose for the refusals.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { PhotoRefusalCode } from '@zhzy/contracts';
import type { GreyImage } from '../../recognise/image.js';
import {
  fillPage,
  rasterPage,
  seeded,
  type CardFixture,
  type PagePlan,
  type PageTruth,
} from '../../recognise/testing/corpus.js';
import { homographyFrom, type Pt } from '../homography.js';

/** Seeds the refusal limits were chosen on, and the held-out seeds only the bench reads. */
export const PHOTO_TUNING_SEEDS: readonly [number, number] = [0, 100_000];
export const PHOTO_HELD_OUT_SEEDS: readonly [number, number] = [7_000_000, 7_100_000];

/** What is wrong with a photo on purpose; 'good' photos must be read. */
export const PHOTO_FAULTS = [
  'good',
  'tooTilted',
  'tooSmall',
  'blurred',
  'tooDark',
  'glare',
  'cornerOut',
] as const;
export type PhotoFault = (typeof PHOTO_FAULTS)[number];

/** The refusal each fault must get ('cornerOut': a card with a corner outside the frame shows no four anchors). */
export const FAULT_REFUSAL: Readonly<Record<Exclude<PhotoFault, 'good'>, PhotoRefusalCode>> = {
  tooTilted: 'tooTilted',
  tooSmall: 'tooSmall',
  blurred: 'blurred',
  tooDark: 'tooDark',
  glare: 'glare',
  cornerOut: 'noAnchors',
};

export interface PhotoSpec {
  fixture: CardFixture;
  copy?: number;
  seed: number;
  fault?: PhotoFault;
  plan?: PagePlan;
  /** Largest tilt of a good photo, degrees. */
  maxTiltDeg?: number;
  /** 8 or 12 megapixels (default: either, by the seed). */
  megapixels?: 8 | 12;
}

export interface Photo {
  bytes: Buffer;
  file: string;
  truth: PageTruth;
  fault: PhotoFault;
  tiltDeg: number;
  width: number;
  height: number;
}

const between = (rng: () => number, lo: number, hi: number) => lo + (hi - lo) * rng();

type Vec3 = [number, number, number];
const rotX = (a: number, [x, y, z]: Vec3): Vec3 => [
  x,
  y * Math.cos(a) - z * Math.sin(a),
  y * Math.sin(a) + z * Math.cos(a),
];
const rotZ = (a: number, [x, y, z]: Vec3): Vec3 => [
  x * Math.cos(a) - y * Math.sin(a),
  x * Math.sin(a) + y * Math.cos(a),
  z,
];

/** Source raster resolution: a little finer than the photo's own ~10 pixels per millimetre. */
const RASTER_DPI = 300;

/** Photographs one filled page of a fixture. */
export async function makePhoto(dir: string, spec: PhotoSpec): Promise<Photo> {
  const rng = seeded(spec.seed);
  const fault = spec.fault ?? 'good';
  const copy = spec.copy ?? 0;
  const layout = spec.fixture.layout;
  const page = layout.pages[0]!;
  const img = await rasterPage(spec.fixture, copy, 0, RASTER_DPI);
  const filled = fillPage(img, RASTER_DPI, page, spec.plan ?? {}, rng);
  const W = page.widthMm;
  const H = page.heightMm;
  const portraitCard = W < H;
  // Frame: phones shoot the card the way it lies; one photo in five is taken across.
  const mp = spec.megapixels ?? (rng() < 0.5 ? 8 : 12);
  const [long, short] = mp === 12 ? [4032, 3024] : [3264, 2448];
  const across = rng() < 0.2;
  const portraitFrame = portraitCard !== across;
  const fw = portraitFrame ? short : long;
  const fh = portraitFrame ? long : short;
  const focal = between(rng, 0.75, 0.95) * long;
  // Pose: tilt about a random axis, an in-plane turn, the sheet filling most of the frame.
  const maxTilt = ((spec.maxTiltDeg ?? 20) * Math.PI) / 180;
  const tilt = fault === 'tooTilted' ? between(rng, 36, 46) * (Math.PI / 180) : Math.sqrt(rng()) * maxTilt;
  const axis = rng() * Math.PI * 2;
  const spin =
    between(rng, -12, 12) * (Math.PI / 180) + (across ? Math.PI / 2 : 0) + (rng() < 0.1 ? Math.PI : 0);
  let fill = fault === 'tooSmall' ? between(rng, 0.22, 0.3) : between(rng, 0.72, 0.86);
  // The card's long side across `fill` of the frame's side it lies along.
  const cardLong = Math.max(W, H);
  const shift = { x: between(rng, -0.04, 0.04) * fw, y: between(rng, -0.04, 0.04) * fh };
  if (fault === 'cornerOut') {
    shift.x += (rng() < 0.5 ? -1 : 1) * 0.2 * fw;
    shift.y += (rng() < 0.5 ? -1 : 1) * 0.15 * fh;
  }
  const projector = (f: number) => {
    const distance = (focal * cardLong) / (f * Math.max(fw, fh));
    return (p: Pt): Pt => {
      let v: Vec3 = [p.x - W / 2, p.y - H / 2, 0];
      v = rotZ(spin, v);
      // Tilt about the axis (cos, sin) in the sheet's plane.
      v = rotZ(-axis, v);
      v = rotX(tilt, v);
      v = rotZ(axis, v);
      const z = v[2] + distance;
      return { x: (focal * v[0]) / z + fw / 2 + shift.x, y: (focal * v[1]) / z + fh / 2 + shift.y };
    };
  };
  // The anchors (and 3 mm around them) in the frame, except on purpose: a closer shot would cut them off.
  const anchorBox = [
    { x: 7, y: 7 },
    { x: W - 7, y: 7 },
    { x: W - 7, y: H - 7 },
    { x: 7, y: H - 7 },
  ];
  const inFrame = (q: Pt) => q.x >= 0 && q.y >= 0 && q.x < fw && q.y < fh;
  let project = projector(fill);
  if (fault === 'cornerOut') {
    while (anchorBox.map(project).every(inFrame)) project = projector((fill *= 1.05));
  } else {
    while (!anchorBox.map(project).every(inFrame)) {
      shift.x *= 0.8;
      shift.y *= 0.8;
      project = projector((fill *= 0.96));
    }
  }
  const pageCorners = [
    { x: 0, y: 0 },
    { x: W, y: 0 },
    { x: W, y: H },
    { x: 0, y: H },
  ];
  const toPage = homographyFrom(pageCorners.map(project), pageCorners)!;
  // Light: paper level, a gradient across the frame, maybe a soft shadow (a hand or the phone).
  const dark = fault === 'tooDark';
  const level = dark ? between(rng, 22, 40) : between(rng, 150, 232);
  const gAngle = rng() * Math.PI * 2;
  const gStrength = dark ? 0.1 : between(rng, 0.05, 0.35);
  const shadow = !dark && rng() < 0.5;
  const sAngle = rng() * Math.PI * 2;
  const sOffset = between(rng, -0.35, 0.35) * fw;
  const sDepth = between(rng, 0.6, 0.82);
  const sSoft = between(rng, 30, 120);
  const glare =
    fault === 'glare'
      ? { x: between(rng, 0.3, 0.7) * fw, y: between(rng, 0.3, 0.7) * fh, r: between(rng, 0.1, 0.16) * fw }
      : undefined;
  const table = between(rng, 60, 140);
  const k = RASTER_DPI / 25.4;
  const grey = new Float32Array(fw * fh);
  const t = toPage;
  for (let y = 0; y < fh; y++) {
    for (let x = 0; x < fw; x++) {
      const hx = x + 0.5;
      const hy = y + 0.5;
      const hw = t[6]! * hx + t[7]! * hy + t[8]!;
      const qx = (t[0]! * hx + t[1]! * hy + t[2]!) / hw;
      const qy = (t[3]! * hx + t[4]! * hy + t[5]!) / hw;
      let v: number;
      if (qx >= 0 && qy >= 0 && qx < W && qy < H) {
        // Bilinear from the raster.
        const sx = qx * k - 0.5;
        const sy = qy * k - 0.5;
        const x0 = Math.max(0, Math.min(img.width - 2, Math.floor(sx)));
        const y0 = Math.max(0, Math.min(img.height - 2, Math.floor(sy)));
        const tx = Math.min(1, Math.max(0, sx - x0));
        const ty = Math.min(1, Math.max(0, sy - y0));
        const i = y0 * img.width + x0;
        const d = img.data;
        const top = d[i]! + (d[i + 1]! - d[i]!) * tx;
        const bottom = d[i + img.width]! + (d[i + img.width + 1]! - d[i + img.width]!) * tx;
        v = ((top + (bottom - top) * ty) / 255) * level;
      } else {
        // A table: darker, with a slow grain.
        v = table * (dark ? 0.25 : 1) * (0.9 + 0.1 * Math.sin(x / 37 + Math.sin(y / 53) * 3));
      }
      const g = ((x - fw / 2) * Math.cos(gAngle) + (y - fh / 2) * Math.sin(gAngle)) / Math.max(fw, fh);
      v *= 1 - gStrength * (g + 0.5);
      if (shadow) {
        const s = (x - fw / 2) * Math.cos(sAngle) + (y - fh / 2) * Math.sin(sAngle) - sOffset;
        const t = Math.min(1, Math.max(0, s / sSoft + 0.5));
        v *= 1 - (1 - sDepth) * t;
      }
      if (glare) {
        const d2 = ((x - glare.x) ** 2 + (y - glare.y) ** 2) / glare.r ** 2;
        if (d2 < 2.5) v += 400 * Math.exp(-d2);
      }
      grey[y * fw + x] = v;
    }
  }
  // Colour (a warm indoor tint), noise, then the lens and the hand.
  const tint = [1, between(rng, 0.95, 1), between(rng, 0.82, 0.95)];
  const noise = between(rng, 2, 5);
  const rgb = Buffer.alloc(fw * fh * 3);
  for (let i = 0; i < fw * fh; i++) {
    const n = (rng() + rng() - 1) * noise;
    for (let c = 0; c < 3; c++) {
      const v = grey[i]! * tint[c]! + n;
      rgb[i * 3 + c] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  let s = sharp(rgb, { raw: { width: fw, height: fh, channels: 3 } });
  if (fault === 'blurred') s = s.blur(between(rng, 7, 10));
  else {
    // Motion: a 3- or 5-pixel line kernel along one axis.
    const len = rng() < 0.5 ? 3 : 5;
    if (rng() < 0.7) {
      const horizontal = rng() < 0.5;
      const kernel = new Array<number>(len * len).fill(0);
      for (let j = 0; j < len; j++)
        kernel[horizontal ? ((len - 1) / 2) * len + j : j * len + (len - 1) / 2] = 1;
      s = s.convolve({ width: len, height: len, kernel, scale: len });
    }
    s = s.blur(between(rng, 0.5, 1.1));
  }
  const bytes = await s.jpeg({ quality: Math.round(between(rng, 80, 92)) }).toBuffer();
  const file = path.join(dir, `photo-${spec.seed}-${fault}.jpg`);
  fs.writeFileSync(file, bytes);
  const student = spec.fixture.students[copy];
  return {
    bytes,
    file,
    fault,
    tiltDeg: (tilt * 180) / Math.PI,
    width: fw,
    height: fh,
    truth: {
      cardId: layout.cardId,
      version: layout.version,
      page: 1,
      studentId: student?.id ?? null,
      studentNumber: filled.studentNumber,
      marks: filled.marks,
      written: filled.written,
      orientation: 0,
    },
  };
}

export type { GreyImage };
