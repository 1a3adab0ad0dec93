import { loadSharp } from '../../pages/sharp-lazy.js';
import type { CardLayout, ColorMode, Rect } from '@zhzy/contracts';
import { cardPageSvg, type PrintedStudent } from './card-svg.js';
import { handwriting, pencilFill, strayMark, type Canvas, type MarkStyle } from './pencil.js';
import type { ClassModel } from './class-model.js';
import { Random } from './random.js';
import { decideTeacherMarks, drawTeacherMarks, type TeacherMark } from './teacher-marks.js';

/** One pencil mark made on a sheet, for ground truth. */
export interface TruthMark {
  /** The question (or `number:<digit>` for the student-number grid, `optional:<group>` for 选做题). */
  target: string;
  option: string;
  style: MarkStyle;
  page: number;
  rect: Rect;
}

/** What the student meant and did on one sheet (every page of it). */
export interface SheetTruth {
  student: PrintedStudent;
  /** Question id → the options the student meant to choose ('' for none; 'AB' for two). */
  answers: Record<string, string>;
  /** Every mark on the paper, including erased ones and wrong marking styles. */
  marks: TruthMark[];
  /** Digits filled in the student-number grid, when the card has one. */
  studentNumber: string | null;
  /** Optional group → the question chosen. */
  optional: Record<string, string>;
  /** Sheet-level accidents. */
  stray: number;
  /** The student's ability when the class answered from the key (ADR 0038), else null. */
  ability: number | null;
  /** The teacher's red marks on the score boxes, when the sheets were marked on paper (先阅后扫). */
  teacher: TeacherMark[];
}

export interface PageTransform {
  rotationDeg: number;
  scale: number;
  offsetXmm: number;
  offsetYmm: number;
}

export interface VirtualPage {
  image: Buffer;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  dpi: number;
  transform: PageTransform;
}

/** Students of a demo class. */
export function demoStudents(count: number, classNo = 1): PrintedStudent[] {
  const family = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
  const given = '子涵浩然欣怡宇轩梓萱俊杰雨桐思远佳琪一诺';
  return Array.from({ length: count }, (_, i) => ({
    id: `stu-${classNo}-${String(i + 1).padStart(3, '0')}`,
    name:
      family[i % family.length]! +
      given[(i * 7) % given.length]! +
      (i % 3 === 0 ? '' : given[(i * 3 + 1) % given.length]!),
    number: `2025${String(classNo).padStart(2, '0')}${String(i + 1).padStart(2, '0')}`,
    className: `高一（${classNo}）班`,
  }));
}

/**
 * A class filling cards with 2B pencils: nearly every mark is a proper fill, and about one in two hundred is light,
 * half-filled, a tick or a dot, so a class set leaves the handful of marks to look at a teacher meets in practice
 * (the recogniser's accuracy corpus in packages/answer-card, not this, is where hard marks are tried in bulk).
 */
function pickStyle(rng: Random): MarkStyle {
  const r = rng.next();
  if (r < 0.55) return 'heavy';
  if (r < 0.995) return 'normal';
  if (r < 0.998) return 'light';
  if (r < 0.999) return 'partial';
  return r < 0.9995 ? 'tick' : 'dot';
}

/**
 * Decides every answer and mark of one sheet: scripted answers first, then the class model's answers on questions
 * the key names (ADR 0038), random ones on the rest (all of them without a key).
 */
export function decideSheet(
  layout: CardLayout,
  student: PrintedStudent,
  rng: Random,
  scripted: Record<string, string> = {},
  model: ClassModel | null = null,
  /** Marked on paper by a teacher: scripted scores by question id (the rest seeded). */
  teacher: Readonly<Record<string, number>> | null = null,
): SheetTruth {
  const ability = model ? model.ability(student) : null;
  const truth: SheetTruth = {
    student,
    answers: {},
    marks: [],
    studentNumber: null,
    optional: {},
    stray: 0,
    ability,
    teacher: [],
  };
  for (const page of layout.pages) {
    for (const e of page.elements) {
      if (e.type === 'objectiveBlock') {
        for (const row of e.rows) {
          const options = row.bubbles.map((b) => b.option);
          let chosen: string[];
          const script = scripted[row.questionId];
          const objective = { questionId: row.questionId, kind: row.kind, options };
          const keyed = script === undefined && model !== null ? model.correct(objective) : null;
          if (script !== undefined)
            chosen = [...script.toUpperCase()].filter((o) => options.includes(o as never));
          else if (keyed && model && ability !== null) {
            // A class answering from the key: blanks and double marks as often as without one.
            if (row.kind !== 'multiple' && rng.chance(0.02)) chosen = [];
            else if (row.kind === 'single' && rng.chance(0.004))
              chosen = [...options]
                .sort(() => rng.next() - 0.5)
                .slice(0, 2)
                .sort();
            else chosen = model.answer(objective, ability, rng) ?? [];
          } else if (row.kind === 'multiple') {
            const k = rng.int(1, Math.min(3, options.length));
            chosen = [...options]
              .sort(() => rng.next() - 0.5)
              .slice(0, k)
              .sort();
          } else if (rng.chance(0.02)) chosen = [];
          else if (row.kind === 'single' && rng.chance(0.004))
            chosen = [...options]
              .sort(() => rng.next() - 0.5)
              .slice(0, 2)
              .sort();
          else chosen = [rng.pick(options)];
          truth.answers[row.questionId] = chosen.join('');
          const sheetScripted = script !== undefined;
          for (const b of row.bubbles) {
            if (chosen.includes(b.option)) {
              truth.marks.push({
                target: row.questionId,
                option: b.option,
                style: sheetScripted ? 'heavy' : pickStyle(rng),
                page: page.index,
                rect: b.rect,
              });
            } else if (!sheetScripted && rng.chance(0.003)) {
              truth.marks.push({
                target: row.questionId,
                option: b.option,
                style: 'erased',
                page: page.index,
                rect: b.rect,
              });
            }
          }
        }
      } else if (e.type === 'studentNumberGrid') {
        const digits = student.number.replace(/\D/g, '').padStart(e.digits, '0').slice(-e.digits);
        truth.studentNumber = digits;
        for (const b of e.bubbles) {
          if (Number(digits[b.digit]) === b.value) {
            truth.marks.push({
              target: `number:${b.digit}`,
              option: String(b.value),
              style: rng.chance(0.9) ? 'heavy' : 'normal',
              page: page.index,
              rect: b.rect,
            });
          }
        }
      } else if (e.type === 'optionalChoice') {
        const chosen = rng.pick(e.bubbles);
        truth.optional[e.optionalGroup] = chosen.questionId;
        truth.marks.push({
          target: `optional:${e.optionalGroup}`,
          option: chosen.number,
          style: 'heavy',
          page: page.index,
          rect: chosen.rect,
        });
      }
    }
  }
  if (rng.chance(0.05)) truth.stray = 1;
  // Its own generator, so a class set marked on paper answers exactly as the same set unmarked.
  if (teacher) truth.teacher = decideTeacherMarks(layout, rng.fork(77), teacher);
  return truth;
}

let noiseTable: Float32Array | undefined;
function noise(): Float32Array {
  if (!noiseTable) {
    const rng = new Random(12345);
    noiseTable = new Float32Array(1 << 16);
    for (let i = 0; i < noiseTable.length; i++) noiseTable[i] = rng.normal();
  }
  return noiseTable;
}

/** Options of one page's rendering. */
export interface RenderPageOptions {
  dpi: number;
  colorMode: ColorMode;
  rng: Random;
  /** 'clean': no rotation, offset, noise or blur (for exact checks); 'realistic' by default. */
  realism?: 'clean' | 'realistic';
  /** Forces a transform (tests). */
  transform?: PageTransform;
}

/** Renders one page of a filled sheet as the scanner would deliver it. */
export async function renderSheetPage(
  layout: CardLayout,
  pageIndex: number,
  truth: SheetTruth,
  options: RenderPageOptions,
): Promise<VirtualPage> {
  const page = layout.pages[pageIndex];
  if (!page) throw new Error(`page ${pageIndex} not in layout`);
  const { rng, dpi } = options;
  const realistic = (options.realism ?? 'realistic') === 'realistic';
  const sharp = await loadSharp();
  const { svg, width, height } = cardPageSvg(page, dpi, layout.identity === 'qr' ? truth.student : undefined);
  const base = await sharp(Buffer.from(svg), { density: 72 })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const canvas: Canvas = {
    data: base.data,
    width: base.info.width,
    height: base.info.height,
    pxPerMm: dpi / 25.4,
  };

  for (const mark of truth.marks) if (mark.page === pageIndex) pencilFill(canvas, mark.rect, mark.style, rng);
  for (const e of page.elements) {
    if (e.type === 'writtenBox' && rng.chance(0.92)) handwriting(canvas, e.rect, rng);
    if (e.type === 'blank')
      for (const l of e.lines)
        if (rng.chance(0.9))
          handwriting(
            canvas,
            { x: l.x, y: l.y + l.h - 13.5, w: Math.min(l.w, rng.between(14, 40)), h: 16 },
            rng,
            { lines: 1, fill: 1 },
          );
  }
  // The teacher marked after the student wrote: red ticks on the score boxes.
  if (truth.teacher.length) drawTeacherMarks(canvas, truth.teacher, pageIndex, rng.fork(78));
  if (truth.stray && pageIndex === 0)
    strayMark(canvas, rng.between(30, page.widthMm - 30), rng.between(60, page.heightMm - 40), rng);

  const transform: PageTransform =
    options.transform ??
    (realistic
      ? {
          rotationDeg: Math.max(-2, Math.min(2, rng.normal() * 0.8)),
          scale: rng.between(0.97, 1),
          offsetXmm: rng.between(-2.5, 2.5),
          offsetYmm: rng.between(-2.5, 2.5),
        }
      : { rotationDeg: 0, scale: 1, offsetXmm: 0, offsetYmm: 0 });
  const paper = realistic ? Math.round(rng.between(240, 250)) : 255;
  let raw = canvas.data;
  if (
    transform.rotationDeg !== 0 ||
    transform.scale !== 1 ||
    transform.offsetXmm !== 0 ||
    transform.offsetYmm !== 0
  ) {
    const pad = Math.ceil(Math.max(width, height) * 0.06);
    const rad = (transform.rotationDeg * Math.PI) / 180;
    const cos = Math.cos(rad) * transform.scale;
    const sin = Math.sin(rad) * transform.scale;
    const background = { r: 255, g: 255, b: 255 };
    const padded = await sharp(raw, { raw: { width, height, channels: 3 } })
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background })
      .raw()
      .toBuffer();
    const turned = await sharp(padded, {
      raw: { width: width + 2 * pad, height: height + 2 * pad, channels: 3 },
    })
      .affine([cos, -sin, sin, cos], { background, interpolator: 'bilinear' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mm = dpi / 25.4;
    const left = Math.round(turned.info.width / 2 - width / 2 - transform.offsetXmm * mm);
    const top = Math.round(turned.info.height / 2 - height / 2 - transform.offsetYmm * mm);
    raw = await sharp(turned.data, {
      raw: { width: turned.info.width, height: turned.info.height, channels: 3 },
    })
      .extract({ left, top, width, height })
      .raw()
      .toBuffer();
  }
  if (realistic) {
    // Paper tone, a lamp that is a little brighter on one side, and sensor noise.
    const table = noise();
    const sigma = rng.between(2.5, 5);
    const gradient = rng.between(0, 0.04);
    const tone = paper / 255;
    let k = rng.int(0, table.length - 1);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const shade = tone * (1 - (gradient * x) / width);
        const n = table[k++ & 0xffff]! * sigma;
        const i = (y * width + x) * 3;
        for (let c = 0; c < 3; c++) {
          const v = raw[i + c]! * shade + n;
          raw[i + c] = v < 0 ? 0 : v > 255 ? 255 : v;
        }
      }
    }
  }
  let img = sharp(raw, { raw: { width, height, channels: 3 } });
  if (realistic) img = img.blur(rng.between(0.5, 0.85));
  img = img.withDensity(dpi);
  let image: Buffer;
  let format: 'jpeg' | 'png' = 'jpeg';
  if (options.colorMode === 'lineart') {
    image = await img.greyscale().threshold(150).png({ palette: true, colours: 2 }).toBuffer();
    format = 'png';
  } else if (options.colorMode === 'grey') {
    image = await img.greyscale().toColourspace('b-w').jpeg({ quality: 92 }).toBuffer();
  } else {
    image = await img.jpeg({ quality: 92 }).toBuffer();
  }
  return { image, format, width, height, dpi, transform };
}
