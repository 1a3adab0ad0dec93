import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { VirtualScanSchema, type ScannerCapabilities, type VirtualScan } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import type { DeviceInfo, RawPage, ScanEvent, Scanner, ScanRequest } from '../port.js';
import { demoLayout } from './demo-card.js';
import { Random } from './random.js';
import { decideSheet, demoStudents, renderSheetPage, type SheetTruth } from './sheet.js';

export const VIRTUAL_DEVICE_ID = 'virtual';

/** A blank back side: paper tone and noise only. */
async function blankSide(width: number, height: number, dpi: number, rng: Random): Promise<Buffer> {
  const tone = Math.round(rng.between(238, 248));
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
    const options: VirtualScan = request.virtual ?? VirtualScanSchema.parse({});
    const layout = options.layout ?? demoLayout();
    // The students of a homework's class when the page named them (their cards are that homework's), else demo ones.
    const students = options.students
      ? options.students.slice(0, options.sheets)
      : demoStudents(options.sheets);
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
      const rng = new Random(options.seed * 100_003 + sheet);
      const truth = decideSheet(layout, student, rng.fork(1), options.answers?.[sheet] ?? {});
      truths.push(truth);
      const sides = duplex
        ? layout.pages.length + (layout.pages.length % 2)
        : Math.ceil(layout.pages.length / 2);
      const partial = this.fedSides.get(request.workDir);
      const firstSide = partial?.sheet === sheet ? partial.sides : 0;
      if (firstSide > 0) truths.pop();
      this.fedSides.delete(request.workDir);
      for (let s = firstSide; s < sides; s++) {
        const pageIndex = duplex ? s : s * 2;
        let page: RawPage;
        if (pageIndex < layout.pages.length) {
          const rendered = await renderSheetPage(layout, pageIndex, truth, {
            dpi: request.resolution,
            colorMode: request.colorMode,
            rng: rng.fork(10 + s),
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
            data: await blankSide(w, h, request.resolution, rng.fork(99)),
            dpi: request.resolution,
          };
        }
        if (duplex) page.side = s % 2 === 0 ? 'front' : 'back';
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
