import { setTimeout as sleep } from 'node:timers/promises';
import { loadSharp } from '../../pages/sharp-lazy.js';
import {
  VirtualScanSchema,
  type CardLayout,
  type ScannerCapabilities,
  type VirtualScan,
} from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import type { DeviceInfo, RawPage, ScanEvent, Scanner, ScanRequest } from '../port.js';
import { ClassModel } from './class-model.js';
import { demoLayout } from './demo-card.js';
import { Random } from './random.js';
import { decideSheet, demoStudents, renderSheetPage, type SheetTruth } from './sheet.js';

export const VIRTUAL_DEVICE_ID = 'virtual';

/** A blank back side: paper tone and noise only. */
async function blankSide(width: number, height: number, dpi: number, rng: Random): Promise<Buffer> {
  const tone = Math.round(rng.between(238, 248));
  const sharp = await loadSharp();
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#ffffff',
      noise: { type: 'gaussian', mean: tone, sigma: 3 },
    },
  })
    .withDensity(dpi)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** One side the feeder gave: enough to feed it again. */
interface FedSide {
  layout: CardLayout;
  truth: SheetTruth;
  /** The card page printed on it (past the last page: a blank back). */
  pageIndex: number;
  duplex: boolean;
  /** Its place among the sheet's sides. */
  s: number;
  seed: number;
}

async function renderSide(
  side: FedSide,
  number: number,
  request: ScanRequest,
  rng: Random,
  blankRng: Random,
): Promise<RawPage> {
  const { layout, pageIndex } = side;
  let page: RawPage;
  if (pageIndex < layout.pages.length) {
    const rendered = await renderSheetPage(layout, pageIndex, side.truth, {
      dpi: request.resolution,
      colorMode: request.colorMode,
      rng,
    });
    page = {
      name: `virtual-${String(number).padStart(4, '0')}.${rendered.format === 'png' ? 'png' : 'jpg'}`,
      data: rendered.image,
      dpi: rendered.dpi,
    };
  } else {
    const first = layout.pages[0]!;
    const w = Math.round((first.widthMm / 25.4) * request.resolution);
    const h = Math.round((first.heightMm / 25.4) * request.resolution);
    page = {
      name: `virtual-${String(number).padStart(4, '0')}.jpg`,
      data: await blankSide(w, h, request.resolution, blankRng),
      dpi: request.resolution,
    };
  }
  if (side.duplex) page.side = side.s % 2 === 0 ? 'front' : 'back';
  return page;
}

/**
 * The virtual scanner: a feeder holding a class set of filled answer cards for a layout (random or scripted
 * answers, pencil marks, slight rotation, offset and noise). It behaves like a feeder: duplex gives every side
 * (a blank back when the card has one page), simplex only fronts; it can jam or double-feed on request, and a
 * resumed batch continues with the next sheet.
 */
export class VirtualScanner implements Scanner {
  readonly driver = 'virtual' as const;
  /** Sheets already fed, per batch work folder. */
  private readonly fed = new Map<string, number>();
  /**
   * Sides of a sheet already delivered when a run stopped part-way through it (the agent stopped taking pages),
   * per batch work folder: the next run delivers the rest of that sheet first, as a feeder that ejected them would.
   */
  private readonly fedSides = new Map<string, { sheet: number; sides: number }>();
  /** Ground truth of the sheets fed, per batch work folder (demos and tests). */
  readonly truths = new Map<string, SheetTruth[]>();
  /** What each page number of a batch was (its sheet, side and card), per work folder: a rescan feeds it again. */
  private readonly sides = new Map<string, Map<number, FedSide>>();
  /** Rescans so far, per work folder (each pass through the feeder looks a little different). */
  private readonly passes = new Map<string, number>();
  /** Sides fed again by rescans, per work folder: whose sheet and which card page (demos and tests). */
  readonly refed = new Map<string, { student: SheetTruth['student']; pageIndex: number }[]>();

  /** A rescan: the same sides again (same student and answers; a new pass through the feeder, so new noise). */
  private async *feedAgain(
    sides: FedSide[],
    request: ScanRequest,
    signal: AbortSignal,
  ): AsyncIterable<ScanEvent> {
    let number = request.startNumber ?? 1;
    const passes = (this.passes.get(request.workDir) ?? 0) + 1;
    this.passes.set(request.workDir, passes);
    const refed = this.refed.get(request.workDir) ?? [];
    this.refed.set(request.workDir, refed);
    for (const side of sides) {
      if (signal.aborted) return;
      refed.push({ student: side.truth.student, pageIndex: side.pageIndex });
      const rng = new Random(side.seed * 7 + passes * 1_000_003);
      yield {
        type: 'page',
        page: await renderSide(side, number++, request, rng.fork(10 + side.s), rng.fork(99)),
      };
    }
  }

  list(): Promise<DeviceInfo[]> {
    return Promise.resolve([{ id: VIRTUAL_DEVICE_ID, name: '虚拟扫描仪（演示答题卡）' }]);
  }

  capabilities(): Promise<ScannerCapabilities> {
    return Promise.resolve({
      sources: ['feeder', 'feederDuplex'],
      colorModes: ['color', 'grey', 'lineart'],
      resolutions: [150, 200, 300, 600],
      maxWidthMm: 297,
      maxHeightMm: 420,
    });
  }

  async *scan(_deviceId: string, request: ScanRequest, signal: AbortSignal): AsyncIterable<ScanEvent> {
    const pagesFed = this.sides.get(request.workDir) ?? new Map<number, FedSide>();
    this.sides.set(request.workDir, pagesFed);
    const again = request.again?.map((n) => pagesFed.get(n));
    if (again?.length && again.every((x) => x !== undefined)) {
      yield* this.feedAgain(again, request, signal);
      return;
    }
    const options: VirtualScan = request.virtual ?? VirtualScanSchema.parse({});
    const layout = options.layout ?? demoLayout();
    // The students of a homework's class when the page named them (their cards are that homework's), else demo ones.
    const students = options.students
      ? options.students.slice(0, options.sheets)
      : demoStudents(options.sheets);
    // With the card's key the class answers like a real one (ADR 0038); without it, at random.
    const model = ClassModel.of(options);
    const duplex = request.source === 'feederDuplex';
    let sheet = this.fed.get(request.workDir) ?? 0;
    let number = request.startNumber ?? 1;
    let fedThisRun = 0;
    const truths = this.truths.get(request.workDir) ?? [];
    this.truths.set(request.workDir, truths);
    while (sheet < students.length) {
      if (signal.aborted) return;
      if (options.jamAfter !== undefined && fedThisRun === options.jamAfter && fedThisRun > 0) {
        yield { type: 'notice', kind: 'jam', message: T.jam };
        return;
      }
      const student = students[sheet]!;
      const sheetSeed = options.seed * 100_003 + sheet;
      const rng = new Random(sheetSeed);
      const truth = decideSheet(
        layout,
        student,
        rng.fork(1),
        options.answers?.[sheet] ?? {},
        model,
        options.teacherMarks ? (options.scores?.[sheet] ?? {}) : null,
      );
      truths.push(truth);
      const sides = duplex
        ? layout.pages.length + (layout.pages.length % 2)
        : Math.ceil(layout.pages.length / 2);
      const partial = this.fedSides.get(request.workDir);
      const firstSide = partial?.sheet === sheet ? partial.sides : 0;
      if (firstSide > 0) truths.pop();
      this.fedSides.delete(request.workDir);
      for (let s = firstSide; s < sides; s++) {
        const side: FedSide = { layout, truth, pageIndex: duplex ? s : s * 2, duplex, s, seed: sheetSeed };
        const page = await renderSide(side, number, request, rng.fork(10 + s), rng.fork(99));
        pagesFed.set(number, side);
        number++;
        // Delivered once yielded: a run stopped here leaves only the sheet's remaining sides for the next one.
        if (s + 1 < sides) this.fedSides.set(request.workDir, { sheet, sides: s + 1 });
        else {
          this.fedSides.delete(request.workDir);
          this.fed.set(request.workDir, sheet + 1);
        }
        yield { type: 'page', page };
        if (options.pageIntervalMs > 0)
          await sleep(options.pageIntervalMs, undefined, { signal }).catch(() => undefined);
      }
      sheet++;
      fedThisRun++;
      this.fed.set(request.workDir, sheet);
      if (options.doubleFeedAfter !== undefined && fedThisRun === options.doubleFeedAfter) {
        yield { type: 'notice', kind: 'doubleFeed', message: T.doubleFeed };
        return;
      }
    }
    yield {
      type: 'notice',
      kind: 'feederEmpty',
      message: fedThisRun === 0 ? T.feederEmpty : T.feederEmptyDone,
    };
  }
}
