// Phone capture (issue #26, ADR 0060): a photo of a card becomes a flat 200 dpi page at the card's model geometry,
// which `recognisePage` then reads like any scan; a photo that cannot give a trustworthy page is refused with the
// reason, so the teacher retakes it on the spot.
import sharp, { type Metadata } from 'sharp';
import { CARD_PAGE_MM, PHOTO_REFUSAL_MESSAGES, type CardSize, type PhotoRefusalCode } from '@zhzy/contracts';
import type { GreyImage } from '../recognise/image.js';
import { M } from '../layout/metrics.js';
import { detectAnchorQuad, dist, quadArea } from './detect.js';
import { applyHomography, homographyFrom, poseOf, type Homography, type Pt } from './homography.js';
import { backgroundAt, LIGHT_WINDOW_MM, paperLight } from './light.js';
import { PHOTO_LIMITS, clippedShare, percentile, sharpnessOf } from './quality.js';

export { PHOTO_LIMITS };

/** Resolution of the flat page. */
export const PHOTO_PAGE_DPI = 200;
/** Long side of the frame the anchors are looked for in. */
const DETECT_LONG_SIDE = 1200;
/** The page is sampled from the photo reduced to about this many pixels per output pixel. */
const WORK_OVERSAMPLE = 1.3;

export interface PhotoOptions {
  /** Card sizes the photo may show (the homework's); portrait/landscape picks among them. Default A4 and A3. */
  sizes?: readonly CardSize[];
}

export interface PhotoQuality {
  tiltDeg: number;
  areaShare: number;
  pxPerMm: number;
  paper: number;
  sharpness: number;
  glare: number;
}

export type FlattenedPhoto =
  | {
      ok: true;
      /** Grey JPEG of the whole page at `PHOTO_PAGE_DPI`, density written. */
      page: Buffer;
      size: CardSize;
      /** Anchor centres in the photo (after its EXIF rotation), clockwise from the card's top-left. */
      anchors: Pt[];
      quality: PhotoQuality;
    }
  | { ok: false; code: PhotoRefusalCode; message: string; quality?: Partial<PhotoQuality> };

const refuse = (code: PhotoRefusalCode, quality?: Partial<PhotoQuality>): FlattenedPhoto => ({
  ok: false,
  code,
  message: PHOTO_REFUSAL_MESSAGES[code],
  ...(quality ? { quality } : {}),
});

async function grey(bytes: Buffer | Uint8Array, width?: number, height?: number): Promise<GreyImage> {
  let s = sharp(bytes, { limitInputPixels: 1.5e8, failOn: 'error' }).rotate();
  if (width && height) s = s.resize(width, height, { fit: 'fill', kernel: 'linear', fastShrinkOnLoad: true });
  const { data, info } = await s.greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
  };
}

/** Model anchor centres of a card size, clockwise from the top-left, millimetres. */
function modelAnchors(size: CardSize): Pt[] {
  const { width, height } = CARD_PAGE_MM[size];
  const c = M.anchorInset + M.anchorSize / 2;
  return [
    { x: c, y: c },
    { x: width - c, y: c },
    { x: width - c, y: height - c },
    { x: c, y: height - c },
  ];
}

/** Samples `src` bilinearly (the nearest edge outside: the sheet's margin may lie beyond the frame). */
function sample(src: GreyImage, x: number, y: number): number {
  const fx = Math.min(src.width - 1.001, Math.max(0, x - 0.5));
  const fy = Math.min(src.height - 1.001, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const tx = fx - x0;
  const ty = fy - y0;
  const i = y0 * src.width + x0;
  const d = src.data;
  const top = d[i]! + (d[i + 1]! - d[i]!) * tx;
  const bottom = d[i + src.width]! + (d[i + src.width + 1]! - d[i + src.width]!) * tx;
  return top + (bottom - top) * ty;
}

/** Warps the page (model millimetres → photo pixels by `h`) onto a grid of `k` pixels per millimetre. */
function warp(src: GreyImage, h: Homography, widthMm: number, heightMm: number, k: number): GreyImage {
  const width = Math.round(widthMm * k);
  const height = Math.round(heightMm * k);
  const data = new Uint8Array(width * height);
  for (let v = 0; v < height; v++) {
    const y = (v + 0.5) / k;
    for (let u = 0; u < width; u++) {
      const x = (u + 0.5) / k;
      const w = h[6]! * x + h[7]! * y + h[8]!;
      const px = (h[0]! * x + h[1]! * y + h[2]!) / w;
      const py = (h[3]! * x + h[4]! * y + h[5]!) / w;
      data[v * width + u] = sample(src, px, py);
    }
  }
  return { width, height, data };
}

/**
 * Checks a phone photo of a card and flattens it: finds the four anchors, maps them by a homography onto the card's
 * model geometry at 200 dpi, evens out the light (each pixel over its local paper brightness), and refuses photos
 * that are too tilted, too small, blurred, dark or glared, or show no card.
 */
export async function flattenPhoto(
  bytes: Buffer | Uint8Array,
  options: PhotoOptions = {},
): Promise<FlattenedPhoto> {
  const sizes = options.sizes?.length ? options.sizes : (['A4', 'A3'] as const);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: 1.5e8 }).metadata();
  } catch {
    return refuse('unreadable');
  }
  const turned = (meta.orientation ?? 1) >= 5;
  const fullW = (turned ? meta.height : meta.width) ?? 0;
  const fullH = (turned ? meta.width : meta.height) ?? 0;
  if (!fullW || !fullH) return refuse('unreadable');
  // Reduced early: the anchors are looked for in a frame of ~1200 pixels.
  const ds = Math.min(1, DETECT_LONG_SIDE / Math.max(fullW, fullH));
  let small: GreyImage;
  try {
    small = await grey(bytes, Math.round(fullW * ds), Math.round(fullH * ds));
  } catch {
    return refuse('unreadable');
  }
  const paperAll = percentile(small.data, 0.9);
  if (paperAll < PHOTO_LIMITS.minPaper) return refuse('tooDark', { paper: paperAll });
  let quad = detectAnchorQuad(small);
  let ds2 = ds;
  if (!quad && ds < 1) {
    // Small anchors (a card far away): once more at twice the size, to say so rather than "no anchors".
    ds2 = Math.min(1, ds * 2);
    quad = detectAnchorQuad(await grey(bytes, Math.round(fullW * ds2), Math.round(fullH * ds2)));
  }
  if (!quad) {
    if (paperAll < PHOTO_LIMITS.minPaper * 1.5) return refuse('tooDark', { paper: paperAll });
    const glare = clippedShare(small);
    if (glare > PHOTO_LIMITS.maxGlare) return refuse('glare', { glare });
    return refuse('noAnchors');
  }
  const found = quad.corners.map((p) => ({ x: p.x / ds2, y: p.y / ds2 }));
  // Portrait or landscape: the card's long side lies along the quad's longer pair of sides.
  const across = (dist(found[0]!, found[1]!) + dist(found[3]!, found[2]!)) / 2;
  const down = (dist(found[0]!, found[3]!) + dist(found[1]!, found[2]!)) / 2;
  const wide = across > down;
  // Which size: an A4 card turned across the frame has the shape of an A3 one, but anchors half as large again
  // against its span. The size whose anchors come out nearest their printed 6 mm.
  const candidates = sizes.map((size) => {
    const sizeWide = CARD_PAGE_MM[size].width > CARD_PAGE_MM[size].height;
    // A card photographed across the frame: start from the next corner so the card's top-left comes first (the
    // recogniser turns a page that ends up upside down).
    const anchors = sizeWide === wide ? found : [found[3]!, found[0]!, found[1]!, found[2]!];
    const qs = sizeWide === wide ? quad.sides : [quad.sides[3], quad.sides[0], quad.sides[1], quad.sides[2]];
    const model = modelAnchors(size);
    const h = homographyFrom(model, anchors);
    const mm = h ? model.map((p, i) => qs[i]! / ds2 / localScale(h, p)) : [];
    const med = mm.length
      ? [...mm]
          .sort((a, b) => a - b)
          .slice(1, 3)
          .reduce((a, b) => a + b, 0) / 2
      : 0;
    return {
      size,
      sizeWide,
      anchors,
      model,
      h,
      miss: med ? Math.abs(Math.log(med / M.anchorSize)) : Infinity,
    };
  });
  const best = candidates.reduce((a, b) => (b.miss < a.miss ? b : a));
  const { size, sizeWide, anchors, model, h } = best;
  if (!h) return refuse('noAnchors');
  const page = CARD_PAGE_MM[size];
  const areaShare = quadArea(anchors) / (fullW * fullH);
  const spanMm = model[2]!.x - model[0]!.x + (model[2]!.y - model[0]!.y);
  const pxPerMm = (dist(anchors[0]!, anchors[1]!) + dist(anchors[1]!, anchors[2]!)) / spanMm;
  const focal = 0.85 * Math.max(fullW, fullH);
  const pose = poseOf(h, focal, fullW / 2, fullH / 2);
  const tiltDeg = pose.tiltDeg;
  // Each anchor's size where the homography puts it: 6 mm, or these are not the card's anchors.
  const sides = (
    sizeWide === wide ? quad.sides : [quad.sides[3], quad.sides[0], quad.sides[1], quad.sides[2]]
  ).map((s) => s / ds2);
  const sideMm = model.map((p, i) => {
    const sx = dist(
      applyHomography(h, { x: p.x - 0.5, y: p.y }),
      applyHomography(h, { x: p.x + 0.5, y: p.y }),
    );
    const sy = dist(
      applyHomography(h, { x: p.x, y: p.y - 0.5 }),
      applyHomography(h, { x: p.x, y: p.y + 0.5 }),
    );
    return sides[i]! / Math.sqrt(sx * sy);
  });
  const sideMedian =
    [...sideMm]
      .sort((a, b) => a - b)
      .slice(1, 3)
      .reduce((a, b) => a + b, 0) / 2;
  if (
    pose.stretch > PHOTO_LIMITS.maxStretch ||
    pose.shear > PHOTO_LIMITS.maxShear ||
    sideMm.some((s) => Math.abs(s / sideMedian - 1) > PHOTO_LIMITS.anchorSizeTolerance) ||
    sideMedian < M.anchorSize * 0.6 ||
    sideMedian > M.anchorSize * 1.7
  ) {
    if (clippedShare(small) > PHOTO_LIMITS.maxGlare) return refuse('glare');
    if (sharpnessOf(small) < PHOTO_LIMITS.minFrameSharpness) return refuse('blurred');
    return refuse('noAnchors', { tiltDeg });
  }
  if (tiltDeg > PHOTO_LIMITS.maxTiltDeg) return refuse('tooTilted', { tiltDeg, areaShare, pxPerMm });
  if (areaShare < PHOTO_LIMITS.minAreaShare || pxPerMm < PHOTO_LIMITS.minPxPerMm)
    return refuse('tooSmall', { tiltDeg, areaShare, pxPerMm });
  // The photo reduced so the page has ~1.3 photo pixels per page pixel, then warped.
  const k = PHOTO_PAGE_DPI / 25.4;
  const ws = Math.min(1, (k * WORK_OVERSAMPLE) / pxPerMm);
  const work = await grey(bytes, Math.round(fullW * ws), Math.round(fullH * ws));
  const hw: Homography = [
    h[0]! * ws,
    h[1]! * ws,
    h[2]! * ws,
    h[3]! * ws,
    h[4]! * ws,
    h[5]! * ws,
    h[6]!,
    h[7]!,
    h[8]!,
  ];
  const flat = warp(work, hw, page.width, page.height, k);
  // Lighting: each pixel over the paper around it (a closing wider than any ink; shadow edges stay sharp).
  const bg = paperLight(flat, LIGHT_WINDOW_MM * k);
  const paper = median(bg.data);
  if (paper < PHOTO_LIMITS.minPaper) return refuse('tooDark', { tiltDeg, areaShare, pxPerMm, paper });
  let clipped = 0;
  let counted = 0;
  for (let i = 0; i < bg.data.length; i++) {
    counted++;
    if (bg.data[i]! >= 250 && bg.data[i]! > paper * 1.06) clipped++;
  }
  const glare = clipped / counted;
  if (glare > PHOTO_LIMITS.maxGlare) return refuse('glare', { tiltDeg, areaShare, pxPerMm, paper, glare });
  const out = new Uint8Array(flat.data.length);
  for (let y = 0; y < flat.height; y++)
    for (let x = 0; x < flat.width; x++) {
      const i = y * flat.width + x;
      const b = Math.max(1, backgroundAt(bg, x + 0.5, y + 0.5));
      const v = (flat.data[i]! / b) * 245;
      out[i] = v > 255 ? 255 : v;
    }
  const sharpness = sharpnessOf({ ...flat, data: out });
  const quality: PhotoQuality = { tiltDeg, areaShare, pxPerMm, paper, sharpness, glare };
  if (sharpness < PHOTO_LIMITS.minSharpness) return { ...refuse('blurred'), quality };
  const jpeg = await sharp(Buffer.from(out.buffer, out.byteOffset, out.length), {
    raw: { width: flat.width, height: flat.height, channels: 1 },
  })
    .withMetadata({ density: PHOTO_PAGE_DPI })
    .toColourspace('b-w')
    .jpeg({ quality: 90 })
    .toBuffer();
  return { ok: true, page: jpeg, size, anchors, quality };
}

/** Pixels per millimetre a homography gives around a point of the plane. */
function localScale(h: Homography, p: Pt): number {
  const sx = dist(applyHomography(h, { x: p.x - 0.5, y: p.y }), applyHomography(h, { x: p.x + 0.5, y: p.y }));
  const sy = dist(applyHomography(h, { x: p.x, y: p.y - 0.5 }), applyHomography(h, { x: p.x, y: p.y + 0.5 }));
  return Math.sqrt(sx * sy);
}

function median(data: Float32Array): number {
  const s = Float32Array.from(data).sort();
  return s[Math.floor(s.length / 2)] ?? 0;
}
