import {
  CardLayoutSchema,
  CARD_LAYOUT_VERSION,
  decodeCardQr,
  RECOGNITION_PROBLEM_MESSAGES,
  RECOGNITION_VERSION,
  MarkThresholdsSchema,
  type CardLayout,
  type CardPage,
  type CardQrPayload,
  type MarkThresholdsInput,
  type PageIdentity,
  type PageOrientation,
  type PageRecognition,
  type PageTransform,
  type RawMarks,
  type RecognitionProblem,
  type RecognitionProblemCode,
  type RecognitionStep,
} from '@zhzy/contracts';
import {
  apply,
  fitAffine,
  fitSimilarity,
  invert,
  residuals,
  rotationOf,
  scaleOf,
  type Affine,
  type Point,
} from './affine.js';
import { downsample, findAnchors, IMAGE_CORNERS, type AnchorHit, type ImageCorner } from './anchors.js';
import { measureGroup, type BubbleGroup, type GroupMeasure } from './bubbles.js';
import { frameOf, knownFrames, type PageCorner, type PageFrame } from './catalog.js';
import { classifyMarks } from './classify.js';
import { cutCrops, DEFAULT_CROP_OPTIONS, type CropOptions } from './crops.js';
import { decodePage, REDUCED_MIN_PX_PER_MM, type GreyImage } from './image.js';
import { readCode, smoothForCode } from './qr.js';
import { readScoreBoxes } from './score-cells.js';

/** The card layouts the host knows, by card id and version (undefined: not one of ours, or not this exam's). */
export type LayoutResolver = (
  cardId: string,
  version: number,
) => CardLayout | undefined | Promise<CardLayout | undefined>;

export interface RecogniseOptions {
  resolve: LayoutResolver;
  thresholds?: MarkThresholdsInput;
  crops?: Partial<CropOptions>;
  /** The scan's resolution when the caller knows it better than the file does. */
  dpi?: number;
  /** Page of a multi-page TIFF (0-based). */
  page?: number;
  /**
   * With `crops: { format: 'none' }` a large JPEG is first read from a reduced decode (default); false reads every
   * page from the full decode.
   */
  reduce?: boolean;
  /**
   * The card the rest of the batch agrees on, for a page whose code cannot be read: that card's page is measured
   * (orientation from how well its bubbles register) and the page is identified by its student-number bubbles. A
   * page without a readable number grid still fails with `qrUnreadable`.
   */
  hint?: { cardId: string; version: number; page: number };
}

/** A page's result (JSON) and its crops' images by crop id. */
export interface RecognisedPage {
  result: PageRecognition;
  images: Map<string, Buffer>;
}

/** Largest anchor residual accepted: ~3 px at 300 dpi. */
const RESIDUAL_LIMIT_MM = 0.26;
/** How far around the predicted place each bubble group is searched for its print. */
const REGISTRATION_SEARCH_MM = 0.8;
/** Samples per millimetre the page code is first read at. */
const QR_PX_PER_MM = 6;
/**
 * Box radii (millimetres) a 1-bit page's code is smoothed with (first when read at the page's own resolution, else
 * when it does not read as it is): a QR module is ~0.5 mm.
 */
const QR_SMOOTH_MM: readonly number[] = [0.15, 0.25];
/** The decoded QR must sit this close to where the layout puts it. */
const QR_POSITION_TOLERANCE_MM = 5;

const PAGE_CORNERS_CLOCKWISE: readonly PageCorner[] = ['tl', 'tr', 'br', 'bl'];

/** The page corner that lies in image corner `ic` when the page is turned `o` degrees clockwise. */
function pageCornerAt(ic: ImageCorner, o: PageOrientation): PageCorner {
  const i = IMAGE_CORNERS.indexOf(ic);
  return PAGE_CORNERS_CLOCKWISE[(i - o / 90 + 4) % 4]!;
}

const ORIENTATIONS: readonly PageOrientation[] = [0, 180, 90, 270];

interface Fit {
  m: Affine;
  residualPx: number;
  used: ImageCorner[];
  each: Map<ImageCorner, number>;
}

/** Affine fit of a frame's anchors to the hits under an orientation: four by least squares, else the best three. */
function fitFrame(frame: PageFrame, hits: AnchorHit[], o: PageOrientation, limitPx: number): Fit | undefined {
  const from = (hs: AnchorHit[]) => hs.map((h) => frame.anchors[pageCornerAt(h.corner, o)]);
  const to = (hs: AnchorHit[]): Point[] => hs.map((h) => ({ x: h.x, y: h.y }));
  const make = (hs: AnchorHit[], checkSim: boolean): Fit | undefined => {
    const m = fitAffine(from(hs), to(hs));
    if (!m) return undefined;
    // Three points fit any affine exactly: judge them by how far a similarity misses them.
    const judge = checkSim ? fitSimilarity(from(hs), to(hs)) : m;
    const r = residuals(judge, from(hs), to(hs));
    const all = residuals(m, from(hits), to(hits));
    return {
      m,
      residualPx: r.max,
      used: hs.map((h) => h.corner),
      each: new Map(hits.map((h, i) => [h.corner, all.each[i]!])),
    };
  };
  if (hits.length === 4) {
    const four = make(hits, false);
    if (four && four.residualPx <= limitPx) return four;
    let best = four;
    for (let skip = 0; skip < 4; skip++) {
      const three = make(
        hits.filter((_, i) => i !== skip),
        true,
      );
      if (three && (!best || three.residualPx < best.residualPx)) best = three;
    }
    // Prefer all four unless dropping one fits clearly better.
    if (best && four && best !== four && best.residualPx > limitPx) return four;
    return best;
  }
  if (hits.length === 3) return make(hits, true);
  return undefined;
}

interface Hypothesis {
  frame: PageFrame;
  o: PageOrientation;
  fit: Fit;
  score: number;
}

/** Card sizes and orientations the anchors could belong to, best first (0° and 180° always tie). */
function hypotheses(hits: AnchorHit[], dpi: number | null, anchorMm: number): Hypothesis[] {
  const out: Hypothesis[] = [];
  const side = hits.reduce((s, h) => s + h.side, 0) / hits.length;
  for (const frame of knownFrames()) {
    for (const o of ORIENTATIONS) {
      const fit = fitFrame(frame, hits, o, Infinity);
      if (!fit) continue;
      const pxPerMm = scaleOf(fit.m);
      // A similarity must nearly fit (a wrong 90° turn stretches one axis), the anchors must have their printed
      // size, and a known resolution must agree with a 93–102 % print.
      const sim = fitSimilarity(
        hits.map((h) => frame.anchors[pageCornerAt(h.corner, o)]),
        hits.map((h) => ({ x: h.x, y: h.y })),
      );
      const simMm =
        residuals(
          sim,
          hits.map((h) => frame.anchors[pageCornerAt(h.corner, o)]),
          hits.map((h) => ({ x: h.x, y: h.y })),
        ).max / pxPerMm;
      const sizeErr = Math.abs(side / pxPerMm / anchorMm - 1);
      let dpiErr = 0;
      if (dpi) {
        const scale = pxPerMm / (dpi / 25.4);
        dpiErr = scale < 0.92 ? 0.92 - scale : scale > 1.03 ? scale - 1.03 : 0;
      }
      if (simMm > 6 || sizeErr > 0.18 || dpiErr > 0.02) continue;
      out.push({ frame, o, fit, score: simMm / 2 + sizeErr * 10 + dpiErr * 50 });
    }
  }
  return out.sort((a, b) => a.score - b.score);
}

/** A crop of the image around a card rect (millimetres), box-averaged by the integer factor `f`. */
function cropAround(
  img: GreyImage,
  m: Affine,
  r: { x: number; y: number; w: number; h: number },
  f: number,
): { crop: GreyImage; x0: number; y0: number; f: number } | undefined {
  const corners = [
    apply(m, { x: r.x, y: r.y }),
    apply(m, { x: r.x + r.w, y: r.y }),
    apply(m, { x: r.x, y: r.y + r.h }),
    apply(m, { x: r.x + r.w, y: r.y + r.h }),
  ];
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.x))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.y))));
  const x1 = Math.min(img.width, Math.ceil(Math.max(...corners.map((p) => p.x))));
  const y1 = Math.min(img.height, Math.ceil(Math.max(...corners.map((p) => p.y))));
  if (x1 - x0 < 20 * f || y1 - y0 < 20 * f) return undefined;
  return { crop: downsample(img, x0, y0, x1 - x0, y1 - y0, f), x0, y0, f };
}

/** Whether a crop could hold a QR code at all: enough ink, enough paper. */
function looksLikeCode(g: GreyImage): boolean {
  let dark = 0;
  for (let i = 0; i < g.data.length; i += 3) if (g.data[i]! < 128) dark++;
  const share = dark / Math.ceil(g.data.length / 3);
  return share > 0.08 && share < 0.8;
}

interface QrFinding {
  payload: CardQrPayload;
  /** Centre of the code, image pixels. */
  at: Point;
  hypothesis: Hypothesis;
}

async function findQr(
  img: GreyImage,
  hyps: Hypothesis[],
  bitonal: boolean,
): Promise<{ found?: QrFinding; texts: string[] }> {
  const tried = new Set<string>();
  const texts: string[] = [];
  /** A place the code may be, with the reads still to try there, likeliest and cheapest first. */
  interface Place {
    h: Hypothesis;
    reads: (() => { c: NonNullable<ReturnType<typeof cropAround>>; image: GreyImage })[];
  }
  const places: Place[] = [];
  for (const h of hyps) {
    const q = h.frame.qr;
    const margin = 4;
    const pxPerMm = scaleOf(h.fit.m);
    const region = { x: q.x - margin, y: q.y - margin, w: q.w + 2 * margin, h: q.h + 2 * margin };
    // About 6 samples per millimetre first (the code's modules stay ≥ 3 samples; zxing's time grows with the
    // area: a 300 dpi crop costs ~4× as much), the full resolution only when that fails.
    const f = Math.max(1, Math.round(pxPerMm / QR_PX_PER_MM));
    const c = cropAround(img, h.fit.m, region, f);
    if (!c) continue;
    const key = `${Math.round(c.x0 / 20)},${Math.round(c.y0 / 20)}`;
    if (tried.has(key)) continue;
    tried.add(key);
    if (!looksLikeCode(c.crop)) continue;
    let full: typeof c | undefined;
    const fullCrop = () => (full ??= f === 1 ? c : cropAround(img, h.fit.m, region, 1)!);
    const asIs = () => ({ c, image: c.crop });
    // A 1-bit page's dither averaged at about half a module (office scanners' 200 dpi black-and-white leaves a code
    // legible only when smoothed); each distinct radius once.
    const radii = [...new Set(QR_SMOOTH_MM.map((mm) => Math.max(1, Math.round(mm * pxPerMm))))];
    const smoothed = radii.map((r) => () => ({ c: fullCrop(), image: smoothForCode(fullCrop().crop, r) }));
    const fullAsIs = () => ({ c: fullCrop(), image: fullCrop().crop });
    // A 1-bit page sampled at its own resolution (f = 1) nearly never reads as it is: smoothed first. Reduced
    // (f > 1), the box average already smooths it.
    const reads =
      bitonal && f === 1
        ? [smoothed[0]!, asIs, ...smoothed.slice(1)]
        : [asIs, ...(bitonal ? smoothed : []), ...(f > 1 ? [fullAsIs] : [])];
    places.push({ h, reads });
  }
  // Every place's first read before any place's fallbacks: an upside-down page's code is at the second place, and
  // the first place's fallbacks would be read in vain.
  for (let round = 0; places.some((p) => p.reads.length > round); round++) {
    for (const { h, reads } of places) {
      const read = reads[round];
      if (!read) continue;
      const { c, image } = read();
      const hit = await readCode(image);
      if (!hit) continue;
      texts.push(hit.text);
      // A code read at a place is that place's code: a foreign one is not read there again.
      reads.length = round + 1;
      const decoded = decodeCardQr(hit.text);
      if (!decoded.ok) continue;
      return {
        found: {
          payload: decoded.payload,
          at: { x: c.x0 + hit.x * c.f, y: c.y0 + hit.y * c.f },
          hypothesis: h,
        },
        texts,
      };
    }
  }
  return { texts };
}

/**
 * A resolved layout checked against its schema once per layout object (a worker's resolver hands back the same
 * object for every page of a card: checking it costs more than reading a bubble block).
 */
const checkedLayouts = new WeakMap<CardLayout, ReturnType<typeof CardLayoutSchema.safeParse>>();
function checkedLayout(layout: CardLayout): ReturnType<typeof CardLayoutSchema.safeParse> {
  let checked = checkedLayouts.get(layout);
  if (!checked) {
    checked = CardLayoutSchema.safeParse(layout);
    checkedLayouts.set(layout, checked);
  }
  return checked;
}

function problem(code: RecognitionProblemCode, level: 'page' | 'item', message?: string): RecognitionProblem {
  return { code, level, message: message ?? RECOGNITION_PROBLEM_MESSAGES[code] };
}

/** Bubble groups of a page: objective blocks, the student-number grid, optional-choice rows. */
function bubbleGroups(page: CardPage): BubbleGroup[] {
  const out: BubbleGroup[] = [];
  for (const e of page.elements) {
    if (e.type === 'objectiveBlock') out.push({ elementId: e.id, bubbles: e.rows.flatMap((r) => r.bubbles) });
    if (e.type === 'studentNumberGrid') out.push({ elementId: e.id, bubbles: e.bubbles });
    if (e.type === 'optionalChoice') out.push({ elementId: e.id, bubbles: e.bubbles });
  }
  return out;
}

const r4 = (x: number) => Math.round(x * 10000) / 10000;

/** The raw measurements in the classifier's terms. */
function rawMarks(page: CardPage, measured: Map<string, GroupMeasure>): RawMarks {
  const questions: RawMarks['questions'] = [];
  let digits: RawMarks['digits'];
  for (const e of page.elements) {
    const g = measured.get(e.id);
    if (!g) continue;
    const at = (i: number) => {
      const b = g.bubbles[i]!;
      return {
        ratio: r4(b.ratio),
        core: r4(b.core),
        peak: r4(b.peak),
        mid: r4(b.mid),
        rim: r4(b.rim),
        streak: r4(b.streak),
        line: r4(b.line),
      };
    };
    if (e.type === 'objectiveBlock') {
      let i = 0;
      for (const row of e.rows)
        questions.push({
          questionId: row.questionId,
          number: row.number,
          kind: row.kind,
          bubbles: row.bubbles.map((b) => ({ option: b.option, ...at(i++) })),
        });
    }
    if (e.type === 'optionalChoice') {
      questions.push({
        questionId: e.optionalGroup,
        number: e.bubbles.map((b) => b.number).join('/'),
        kind: 'optional',
        bubbles: e.bubbles.map((b, i) => ({ option: b.questionId, ...at(i) })),
      });
    }
    if (e.type === 'studentNumberGrid') {
      digits = Array.from({ length: e.digits }, (_, digit) => ({
        digit,
        bubbles: [] as RawMarks['questions'][number]['bubbles'],
      }));
      e.bubbles.forEach((b, i) => digits![b.digit]?.bubbles.push({ option: String(b.value), ...at(i) }));
      for (const d of digits) d.bubbles.sort((a, b) => Number(a.option) - Number(b.option));
    }
  }
  return digits ? { questions, digits } : { questions };
}

function identityOf(payload: CardQrPayload): PageIdentity {
  return {
    cardId: payload.cardId,
    version: payload.version,
    page: payload.page,
    studentId: payload.studentId ?? null,
    studentNumber: null,
    source: payload.studentId ? 'qr' : 'none',
  };
}

/** The page code read from the whole page at a reduced size (only when the expected places failed: ~100 ms). */
async function qrAnywhere(
  img: GreyImage,
  dpi: number | null,
  bitonal = false,
): Promise<{ payload: CardQrPayload; at: Point } | undefined> {
  const pxPerMm = dpi ? dpi / 25.4 : Math.min(img.width, img.height) / 240;
  const f = Math.max(1, Math.round(pxPerMm / 6));
  const first = await readCode(downsample(img, 0, 0, img.width, img.height, f));
  let hit = first;
  // A dithered 1-bit page: averaged over one more pixel the dots become grey again.
  if (!hit && bitonal) hit = await readCode(downsample(img, 0, 0, img.width, img.height, f + 1));
  const decoded = hit ? decodeCardQr(hit.text) : undefined;
  const used = hit && hit === first ? f : f + 1;
  return hit && decoded?.ok
    ? { payload: decoded.payload, at: { x: hit.x * used, y: hit.y * used } }
    : undefined;
}

/**
 * Without a page code: the orientation under which the page's bubble groups register best against their printed
 * brackets (a clear winner is required, else undefined). `miss` is 0 for the winner.
 */
function orientByBubbles(
  img: GreyImage,
  frame: PageFrame,
  hits: AnchorHit[],
  page: CardPage,
  limitPx: number,
  inkLevel: number,
): { o: PageOrientation; fit: Fit; miss: number } | undefined {
  const groups = bubbleGroups(page);
  if (!groups.length) return undefined;
  const ink = hits.reduce((s, h) => s + h.ink, 0) / hits.length;
  const scored: { o: PageOrientation; fit: Fit; score: number }[] = [];
  for (const o of ORIENTATIONS) {
    const fit = fitFrame(frame, hits, o, limitPx);
    if (!fit || fit.residualPx > limitPx) continue;
    const q = Math.min(scaleOf(fit.m), 10);
    let sum = 0;
    for (const g of groups)
      sum += measureGroup(img, fit.m, g, { q, ink, inkLevel, searchMm: REGISTRATION_SEARCH_MM }).fit;
    scored.push({ o, fit, score: sum / groups.length });
  }
  scored.sort((a, b) => b.score - a.score);
  const [first, second] = scored;
  if (!first || first.score < 0.15 || (second && second.score > first.score * 0.6)) return undefined;
  return { o: first.o, fit: first.fit, miss: 0 };
}

/** Whether an image has almost no ink at all (an empty sheet). */
function nearlyEmpty(img: GreyImage): boolean {
  const step = 7;
  let dark = 0;
  let n = 0;
  for (let i = 0; i < img.data.length; i += step, n++) if (img.data[i]! < 128) dark++;
  return dark / n < 0.0005;
}

/**
 * Recognises one scanned page: anchors → transform → QR → layout → bubbles → marks → crops. Never throws for a bad
 * page: whatever cannot be read is reported in `problems`, so one bad page never stops a batch.
 */
export async function recognisePage(
  input: Buffer | Uint8Array,
  options: RecogniseOptions,
): Promise<RecognisedPage> {
  const t0 = performance.now();
  const cropOptions: CropOptions = { ...DEFAULT_CROP_OPTIONS, ...options.crops };
  // Without crop images nothing needs the full resolution: a large JPEG is read reduced, and only a page that is
  // not wholly clear there (anything to review, or unreadable) is read again from the full decode.
  if (cropOptions.format === 'none' && options.reduce !== false) {
    const reduced = await readPage(input, options, true);
    if (!reduced.reduced) return reduced.page;
    // A page printed small, or whose file claims more dots than it has, may be sampled too sparsely there.
    if (reduced.page.result.status === 'ok' && reduced.pxPerMm >= REDUCED_MIN_PX_PER_MM * 0.9)
      return reduced.page;
    const full = await readPage(input, options, false);
    full.page.result.timings.total = Math.round((performance.now() - t0) * 100) / 100;
    return full.page;
  }
  return (await readPage(input, options, false)).page;
}

async function readPage(
  input: Buffer | Uint8Array,
  options: RecogniseOptions,
  reduce: boolean,
): Promise<{ page: RecognisedPage; reduced: boolean; pxPerMm: number }> {
  const t0 = performance.now();
  let reduced = false;
  /** Samples per millimetre of the card in the decoded image (0 until the transform is known). */
  let workPxPerMm = 0;
  const timings: Partial<Record<RecognitionStep, number>> = {};
  let mark = t0;
  const lap = (step: RecognitionStep) => {
    const now = performance.now();
    timings[step] = Math.round((now - mark) * 100) / 100;
    mark = now;
  };
  const thresholds = MarkThresholdsSchema.parse(options.thresholds ?? {});
  const cropOptions: CropOptions = { ...DEFAULT_CROP_OPTIONS, ...options.crops };
  const result: PageRecognition = {
    recognitionVersion: RECOGNITION_VERSION,
    status: 'failed',
    identity: null,
    orientation: null,
    image: { width: 0, height: 0, format: 'unknown', dpi: null, dpiSource: null, bitonal: false },
    transform: null,
    levels: null,
    blocks: [],
    marks: [],
    studentNumber: null,
    uncertain: [],
    crops: [],
    problems: [],
    thresholds,
    timings,
  };
  const images = new Map<string, Buffer>();
  const finish = (): { page: RecognisedPage; reduced: boolean; pxPerMm: number } => {
    timings.total = Math.round((performance.now() - t0) * 100) / 100;
    const pageLevel = result.problems.filter((p) => p.level === 'page').map((p) => p.code);
    const fatal: RecognitionProblemCode[] = [
      'imageUnreadable',
      'anchorsNotFound',
      'qrUnreadable',
      'cardUnknown',
    ];
    result.status = pageLevel.some((c) => fatal.includes(c))
      ? 'failed'
      : result.problems.length
        ? 'review'
        : 'ok';
    return { page: { result, images }, reduced, pxPerMm: workPxPerMm };
  };

  try {
    // 1. Decode once to one grey channel.
    let decoded;
    try {
      decoded = await decodePage(input, options.page ?? 0, { reduce });
    } catch {
      result.problems.push(problem('imageUnreadable', 'page'));
      return finish();
    }
    const img = decoded.image;
    let dpi = options.dpi ?? decoded.dpi;
    // Everything up to the transform is measured on the decoded image; `dpi` stays the file's, `workDpi` is the
    // decoded image's (a third of it when reduced).
    const { x: sx, y: sy } = decoded.scale;
    reduced = sx !== 1 || sy !== 1;
    const sMean = (sx + sy) / 2;
    const workDpi = (d: number | null) => (d ? d / sMean : null);
    result.image = {
      width: decoded.fullWidth,
      height: decoded.fullHeight,
      format: decoded.format,
      dpi,
      dpiSource: dpi ? 'metadata' : null,
      bitonal: decoded.bitonal,
    };
    lap('decode');

    // 2. Anchors, and the card sizes and orientations they fit.
    const anchorMm = knownFrames()[0]!.anchorMm;
    let hits = findAnchors(img, { anchorMm, ...(dpi ? { sidePx: (workDpi(dpi)! / 25.4) * anchorMm } : {}) });
    let hyps = hits.length >= 3 ? hypotheses(hits, workDpi(dpi), anchorMm) : [];
    if (!hyps.length && dpi) {
      // Scanners do write wrong resolutions: look again as if the file said nothing.
      hits = findAnchors(img, { anchorMm });
      hyps = hits.length >= 3 ? hypotheses(hits, null, anchorMm) : [];
      if (hyps.length && !options.dpi) {
        dpi = null;
        result.image = { ...result.image, dpi: null, dpiSource: null };
      }
    }
    lap('anchors');
    if (!hyps.length) {
      result.problems.push(problem('anchorsNotFound', 'page'));
      if (nearlyEmpty(img)) {
        result.problems.push(
          problem('blankPage', 'page', '这是一张空白纸（没有答题卡内容），可能是纸张背面或多扫了一张白纸'),
        );
      } else {
        // Still say whose sheet it is when the code can be read anywhere on the page: the exception queue shows it.
        const anywhere = await qrAnywhere(img, workDpi(dpi), decoded.bitonal);
        if (anywhere) result.identity = identityOf(anywhere.payload);
      }
      lap('qr');
      return finish();
    }

    // 3. The page code, where each hypothesis puts it.
    const search = await findQr(img, hyps, decoded.bitonal);
    const texts = search.texts;
    let found = search.found;
    if (!found) {
      // Not where any known card keeps it: look over the whole page before giving up.
      const anywhere = await qrAnywhere(img, workDpi(dpi), decoded.bitonal);
      if (anywhere) found = { ...anywhere, hypothesis: hyps[0]! };
    }
    const hint = !found ? options.hint : undefined;
    if (!found && !hint) {
      result.problems.push(
        problem(
          'qrUnreadable',
          'page',
          texts.length ? '答题卡上的二维码不是本系统生成的，请确认这是本系统打印的答题卡' : undefined,
        ),
      );
      lap('qr');
      return finish();
    }
    const payload: CardQrPayload = found?.payload ?? {
      cardId: hint!.cardId,
      version: hint!.version,
      page: hint!.page,
    };
    const identity = identityOf(payload);
    result.identity = identity;
    const resolved = await options.resolve(payload.cardId, payload.version);
    const layout =
      resolved && resolved.layoutVersion === CARD_LAYOUT_VERSION ? checkedLayout(resolved) : undefined;
    const page = layout?.success ? layout.data.pages[payload.page - 1] : undefined;
    const frame = layout?.success && page ? frameOf(layout.data, page) : undefined;
    if (!found && (!layout?.success || !page || !frame)) {
      result.identity = null;
      result.problems.push(problem('qrUnreadable', 'page'));
      lap('qr');
      return finish();
    }
    if (!layout?.success || !page || !frame) {
      result.problems.push(
        problem(
          'cardUnknown',
          'page',
          layout?.success && !page
            ? `答题卡的第${payload.page}页不存在（该答题卡只有${layout.data.pages.length}页），可能混入了其他试卷的答题卡`
            : undefined,
        ),
      );
      lap('qr');
      return finish();
    }

    // 4. The card's own frame: the orientation whose QR lands where the code was read (without a code: whose
    // bubbles register best), then the final fit.
    const limitPx = RESIDUAL_LIMIT_MM * scaleOf((found?.hypothesis ?? hyps[0]!).fit.m);
    let best: { o: PageOrientation; fit: Fit; miss: number } | undefined;
    if (found) {
      const qrCentre = { x: frame.qr.x + frame.qr.w / 2, y: frame.qr.y + frame.qr.h / 2 };
      for (const o of ORIENTATIONS) {
        const fit = fitFrame(frame, hits, o, limitPx);
        if (!fit) continue;
        const p = apply(fit.m, qrCentre);
        const miss = Math.hypot(p.x - found.at.x, p.y - found.at.y) / scaleOf(fit.m);
        if (!best || miss < best.miss) best = { o, fit, miss };
      }
    } else {
      best = orientByBubbles(img, frame, hits, page, limitPx, thresholds.inkLevel);
    }
    if (!best || best.miss > QR_POSITION_TOLERANCE_MM) {
      if (!found) {
        result.identity = null;
        result.problems.push(problem('qrUnreadable', 'page'));
        lap('qr');
        return finish();
      }
      result.problems.push(
        problem('anchorsNotFound', 'page', '定位点与二维码的位置对不上，请检查答题卡是否完整、扫描是否歪斜'),
      );
      lap('qr');
      return finish();
    }
    const { o, fit } = best;
    const m = fit.m;
    const pxPerMm = scaleOf(m);
    workPxPerMm = pxPerMm;
    // The transform as the file's pixels see it.
    const mFull: Affine = [m[0] * sx, m[1] * sx, m[2] * sx, m[3] * sy, m[4] * sy, m[5] * sy];
    const fullPxPerMm = scaleOf(mFull);
    const skew = ((rotationOf(mFull) - o + 540) % 360) - 180;
    const transform: PageTransform = {
      matrix: mFull.map(r4) as PageTransform['matrix'],
      residualPx: r4(fit.residualPx * sMean),
      residualMm: r4(fit.residualPx / pxPerMm),
      anchorsUsed: fit.used.length,
      anchors: IMAGE_CORNERS.map((ic) => {
        const h = hits.find((x) => x.corner === ic);
        return {
          corner: pageCornerAt(ic, o),
          x: h ? r4(h.x * sx) : null,
          y: h ? r4(h.y * sy) : null,
          residualPx: h ? r4((fit.each.get(ic) ?? 0) * sMean) : null,
          used: fit.used.includes(ic),
        };
      }),
      pxPerMm: r4(fullPxPerMm),
      skewDeg: r4(skew),
      printScale: dpi ? r4(fullPxPerMm / (dpi / 25.4)) : null,
    };
    result.transform = transform;
    result.orientation = o;
    if (!dpi) result.image = { ...result.image, dpi: Math.round(fullPxPerMm * 25.4), dpiSource: 'anchors' };
    const ink = hits.reduce((s, h) => s + h.ink, 0) / hits.length;
    const paper = hits.reduce((s, h) => s + h.paper, 0) / hits.length;
    result.levels = { paper: Math.round(paper), ink: Math.round(ink) };
    if (fit.residualPx > limitPx) result.problems.push(problem('anchorsDistorted', 'page'));
    lap('qr');
    // A reduced read sampled too sparsely, or already not wholly clear, is read again in full (`recognisePage`):
    // measuring it further would be done twice.
    const rereadInFull = () =>
      reduced && (result.problems.length > 0 || pxPerMm < REDUCED_MIN_PX_PER_MM * 0.9);
    if (rereadInFull()) return finish();

    // 5. Every bubble group re-registered locally and measured.
    const q = Math.min(pxPerMm, 10);
    const measured = new Map<string, GroupMeasure>();
    for (const g of bubbleGroups(page)) {
      const mg = measureGroup(img, m, g, {
        q,
        ink,
        inkLevel: thresholds.inkLevel,
        searchMm: REGISTRATION_SEARCH_MM,
      });
      measured.set(g.elementId, mg);
      result.blocks.push({ elementId: g.elementId, dxMm: r4(mg.dxMm), dyMm: r4(mg.dyMm), fit: r4(mg.fit) });
    }
    lap('registration');

    // 6. Marks and the student number, decided from the raw measurements alone.
    const raw = { ...rawMarks(page, measured), ...(decoded.bitonal ? { bitonal: true } : {}) };
    const cls = classifyMarks(raw, thresholds);
    result.marks = cls.marks;
    result.studentNumber = cls.studentNumber;
    result.uncertain = cls.uncertain;
    const byQr = identity.studentId !== null;
    for (const p of cls.problems) {
      // A personalised code names the student: the number bubbles do not matter then.
      if (byQr && (p.code === 'studentNumberInvalid' || p.code === 'studentNumberMissing')) continue;
      result.problems.push(p);
    }
    if (byQr) result.uncertain = result.uncertain.filter((u) => u.kind !== 'studentNumber');
    else if (cls.studentNumber?.status === 'ok') {
      identity.studentNumber = cls.studentNumber.value;
      identity.source = 'bubbles';
    }
    if (!found && identity.source !== 'bubbles') {
      // Without its code a page is only taken for the batch's card when its number grid names the student.
      result.identity = null;
      result.problems = [problem('qrUnreadable', 'page')];
      lap('marks');
      return finish();
    }
    lap('marks');
    if (rereadInFull()) return finish();

    // A barcode sticker names the student when the QR does not.
    const zone = page.elements.find((e) => e.type === 'barcodeZone');
    if (zone && !byQr) {
      const r = zone.rect;
      const c = cropAround(
        img,
        m,
        { x: r.x - 2, y: r.y - 2, w: r.w + 4, h: r.h + 4 },
        Math.max(1, Math.floor(pxPerMm / 12)),
      );
      const hit = c && (await readCode(c.crop, 'linear'));
      if (hit) {
        identity.studentNumber = hit.text.trim();
        identity.source = 'barcode';
      } else {
        result.problems.push(
          problem('studentNumberMissing', 'page', '未识别到条形码，请检查条形码是否贴在框内、是否完整清晰'),
        );
      }
    }

    // 7. Written answers and blanks cut from the full-resolution page.
    const cut = await cutCrops(img, m, pxPerMm, ink, page, cropOptions, fullPxPerMm);
    result.crops = cut.crops;
    for (const [k, v] of cut.images) images.set(k, v);
    lap('crops');

    // 8. Score boxes (先阅后扫, ADR 0065): read from the file itself, on its red where it is colour (a grey file
    // decoded in full is not decoded again).
    const scores = await readScoreBoxes(
      input,
      options.page ?? 0,
      mFull,
      page,
      { paper, ink },
      decoded.bitonal,
      decoded.greyFile ? img : undefined,
    );
    if (scores) result.scores = scores;

    // A score box the teacher marked (a score read, or a mark a person must look at) is content too: a 先阅后扫 page
    // whose only ink is the teacher's red is not a blank page (ADR 0065, session 19).
    const answered =
      result.marks.some((x) => x.status !== 'blank') ||
      result.crops.some((c) => !c.blank) ||
      (result.studentNumber !== null && result.studentNumber.status !== 'blank') ||
      (result.scores ?? []).some((s) => s.status !== 'blank');
    if (!answered && (result.marks.length || result.crops.length)) {
      result.problems.push(problem('blankPage', 'page'));
    }
    return finish();
  } catch (error) {
    // A bug must not stop the batch either: report the page as unreadable, with the reason for the logs.
    result.problems.push(
      problem(
        'imageUnreadable',
        'page',
        `识别这一页时出错，请重新扫描或人工处理（${(error as Error).message}）`,
      ),
    );
    return finish();
  }
}

/** The transform's inverse: image pixels → card millimetres. */
export function imageToCard(transform: PageTransform, p: Point): Point {
  return apply(invert(transform.matrix), p);
}

/** Card millimetres → image pixels. */
export function cardToImage(transform: PageTransform, p: Point): Point {
  return apply(transform.matrix, p);
}

/** One shape of the review overlay, in image pixels (a quadrilateral: the page may be skewed or turned). */
export interface OverlayShape {
  kind: 'bubble' | 'crop' | 'anchor';
  /** Corners clockwise from the card's top-left of the rect. */
  quad: [Point, Point, Point, Point];
  questionId?: string;
  /** The bubble's option (digit for the student number). */
  option?: string;
  /** Student-number column. */
  digit?: number;
  state?: 'filled' | 'empty' | 'uncertain';
  /** For crops: nothing written. */
  blank?: boolean;
  elementId?: string;
}

/**
 * What was read where, for the teacher's review: every measured bubble (at its re-registered place) with its state,
 * every crop and every anchor used, as quadrilaterals on the scanned image.
 */
export function overlayOf(result: PageRecognition, layout: CardLayout): OverlayShape[] {
  const t = result.transform;
  const id = result.identity;
  const page = id ? layout.pages[id.page - 1] : undefined;
  if (!t || !page) return [];
  const quad = (r: { x: number; y: number; w: number; h: number }, dx = 0, dy = 0): OverlayShape['quad'] => [
    cardToImage(t, { x: r.x + dx, y: r.y + dy }),
    cardToImage(t, { x: r.x + r.w + dx, y: r.y + dy }),
    cardToImage(t, { x: r.x + r.w + dx, y: r.y + r.h + dy }),
    cardToImage(t, { x: r.x + dx, y: r.y + r.h + dy }),
  ];
  const shift = new Map(result.blocks.map((b) => [b.elementId, b]));
  const marks = new Map(result.marks.map((m) => [m.questionId, m]));
  const out: OverlayShape[] = [];
  for (const e of page.elements) {
    const s = shift.get(e.id);
    const dx = s?.dxMm ?? 0;
    const dy = s?.dyMm ?? 0;
    if (e.type === 'anchor') {
      const used = t.anchors.find((a) => a.corner === e.corner)?.used;
      if (used) out.push({ kind: 'anchor', quad: quad(e.rect), elementId: e.id });
    }
    if (e.type === 'objectiveBlock') {
      for (const row of e.rows) {
        const m = marks.get(row.questionId);
        for (const b of row.bubbles) {
          const state = m?.bubbles.find((x) => x.option === b.option)?.state;
          out.push({
            kind: 'bubble',
            quad: quad(b.rect, dx, dy),
            questionId: row.questionId,
            option: b.option,
            ...(state ? { state } : {}),
          });
        }
      }
    }
    if (e.type === 'optionalChoice') {
      const m = marks.get(e.optionalGroup);
      for (const b of e.bubbles) {
        const state = m?.bubbles.find((x) => x.option === b.questionId)?.state;
        out.push({
          kind: 'bubble',
          quad: quad(b.rect, dx, dy),
          questionId: e.optionalGroup,
          option: b.questionId,
          ...(state ? { state } : {}),
        });
      }
    }
    if (e.type === 'studentNumberGrid') {
      for (const b of e.bubbles) {
        const state = result.studentNumber?.digits[b.digit]?.bubbles[b.value]?.state;
        out.push({
          kind: 'bubble',
          quad: quad(b.rect, dx, dy),
          digit: b.digit,
          option: String(b.value),
          ...(state ? { state } : {}),
        });
      }
    }
  }
  for (const c of result.crops)
    out.push({ kind: 'crop', quad: quad(c.rect), elementId: c.elementId, blank: c.blank });
  return out;
}
