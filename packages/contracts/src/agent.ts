import { z } from 'zod';
import { IdSchema, TimestampSchema } from './common.js';
import { PAPER_SIZE_CODES, SCAN_DEFAULTS } from './constants.js';
import { CardLayoutSchema } from './answer-card.js';

/*
 * The web ↔ agent protocol: every REST body and every websocket message of the scan agent on 127.0.0.1.
 * Success bodies are the schemas below (HTTP 200 only); errors are `{ code, message, data }` with a Chinese message.
 * Every websocket message carries `v`, the protocol version, so the web app can tell an outdated agent.
 */

/** Version of the web ↔ agent protocol; the web app tells an outdated agent by it (2: printing, page rescans). */
export const AGENT_PROTOCOL_VERSION = 2;
/** The agent's default port on 127.0.0.1. */
export const AGENT_DEFAULT_PORT = 17_310;
/** Where the web app reaches the agent by default (SPEC §7's websocket URL and its REST base). */
export const AGENT_DEFAULT_BASE_URL = `http://127.0.0.1:${AGENT_DEFAULT_PORT}`;
export const AGENT_DEFAULT_WS_URL = `ws://127.0.0.1:${AGENT_DEFAULT_PORT}/ws`;
/** Largest JSON body the agent accepts (a card layout for the virtual scanner fits well inside). */
export const AGENT_BODY_LIMIT_BYTES = 512 * 1024;
/** A pairing code: six digits shown by the agent, valid for this long, with this many tries. */
export const AGENT_PAIRING = { codeDigits: 6, ttlMs: 5 * 60_000, maxAttempts: 5 } as const;
/** The first websocket message must authenticate within this time or the socket is closed. */
export const AGENT_WS_AUTH_TIMEOUT_MS = 5_000;
/** Websocket close codes of the agent. */
export const AGENT_WS_CLOSE = { unauthorized: 4401, protocol: 4400, shuttingDown: 1001 } as const;

export const AgentHealthSchema = z.object({
  name: z.literal('zhzy-scan-agent'),
  version: z.string(),
  protocolVersion: z.number().int().positive(),
  /** Whether the request carried a valid token (a paired page or the local script token). */
  authenticated: z.boolean().optional(),
  /** The agent's operating system, for help texts ('win32', 'linux', 'darwin'). */
  platform: z.string().optional(),
  /** The package it was installed from (`linux-x64`, `darwin-x64` …); absent when run from a checkout (ADR 0055). */
  packagePlatform: z.string().optional(),
  /** Whether `POST /update` can replace this installation (an installed package, not a checkout). */
  canUpdate: z.boolean().optional(),
});
export type AgentHealth = z.infer<typeof AgentHealthSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Pairing

/** `POST /pairing/request`: the agent shows a fresh code in its window / log; the page asks the teacher for it. */
export const PairingRequestAnswerSchema = z.object({ expiresAt: TimestampSchema });
export type PairingRequestAnswer = z.infer<typeof PairingRequestAnswerSchema>;

export const PairingConfirmSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(
      new RegExp(`^\\d{${AGENT_PAIRING.codeDigits}}$`),
      `请输入扫描助手显示的${AGENT_PAIRING.codeDigits}位配对码`,
    ),
});
export type PairingConfirm = z.infer<typeof PairingConfirmSchema>;

/** The origin-bound token: the page keeps it (localStorage) and sends it as `Authorization: Bearer …`. */
export const PairingTokenSchema = z.object({ token: z.string().min(20), origin: z.string() });
export type PairingToken = z.infer<typeof PairingTokenSchema>;

/** `POST /pairing/code` (local script token only): the active code, for `scan-agent pair`. */
export const PairingCodeSchema = z.object({ code: z.string(), expiresAt: TimestampSchema });
export type PairingCode = z.infer<typeof PairingCodeSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Scanners

export const SCANNER_DRIVERS = ['sane', 'escl', 'wia', 'twain', 'hotfolder', 'virtual'] as const;
export const ScannerDriverSchema = z.enum(SCANNER_DRIVERS);
export type ScannerDriver = z.infer<typeof ScannerDriverSchema>;

export const ScanPaperSourceSchema = z.enum(['flatbed', 'feeder', 'feederDuplex']);
export type ScanPaperSource = z.infer<typeof ScanPaperSourceSchema>;
export const ColorModeSchema = z.enum(['color', 'grey', 'lineart']);
export type ColorMode = z.infer<typeof ColorModeSchema>;

export const ScannerCapabilitiesSchema = z.object({
  sources: z.array(ScanPaperSourceSchema),
  colorModes: z.array(ColorModeSchema),
  /** Resolutions the device offers (a range is listed by its usual steps). */
  resolutions: z.array(z.number().int().positive()),
  /** Largest scan area in millimetres, null when the device does not say. */
  maxWidthMm: z.number().positive().nullable(),
  maxHeightMm: z.number().positive().nullable(),
});
export type ScannerCapabilities = z.infer<typeof ScannerCapabilitiesSchema>;

/**
 * One detected scanner. SPEC §3: each has `id` (its index in the list) and `text` (its name); the rest is ours.
 * The index is stable for as long as the agent's device list does not change; `deviceId` is stable for good.
 */
export const ScannerSourceSchema = z.object({
  id: z.number().int().nonnegative(),
  text: z.string(),
  deviceId: z.string(),
  driver: ScannerDriverSchema,
  feeder: z.boolean(),
  duplex: z.boolean(),
});
export type ScannerSource = z.infer<typeof ScannerSourceSchema>;

/** `GET /scanners` (`?refresh=1` looks for devices again). */
export const ScannerListSchema = z.object({
  sources: z.array(ScannerSourceSchema),
  refreshedAt: TimestampSchema,
});
export type ScannerList = z.infer<typeof ScannerListSchema>;

/** `GET /scanners/:index/capabilities`. */
export const ScannerDetailSchema = z.object({
  source: ScannerSourceSchema,
  capabilities: ScannerCapabilitiesSchema,
});
export type ScannerDetail = z.infer<typeof ScannerDetailSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Scan settings and requests

const paperCodes = Object.values(PAPER_SIZE_CODES) as [number, ...number[]];
/** A paper-size code of SPEC §3: A4=1, A3=11, B5=2, B4=6, 16k=0. */
export const PaperSizeCodeSchema = z
  .number()
  .int()
  .refine((v) => paperCodes.includes(v), { message: '纸张大小只能是 A4、A3、B5、B4 或 16开' });

/** The scan settings of SPEC §3, §5, §9 (defaults of SPEC §4 and §9). */
export const ScanSettingsSchema = z.object({
  /** Index of the chosen scanner in `GET /scanners` (SPEC: the selected scanner index). */
  scannerIndex: z.number().int().nonnegative({ error: '请选择扫描仪' }),
  paperSize: PaperSizeCodeSchema.default(PAPER_SIZE_CODES.A4),
  /** Adaptive: pages keep their scanned size; otherwise A4/16k/B5 are resized to SPEC §5's pixel sizes. */
  adaptive: z.boolean().default(SCAN_DEFAULTS.adaptive),
  duplex: z.boolean().default(SCAN_DEFAULTS.duplex),
  /** 是否分配给学科老师. */
  subjectTeacher: z.boolean().default(SCAN_DEFAULTS.subjectTeacher),
  resolution: z.number().int().min(100).max(600).default(SCAN_DEFAULTS.resolution),
  colorMode: ColorModeSchema.default('color'),
  feeder: z.boolean().default(SCAN_DEFAULTS.feeder),
  /** Keep scanning as sheets are fed: the batch waits (paused) when the feeder runs empty. */
  autoScan: z.boolean().default(SCAN_DEFAULTS.autoScan),
  autoDeskew: z.boolean().default(SCAN_DEFAULTS.autoDeskew),
});
export type ScanSettings = z.infer<typeof ScanSettingsSchema>;
export type ScanSettingsInput = z.input<typeof ScanSettingsSchema>;

/**
 * Where the agent uploads the batch's pages: the host batch the page created with `createScanBatch`, and the upload
 * token that call answered. The base URL must be one the agent allows (the page's own origin by default).
 */
export const HostTargetSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: '主机地址不正确' }).max(300),
  batchId: IdSchema,
  uploadToken: z.string().min(20).max(200),
});
export type HostTarget = z.infer<typeof HostTargetSchema>;

/** A student printed on a virtual personalised card: the QR carries the id, the header the rest. */
export const VirtualStudentSchema = z.object({
  id: IdSchema,
  name: z.string().max(40),
  number: z.string().max(40),
  className: z.string().max(60).default(''),
});
export type VirtualStudent = z.infer<typeof VirtualStudentSchema>;

/** The correct options of one objective question in a virtual scan's key: 'B', 'ACD', 'T' or 'F'. */
export const VirtualKeyAnswerSchema = z
  .string()
  .regex(/^(?:[A-G]{1,7}|[TF])$/, '答案只能是选项字母')
  .refine((k) => new Set(k).size === k.length, '答案中的选项重复');

/** Most questions a virtual key or difficulty table names (a card holds far fewer). */
const VIRTUAL_QUESTIONS_MAX = 400;
const tableOf = <T extends z.ZodType>(value: T) =>
  z.record(IdSchema, value).refine((table) => Object.keys(table).length <= VIRTUAL_QUESTIONS_MAX, {
    message: `最多${VIRTUAL_QUESTIONS_MAX}道题`,
  });

/**
 * What the virtual scanner fills in, for demos and tests: with the card's answer key a class answering like a real
 * one (each student an ability, right more often on easy questions, plausible wrong options, 少选 on multiple
 * choice; ADR 0038), without it random answers; scripted answers win over both.
 */
export const VirtualScanSchema = z.object({
  /** The card to fill; a built-in demo card when absent. */
  layout: CardLayoutSchema.optional(),
  /** Sheets in the feeder (one student each). */
  sheets: z.number().int().min(1).max(200).default(10),
  /**
   * The students whose personalised cards are in the feeder, in feeder order (the class of a homework, so its cards
   * are recognised as that homework's); demo students when absent. The feeder holds the first `sheets` of them.
   */
  students: z.array(VirtualStudentSchema).min(1).max(200).optional(),
  seed: z.number().int().default(1),
  /**
   * The card's answer key: question id → the correct options ('B', 'ACD', 'T' or 'F'), objective questions only. The
   * class answers from it with per-student abilities; questions it does not name are answered at random.
   */
  key: tableOf(VirtualKeyAnswerSchema).optional(),
  /** How hard each question is, on the product's 0 (容易) … 1 (困难) scale (ADR 0007), where known. */
  difficulty: tableOf(z.number().min(0).max(1)).optional(),
  /** Scripted answers per sheet: question id → options ('A', 'BD', 'T'); unlisted questions are random. */
  answers: z
    .array(z.record(z.string(), z.string().max(8)))
    .max(200)
    .optional(),
  /**
   * 先阅后扫 (ADR 0065): the sheets come marked by a teacher in red pen on the card's score boxes (打分框) — a seeded
   * score per box, or the one `scores` scripts.
   */
  teacherMarks: z.boolean().optional(),
  /** Scripted teacher's scores per sheet: question id → score (whole or .5); unlisted boxes are seeded. */
  scores: z
    .array(z.record(z.string(), z.number().min(0).max(100)))
    .max(200)
    .optional(),
  /** Simulated feeder trouble after this many sheets. */
  jamAfter: z.number().int().nonnegative().optional(),
  doubleFeedAfter: z.number().int().nonnegative().optional(),
  /** Pause between pages, like a real feeder (ms). */
  pageIntervalMs: z.number().int().min(0).max(10_000).default(0),
});
export type VirtualScan = z.infer<typeof VirtualScanSchema>;
export type VirtualScanInput = z.input<typeof VirtualScanSchema>;

/** `POST /scans`: start a batch. */
export const StartScanSchema = z.object({
  settings: ScanSettingsSchema,
  /** Without a host target the pages stay in the agent (scan to folder, `scan-agent scan`). */
  host: HostTargetSchema.optional(),
  /** Only for the virtual scanner. */
  virtual: VirtualScanSchema.optional(),
});
export type StartScan = z.infer<typeof StartScanSchema>;
export type StartScanInput = z.input<typeof StartScanSchema>;

/** `POST /scans/:id/host`: a fresh upload token (the old one expired) or the host target of a batch without one. */
export const UpdateHostTargetSchema = z.object({ host: HostTargetSchema });

// ---------------------------------------------------------------------------------------------------------------
// Batches and pages

/**
 * scanning: pages are being acquired · paused: acquisition stopped (feeder empty, jam, pause, agent restart) and can
 * resume into the same batch · done: closed by the teacher (its pages still upload).
 */
export const BatchStateSchema = z.enum(['scanning', 'paused', 'done']);
export type BatchState = z.infer<typeof BatchStateSchema>;

export const UploadStateSchema = z.enum(['local', 'pending', 'uploaded', 'failed']);
export type UploadState = z.infer<typeof UploadStateSchema>;

/** What a device reported; `message` is for the teacher, in Chinese. */
export const ScanEventKindSchema = z.enum([
  'feederEmpty',
  'jam',
  'doubleFeed',
  'coverOpen',
  'busy',
  'interrupted',
  'error',
]);
export type ScanEventKind = z.infer<typeof ScanEventKindSchema>;

export const ScanNoticeSchema = z.object({
  kind: ScanEventKindSchema,
  message: z.string(),
  at: TimestampSchema,
});
export type ScanNotice = z.infer<typeof ScanNoticeSchema>;

export const AgentPageSchema = z.object({
  batchId: IdSchema,
  /** 1-based, in the order pages came out of the scanner. */
  seq: z.number().int().positive(),
  /** SPEC §3: a JPG named after the scanner's image name. */
  name: z.string(),
  side: z.enum(['front', 'back']).nullable(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  dpi: z.number().int().positive(),
  bytes: z.number().int().positive(),
  /** SHA-256 of the JPEG, hex; the upload's idempotency key. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Flagged, never dropped. */
  blank: z.boolean(),
  /** Rotation that was corrected, degrees (0 when none). */
  skewDeg: z.number(),
  /** The page is a rescan that replaced the first scan of this place. */
  rescanned: z.boolean().default(false),
  upload: UploadStateSchema,
  hostPageId: IdSchema.nullable(),
  uploadError: z.string().nullable(),
  createdAt: TimestampSchema,
});
export type AgentPage = z.infer<typeof AgentPageSchema>;

/**
 * The pages a rescan of page `seq` replaces — the whole sheet: both sides of a duplex sheet (a front and the back
 * right after it), otherwise the page alone. `sideOf` looks a page's side up by its number (undefined: no such page).
 */
export function sheetOfPage(
  sideOf: (seq: number) => 'front' | 'back' | null | undefined,
  seq: number,
): number[] {
  const side = sideOf(seq);
  if (side === undefined) return [];
  if (side === 'front' && sideOf(seq + 1) === 'back') return [seq, seq + 1];
  if (side === 'back' && sideOf(seq - 1) === 'front') return [seq - 1, seq];
  return [seq];
}

export const AgentBatchSchema = z.object({
  id: IdSchema,
  state: BatchStateSchema,
  settings: ScanSettingsSchema,
  source: ScannerSourceSchema,
  /** The host batch the pages go to, without its token; null when pages stay local. */
  hostBatchId: IdSchema.nullable(),
  hostBaseUrl: z.string().nullable(),
  pageCount: z.number().int().nonnegative(),
  uploadedCount: z.number().int().nonnegative(),
  failedCount: z.number().int().nonnegative(),
  blankCount: z.number().int().nonnegative(),
  /** The page waiting for its rescan (the next sheet scanned replaces it), or null. */
  rescanSeq: z.number().int().positive().nullable().default(null),
  /** Every page of the sheet waiting for its rescan, in the order they are replaced (a duplex sheet: front, back). */
  rescanSeqs: z.array(z.number().int().positive()).default([]),
  lastNotice: ScanNoticeSchema.nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type AgentBatch = z.infer<typeof AgentBatchSchema>;

export const AgentBatchListSchema = z.object({ batches: z.array(AgentBatchSchema) });
export const AgentBatchDetailSchema = z.object({ batch: AgentBatchSchema, pages: z.array(AgentPageSchema) });
export type AgentBatchDetail = z.infer<typeof AgentBatchDetailSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Printing (answer cards and other PDFs, always at 100 %: the recogniser reads the printed geometry back)

/** Largest PDF the page may upload to print (a class set of personalised A3 cards fits easily). */
export const AGENT_PRINT_MAX_BYTES = 200 * 1024 * 1024;
/** Copies of one print job. */
export const AGENT_PRINT_MAX_COPIES = 99;

export const PRINTER_DRIVERS = ['cups', 'ipp', 'windows'] as const;
export const PrinterDriverSchema = z.enum(PRINTER_DRIVERS);
export type PrinterDriver = z.infer<typeof PrinterDriverSchema>;

/** Paper sizes a card is printed on (`auto`: the PDF's own page size). */
export const PRINT_PAPERS = ['auto', 'A4', 'A3', 'B5', 'B4', '16k'] as const;
export const PrintPaperSchema = z.enum(PRINT_PAPERS);
export type PrintPaper = z.infer<typeof PrintPaperSchema>;

export const PrinterStateSchema = z.enum(['idle', 'printing', 'stopped', 'unknown']);
export type PrinterState = z.infer<typeof PrinterStateSchema>;

export const PrinterSchema = z.object({
  /** Stable id: `cups:<queue>`, `ipp:<url>` or `windows:<name>`. */
  id: z.string().min(1).max(400),
  /** The name the teacher knows the printer by. */
  name: z.string(),
  driver: PrinterDriverSchema,
  isDefault: z.boolean(),
  state: PrinterStateSchema,
  /** The printer's own words about its state (toner low, paper jam …), when it says anything. */
  stateMessage: z.string().nullable(),
  /** Whether it can print on both sides; null when it does not say. */
  duplex: z.boolean().nullable(),
  /** Paper sizes of PRINT_PAPERS it offers besides `auto`; empty when it does not say. */
  papers: z.array(PrintPaperSchema),
});
export type Printer = z.infer<typeof PrinterSchema>;

/** `GET /printers` (`?refresh=1` asks the print systems again). */
export const PrinterListSchema = z.object({ printers: z.array(PrinterSchema), refreshedAt: TimestampSchema });
export type PrinterList = z.infer<typeof PrinterListSchema>;

/** How to print; scaling is never an option: cards always print at 100 %. */
export const PrintOptionsSchema = z.object({
  printerId: z.string({ error: '请选择打印机' }).min(1, '请选择打印机').max(400),
  copies: z.coerce
    .number({ error: '打印份数必须是数字' })
    .int('打印份数必须是整数')
    .min(1, '打印份数至少为1份')
    .max(AGENT_PRINT_MAX_COPIES, `打印份数不能超过${AGENT_PRINT_MAX_COPIES}份`)
    .default(1),
  /** Both sides, turned on the long edge (the cards' page 2 is on the back of page 1). */
  duplex: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
  paper: PrintPaperSchema.default('auto'),
  /** Shown in the printer's queue. */
  title: z.string().trim().max(120).optional(),
});
export type PrintOptions = z.infer<typeof PrintOptionsSchema>;
export type PrintOptionsInput = z.input<typeof PrintOptionsSchema>;

/**
 * `POST /print`: the agent downloads the PDF from the host itself (the page does not hold a class set of cards in
 * memory) with the teacher's access token, then prints it. Only allowed host URLs; the path must be one of the host's
 * PDF calls (see `AGENT_PRINT_HOST_PATHS`).
 */
export const PrintFromHostSchema = PrintOptionsSchema.extend({
  source: z.object({
    baseUrl: z.url({ protocol: /^https?$/, error: '主机地址不正确' }).max(300),
    /** Path of the host call that answers the PDF, e.g. `/teacher/homework/card/<id>/pdf`. */
    path: z.string().max(300),
    /** The JSON body of that call (e.g. `{ kind: 'students', classIds }`). */
    body: z.record(z.string(), z.unknown()).optional(),
    /** The teacher's access token, used for this one download and never stored. */
    accessToken: z.string().min(10).max(4000),
  }),
});
export type PrintFromHost = z.infer<typeof PrintFromHostSchema>;
export type PrintFromHostInput = z.input<typeof PrintFromHostSchema>;

/** Host paths the agent may download a PDF from (anything else is refused). */
export const AGENT_PRINT_HOST_PATHS = [/^\/teacher\/homework\/card\/[0-9A-Za-z-]{1,64}\/pdf$/] as const;

/** `POST /print/upload?printerId=…&copies=…&duplex=…&paper=…` with the PDF as the body (`application/pdf`). */
export const PrintUploadQuerySchema = PrintOptionsSchema;

/**
 * queued → downloading (from the host) → sending (to the print system) → printing (in the printer's queue) → done;
 * or failed with a Chinese message; cancelled by the teacher.
 */
export const PrintJobStateSchema = z.enum([
  'queued',
  'downloading',
  'sending',
  'printing',
  'done',
  'failed',
  'cancelled',
]);
export type PrintJobState = z.infer<typeof PrintJobStateSchema>;

export const PrintJobSchema = z.object({
  id: IdSchema,
  printerId: z.string(),
  printerName: z.string(),
  title: z.string(),
  state: PrintJobStateSchema,
  copies: z.number().int().positive(),
  duplex: z.boolean(),
  /** The paper printed on (the PDF's own size under `auto`). */
  paper: PrintPaperSchema,
  /** Pages of the PDF (one copy); null until it is known. */
  pages: z.number().int().nonnegative().nullable(),
  /** Bytes downloaded or received so far, and the total when known. */
  bytes: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative().nullable(),
  /** The print system's job id (`PDF-12`, an IPP job id, a Windows job). */
  systemJobId: z.string().nullable(),
  /** What went wrong, or what the printer says, in Chinese. */
  message: z.string().nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type PrintJob = z.infer<typeof PrintJobSchema>;

export const PrintJobListSchema = z.object({ jobs: z.array(PrintJobSchema) });

// ---------------------------------------------------------------------------------------------------------------
// Rescanning one page of a batch

/**
 * `POST /scans/:id/pages/:seq/rescan`: the next sheet the scanner delivers replaces page `seq` of the batch (same
 * place, same order); on the host the page is replaced too. Only one page of a batch can wait for a rescan at a time.
 */
export const RescanPageSchema = z.object({
  /** Only for the virtual scanner: what the replacement sheet holds. */
  virtual: VirtualScanSchema.optional(),
});
export type RescanPage = z.infer<typeof RescanPageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The REST calls of the agent, by name (success bodies; errors are `{ code, message, data }`)

export interface AgentCallDef {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  /** none: anyone on an allowed origin · token: a paired page's token or the local script token · script: only the local script token. */
  readonly auth: 'none' | 'token' | 'script';
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
}
const agentCall = <const T extends AgentCallDef>(def: T): T => def;

const Ok = z.object({ ok: z.literal(true) });

/**
 * Platforms the 扫描助手 is packaged for (ADR 0043, 0055): `<os>-<cpu>` of the runtime inside the package. The macOS
 * tarball built here carries the x64 runtime (`darwin-x64`; Apple silicon runs it through Rosetta 2).
 */
export const AGENT_PLATFORMS = ['win32-x64', 'linux-x64', 'darwin-x64'] as const;
export type AgentPlatform = (typeof AGENT_PLATFORMS)[number];

/**
 * `POST /update` (a paired page or the script token): the agent reads `<host>/agent/download/manifest`, downloads
 * its own platform's package from that host only (one of its allowed hosts), checks size and SHA-256, swaps it in
 * and restarts; a new build that does not answer /health within the deadline is rolled back (ADR 0055).
 */
export const AgentUpdateRequestSchema = z.object({
  host: z
    .string()
    .max(2048)
    .url('主机地址不正确')
    .refine((u) => /^https?:\/\//.test(u), '主机地址必须以 http:// 或 https:// 开头'),
  /** The version the page offered; the agent refuses when the host's manifest says otherwise. */
  version: z.string().min(1).max(64).optional(),
});
export type AgentUpdateRequest = z.infer<typeof AgentUpdateRequestSchema>;

/** The answer: the new build is verified and staged; the agent restarts into it right after answering. */
export const AgentUpdateAnswerSchema = z.object({
  from: z.string(),
  to: z.string(),
  restarting: z.literal(true),
});
export type AgentUpdateAnswer = z.infer<typeof AgentUpdateAnswerSchema>;

export const agentCalls = {
  health: agentCall({ method: 'GET', path: '/health', auth: 'none', response: AgentHealthSchema }),
  pairingRequest: agentCall({
    method: 'POST',
    path: '/pairing/request',
    auth: 'none',
    response: PairingRequestAnswerSchema,
  }),
  pairingConfirm: agentCall({
    method: 'POST',
    path: '/pairing/confirm',
    auth: 'none',
    body: PairingConfirmSchema,
    response: PairingTokenSchema,
  }),
  pairingCode: agentCall({
    method: 'POST',
    path: '/pairing/code',
    auth: 'script',
    response: PairingCodeSchema,
  }),
  unpair: agentCall({ method: 'DELETE', path: '/pairing', auth: 'token', response: Ok }),
  scanners: agentCall({ method: 'GET', path: '/scanners', auth: 'token', response: ScannerListSchema }),
  scanner: agentCall({
    method: 'GET',
    path: '/scanners/:index',
    auth: 'token',
    response: ScannerDetailSchema,
  }),
  startScan: agentCall({
    method: 'POST',
    path: '/scans',
    auth: 'token',
    body: StartScanSchema,
    response: AgentBatchSchema,
  }),
  batches: agentCall({ method: 'GET', path: '/scans', auth: 'token', response: AgentBatchListSchema }),
  batch: agentCall({ method: 'GET', path: '/scans/:id', auth: 'token', response: AgentBatchDetailSchema }),
  pause: agentCall({ method: 'POST', path: '/scans/:id/pause', auth: 'token', response: AgentBatchSchema }),
  /** Scan more sheets into the same batch (after a feeder-empty, a jam or a pause). */
  resume: agentCall({ method: 'POST', path: '/scans/:id/resume', auth: 'token', response: AgentBatchSchema }),
  /** Close the batch: acquisition stops; pages already scanned are kept and still upload. */
  finish: agentCall({ method: 'POST', path: '/scans/:id/finish', auth: 'token', response: AgentBatchSchema }),
  updateHost: agentCall({
    method: 'POST',
    path: '/scans/:id/host',
    auth: 'token',
    body: UpdateHostTargetSchema,
    response: AgentBatchSchema,
  }),
  /** Retry the failed uploads of a batch now. */
  retryUploads: agentCall({
    method: 'POST',
    path: '/scans/:id/retry',
    auth: 'token',
    response: AgentBatchSchema,
  }),
  /** The page's JPEG (`?size=thumb` for a 400-px-high preview). */
  pageImage: agentCall({
    method: 'GET',
    path: '/scans/:id/pages/:seq/image',
    auth: 'token',
    response: z.custom<Uint8Array>(),
  }),
  /** Scan one sheet again: it replaces page `seq` of the batch, keeping its place (answers the batch). */
  rescanPage: agentCall({
    method: 'POST',
    path: '/scans/:id/pages/:seq/rescan',
    auth: 'token',
    body: RescanPageSchema,
    response: AgentBatchSchema,
  }),
  /** Replace this installation with the host's newer build (ADR 0055). */
  update: agentCall({
    method: 'POST',
    path: '/update',
    auth: 'token',
    body: AgentUpdateRequestSchema,
    response: AgentUpdateAnswerSchema,
  }),
  printers: agentCall({ method: 'GET', path: '/printers', auth: 'token', response: PrinterListSchema }),
  /** Print a PDF the agent downloads from the host. */
  print: agentCall({
    method: 'POST',
    path: '/print',
    auth: 'token',
    body: PrintFromHostSchema,
    response: PrintJobSchema,
  }),
  /** Print a PDF the page sends as the body (options in the query). */
  printUpload: agentCall({
    method: 'POST',
    path: '/print/upload',
    auth: 'token',
    response: PrintJobSchema,
  }),
  printJobs: agentCall({ method: 'GET', path: '/print/jobs', auth: 'token', response: PrintJobListSchema }),
  printJob: agentCall({ method: 'GET', path: '/print/jobs/:id', auth: 'token', response: PrintJobSchema }),
  cancelPrintJob: agentCall({
    method: 'POST',
    path: '/print/jobs/:id/cancel',
    auth: 'token',
    response: PrintJobSchema,
  }),
} as const;
export type AgentCalls = typeof agentCalls;

// ---------------------------------------------------------------------------------------------------------------
// Websocket messages (URL `ws://127.0.0.1:17310/ws`)

const v = z.literal(AGENT_PROTOCOL_VERSION);

/** Client → agent. The first message must be `auth` (browsers cannot set headers on a websocket). */
export const WsClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ v, type: z.literal('auth'), token: z.string().min(1).max(200) }),
  z.object({ v, type: z.literal('ping'), id: z.number().int().optional() }),
]);
export type WsClientMessage = z.infer<typeof WsClientMessageSchema>;

export const DeviceStateSchema = z.enum(['idle', 'scanning', 'error']);

/** Agent → client. */
export const WsServerMessageSchema = z.discriminatedUnion('type', [
  /** After a successful `auth`: who the agent is and what it holds. */
  z.object({
    v,
    type: z.literal('hello'),
    agent: AgentHealthSchema,
    sources: z.array(ScannerSourceSchema),
    batches: z.array(AgentBatchSchema),
  }),
  z.object({ v, type: z.literal('pong'), id: z.number().int().optional() }),
  z.object({ v, type: z.literal('sources'), sources: z.array(ScannerSourceSchema) }),
  z.object({
    v,
    type: z.literal('device'),
    deviceId: z.string(),
    state: DeviceStateSchema,
    message: z.string().nullable(),
  }),
  z.object({ v, type: z.literal('batch'), batch: AgentBatchSchema }),
  /** A page is on the agent's disk (fsynced): it can be shown and will be uploaded. */
  z.object({ v, type: z.literal('page'), page: AgentPageSchema }),
  /** A page's upload state changed (uploaded, or failed with a message and the next retry). */
  z.object({
    v,
    type: z.literal('upload'),
    page: AgentPageSchema,
    duplicate: z.boolean(),
    retryInMs: z.number().int().nonnegative().nullable(),
  }),
  /** Feeder empty, jam, double feed, cover open, busy, interrupted, error — in Chinese. */
  z.object({ v, type: z.literal('notice'), batchId: IdSchema, notice: ScanNoticeSchema }),
  z.object({ v, type: z.literal('error'), message: z.string() }),
  /** A print job moved on (downloading, sending, printing, done, failed — with its Chinese message). */
  z.object({ v, type: z.literal('print'), job: PrintJobSchema }),
]);
export type WsServerMessage = z.infer<typeof WsServerMessageSchema>;

/** One package of the agent the host serves: `GET /agent/download/<platform>`. */
export const AgentPackageSchema = z.object({
  version: z.string().min(1).max(64),
  file: z.string().regex(/^[\w.+-]+$/),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AgentPackage = z.infer<typeof AgentPackageSchema>;

/** The build's manifest (scripts/package.mjs) and the host's answer to `GET /agent/download/manifest`. */
export const AgentPackagesManifestSchema = z.object({
  version: z.string().min(1).max(64),
  packages: z.partialRecord(z.enum(AGENT_PLATFORMS), AgentPackageSchema),
});
export type AgentPackagesManifest = z.infer<typeof AgentPackagesManifestSchema>;

/** Whether version `a` is newer than `b` (numeric dot parts; a pre-release suffix is ignored). */
export function isNewerVersion(a: string, b: string): boolean {
  const parts = (v: string) =>
    v
      .replace(/[-+].*$/, '')
      .split('.')
      .map((n) => Number(n) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return false;
}
