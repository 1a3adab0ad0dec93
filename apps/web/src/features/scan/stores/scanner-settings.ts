import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import {
  ColorModeSchema,
  PAPER_SIZE_CODES,
  SCAN_DEFAULTS,
  type ColorMode,
  type ScannerSource,
} from '@zhzy/contracts';
import { createEmitter } from '../../../lib/events';
import { storage } from '../../../lib/session';

/**
 * The shared scanner state of SPEC §3: the selected scanner index, the paper-size code and the scan-subject flag
 * (plus adaptive, duplex and the demo scanner's sheet count and homework), and the detected sources `{ id, text }`. The setting
 * persists in localStorage; the sources come from the agent each time it connects.
 */
export interface ScannerSetting {
  /** Index of the chosen scanner in the agent's list (SPEC: the selected scanner index). */
  scannerIndex: number | null;
  /** Which device that index meant when it was chosen: a changed list must not scan on another scanner. */
  deviceId: string | null;
  paperSize: number;
  adaptive: boolean;
  duplex: boolean;
  /** 是否分配给学科老师. */
  subjectTeacher: boolean;
  /** 色彩模式: colour (what 先阅后扫 wants: the red pen told from the student's ink), grey or 1-bit. */
  colorMode: ColorMode;
  /** Sheets in the virtual scanner's feeder (demos). */
  virtualSheets: number;
  /** The homework whose personalised cards the virtual scanner fills (its class, its card); the demo card when null. */
  virtualHomeworkId: string | null;
  /** 先阅后扫 (ADR 0065): the virtual scanner's sheets come marked in red on their score boxes. */
  virtualTeacherMarks: boolean;
}

export interface ScannerState {
  setting: ScannerSetting;
  sources: ScannerSource[];
  /** Whether the agent has told us its sources yet. */
  sourcesKnown: boolean;
}

const KEY = 'scannerSetting';

/** SPEC §4: adaptive off, duplex on, scan-subject off; A4. */
export const DEFAULT_SCANNER_SETTING: ScannerSetting = {
  scannerIndex: null,
  deviceId: null,
  paperSize: PAPER_SIZE_CODES.A4,
  adaptive: SCAN_DEFAULTS.adaptive,
  duplex: SCAN_DEFAULTS.duplex,
  subjectTeacher: SCAN_DEFAULTS.subjectTeacher,
  colorMode: 'color',
  virtualSheets: 10,
  virtualHomeworkId: null,
  virtualTeacherMarks: false,
};

const paperCodes: readonly number[] = Object.values(PAPER_SIZE_CODES);

function readSetting(): ScannerSetting {
  const stored = z.record(z.string(), z.unknown()).safeParse(storage.get(KEY));
  const raw: Partial<Record<keyof ScannerSetting, unknown>> = stored.success ? stored.data : {};
  const d = DEFAULT_SCANNER_SETTING;
  const colorMode = ColorModeSchema.safeParse(raw.colorMode);
  const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
  return {
    scannerIndex:
      typeof raw.scannerIndex === 'number' && Number.isInteger(raw.scannerIndex) && raw.scannerIndex >= 0
        ? raw.scannerIndex
        : null,
    deviceId: typeof raw.deviceId === 'string' ? raw.deviceId : null,
    paperSize:
      typeof raw.paperSize === 'number' && paperCodes.includes(raw.paperSize) ? raw.paperSize : d.paperSize,
    adaptive: bool(raw.adaptive, d.adaptive),
    duplex: bool(raw.duplex, d.duplex),
    subjectTeacher: bool(raw.subjectTeacher, d.subjectTeacher),
    colorMode: colorMode.success ? colorMode.data : d.colorMode,
    virtualSheets:
      typeof raw.virtualSheets === 'number' && raw.virtualSheets >= 1 && raw.virtualSheets <= 200
        ? Math.round(raw.virtualSheets)
        : d.virtualSheets,
    virtualHomeworkId:
      typeof raw.virtualHomeworkId === 'string' && raw.virtualHomeworkId ? raw.virtualHomeworkId : null,
    virtualTeacherMarks: bool(raw.virtualTeacherMarks, d.virtualTeacherMarks),
  };
}

const changes = createEmitter<void>();
let state: ScannerState | null = null;

export function readScannerState(): ScannerState {
  state ??= { setting: readSetting(), sources: [], sourcesKnown: false };
  return state;
}

/** Saving the dialog: writes scanner, paper size and scan-subject flag (and the rest) to the shared state. */
export function saveScannerSetting(setting: ScannerSetting): void {
  storage.set(KEY, setting);
  state = { ...readScannerState(), setting: { ...setting } };
  changes.emit();
}

/** The agent's source list (SPEC §4: once ready, it lists the source names and stores them). */
export function setScannerSources(sources: ScannerSource[]): void {
  state = { ...readScannerState(), sources, sourcesKnown: true };
  changes.emit();
}

/** Forgets everything in memory (tests; storage is cleared by the test setup). */
export function resetScannerState(): void {
  state = null;
  changes.emit();
}

export function useScannerState(): ScannerState {
  return useSyncExternalStore((l) => changes.subscribe(l), readScannerState, readScannerState);
}

/**
 * SPEC §5: a scan starts only if at least one source exists and the chosen index can be selected (and still
 * names the device it named when chosen). Returns the source, or null (→ 请重新选择扫描仪).
 */
export function selectableSource(s: ScannerState = readScannerState()): ScannerSource | null {
  const { scannerIndex, deviceId } = s.setting;
  if (s.sources.length === 0 || scannerIndex === null) return null;
  const source = s.sources.find((x) => x.id === scannerIndex);
  if (!source) return null;
  if (deviceId && source.deviceId !== deviceId) return null;
  return source;
}
