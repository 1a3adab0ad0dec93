import type {
  ColorMode,
  ScanEventKind,
  ScannerCapabilities,
  ScannerDriver,
  ScanPaperSource,
  VirtualScan,
} from '@zhzy/contracts';
import { T } from '../i18n/zh-CN.js';

/** A device a driver found. `id` is unique within its driver. */
export interface DeviceInfo {
  id: string;
  name: string;
  vendor?: string;
  model?: string;
}

/** What one batch asks of a device, after the agent resolved the settings against the device's capabilities. */
export interface ScanRequest {
  source: ScanPaperSource;
  colorMode: ColorMode;
  resolution: number;
  /** Scan area in millimetres (null: the device's default / whole page). */
  paper: { widthMm: number; heightMm: number } | null;
  /** Per-batch work folder on the spool's disk: drivers that write files write them here. */
  workDir: string;
  /** Number of the first page of this run within the batch (image names continue across resumes). */
  startNumber?: number;
  /** The virtual scanner's script (ignored by real drivers). */
  virtual?: VirtualScan;
  /**
   * A rescan without a script of its own: the pages of the batch it replaces, in order. The virtual scanner feeds
   * those very sides again (same student, same card page); real drivers ignore it (the teacher puts the sheet in).
   */
  again?: number[];
}

/** One page as the device delivered it: a file in the work folder or bytes in memory. */
export interface RawPage {
  /** The scanner's image name (SPEC §3), e.g. `p-0001.png`. */
  name: string;
  file?: string;
  data?: Buffer;
  side?: 'front' | 'back';
  /** The resolution the page was scanned at, when the device says. */
  dpi?: number;
}

/** The stream of a batch: pages as they finish, and the device's troubles as they happen. */
export type ScanEvent =
  { type: 'page'; page: RawPage } | { type: 'notice'; kind: ScanEventKind; message: string };

/**
 * The one port every scanner sits behind. `scan` yields pages as they finish; a device trouble is a `notice` after
 * which the stream ends (the pages before it are kept). Aborting the signal cancels the device and ends the stream.
 */
export interface Scanner {
  readonly driver: ScannerDriver;
  list(signal?: AbortSignal): Promise<DeviceInfo[]>;
  capabilities(deviceId: string, signal?: AbortSignal): Promise<ScannerCapabilities>;
  scan(deviceId: string, request: ScanRequest, signal: AbortSignal): AsyncIterable<ScanEvent>;
}

/** A driver failure the teacher can read (Chinese `message`); `kind` says what to show. */
export class ScannerError extends Error {
  constructor(
    readonly kind: ScanEventKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ScannerError';
  }
}

/** Paper sizes in millimetres by SPEC §3 code (16k is the Chinese 16开, 185 × 260 mm). */
export const PAPER_MM: Readonly<Record<number, { widthMm: number; heightMm: number }>> = {
  1: { widthMm: 210, heightMm: 297 },
  11: { widthMm: 297, heightMm: 420 },
  2: { widthMm: 176, heightMm: 250 },
  6: { widthMm: 250, heightMm: 353 },
  0: { widthMm: 185, heightMm: 260 },
};

/** Typical steps offered when a device gives a resolution range. */
export function stepsWithin(min: number, max: number): number[] {
  const usual = [75, 100, 150, 200, 240, 300, 400, 600, 1200];
  const inside = usual.filter((r) => r >= min && r <= max);
  return inside.length ? inside : [Math.round(min)];
}

/** The offered resolution closest to the wanted one (ties go to the higher). */
export function nearestResolution(offered: readonly number[], wanted: number): number {
  let best = offered[0] ?? wanted;
  for (const r of offered) {
    if (
      Math.abs(r - wanted) < Math.abs(best - wanted) ||
      (Math.abs(r - wanted) === Math.abs(best - wanted) && r > best)
    )
      best = r;
  }
  return best;
}

/** The side of the `n`-th page (from 1) of a duplex batch: fronts and backs alternate; nothing when simplex. */
export function duplexSide(duplex: boolean, n: number): Pick<RawPage, 'side'> {
  return duplex ? { side: n % 2 === 1 ? 'front' : 'back' } : {};
}

/** The feeder ran out: before any page, or after the batch's last (nothing on the glass, where there is no feeder). */
export function feederEmptyNotice(
  feeder: boolean,
  pages: number,
): { kind: 'feederEmpty'; message: string } | null {
  return feeder ? { kind: 'feederEmpty', message: pages === 0 ? T.feederEmpty : T.feederEmptyDone } : null;
}
