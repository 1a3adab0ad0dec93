import { z } from 'zod';
import { FlagSchema, IdSchema, TimestampSchema, envelope } from '../common.js';
import { PaperSizeCodeSchema } from '../agent.js';
import { PhotoRefusalCodeSchema } from '../photo.js';
import { defineCall } from './define.js';

/*
 * The host's page intake: a scan batch (made by the /scan screen), pages uploaded into it by the agent or from files
 * in the browser, and the stored page images. Homework and tests do not exist yet; recognition will hang off pages.
 */

/** Largest page file the host accepts. */
export const SCAN_PAGE_MAX_BYTES = 30 * 1024 * 1024;
/**
 * Largest page in pixels, read from the header before anything is decoded: an A3 card at 300 dpi is 17.5 million,
 * an A4 page at 600 dpi 34.8 million; a real scan never reaches 40 million. More is refused as a decompression
 * bomb (a 12 KB 1-bit PNG of 100 million pixels cost a recognition worker 900 MB, ADR 0041).
 */
export const SCAN_PAGE_MAX_PIXELS = 40_000_000;
/** A PDF upload (many scanners save one) is split into pages, each rasterised at this resolution. */
export const SCAN_PDF_DPI = 300;
/** Most pages one PDF upload may hold (a class set of two-page cards fits; more is refused, never cut short). */
export const SCAN_PDF_MAX_PAGES = 100;
/** Longest page side a PDF may have, millimetres (A3 is 420): larger is no answer card and would cost memory. */
export const SCAN_PDF_MAX_PAGE_MM = 460;
/** An upload token lets the agent upload into one batch for this long. */
export const SCAN_UPLOAD_TOKEN_TTL_SECONDS = 7 * 24 * 3_600;
/** Upload tokens start with this, so the host tells them from a user's access token. */
export const SCAN_UPLOAD_TOKEN_PREFIX = 'zus_';
/** Header with the content hash of an upload (the idempotency key). */
export const SCAN_IDEMPOTENCY_HEADER = 'idempotency-key';

/** Chinese messages of the scan intake. */
export const SCAN_MESSAGES = {
  badImage: '只能上传 JPEG、PNG、TIFF 格式的图片或 PDF 文件',
  pdfUnreadable: 'PDF 文件无法读取（可能已损坏或设置了密码），请重新导出后上传',
  pdfTooManyPages: `PDF 文件最多 ${SCAN_PDF_MAX_PAGES} 页，请拆分后分批上传`,
  pdfPageTooLarge: 'PDF 中有页面尺寸超过 A3，不是答题卡扫描件，无法识别',
  pdfReplace: '重扫替换只能上传一页：请上传单页图片或单页 PDF',
  tooLarge: '图片文件过大（不能超过30MB）',
  tooManyPixels: '图片尺寸过大，无法处理（可能是异常文件）',
  multiPage: '一次只能上传一页图片，多页 TIFF 请逐页上传',
  noFile: '请选择要上传的图片',
  hashMismatch: '图片在传输中损坏，请重新上传',
  uploadTokenExpired: '上传凭证已过期，请在扫描页面重新开始上传',
  batchNotFound: '扫描批次不存在',
  pageNotFound: '扫描页不存在',
  yearNotFound: '学年不存在或已归档',
  homeworkNotFound: '作业不存在或不属于本校',
  wrongBatch: '上传凭证不属于该扫描批次',
  duplicateElsewhere: '该页已上传到其他扫描批次，未重复保存',
  replaceMissing: '要重扫替换的页不存在',
  replaceNeedsSeq: '重扫替换时必须指明页序号',
} as const;

/**
 * Machine-readable reasons an upload was refused, in the error body's `data.uploadError`, so the agent knows what to
 * do without reading the Chinese message: `retry` says whether sending the same page again can ever succeed
 * (`never`: report it to the teacher), needs a fresh upload token (`newToken`), or may succeed later (`later`).
 */
export const SCAN_UPLOAD_ERRORS = {
  noFile: 'never',
  badImage: 'never',
  tooLarge: 'never',
  tooManyPixels: 'never',
  multiPage: 'never',
  /** A PDF that poppler cannot open (damaged or password-protected). */
  pdfUnreadable: 'never',
  /** A PDF with more pages than `SCAN_PDF_MAX_PAGES`, or a page larger than `SCAN_PDF_MAX_PAGE_MM`. */
  pdfTooManyPages: 'never',
  pdfPageTooLarge: 'never',
  invalidFields: 'never',
  /** The bytes do not match the sha256 sent with them: damaged on the way, send them again. */
  hashMismatch: 'later',
  tokenExpired: 'newToken',
  tokenUnknown: 'newToken',
  /** The upload token belongs to another batch: a token uploads only into its own batch. */
  wrongBatch: 'never',
  batchNotFound: 'never',
  /** The same page was uploaded into another batch of the school. */
  duplicateElsewhere: 'never',
  /** A rescan names a page the batch does not have. */
  replaceMissing: 'never',
  /** A phone photo that cannot give a trustworthy page (`photo` says why): the teacher retakes it. */
  photoRefused: 'never',
} as const;
export type ScanUploadErrorCode = keyof typeof SCAN_UPLOAD_ERRORS;
export const ScanUploadErrorCodeSchema = z.enum(
  Object.keys(SCAN_UPLOAD_ERRORS) as [ScanUploadErrorCode, ...ScanUploadErrorCode[]],
);
export const ScanUploadRetrySchema = z.enum(['never', 'newToken', 'later']);
export type ScanUploadRetry = z.infer<typeof ScanUploadRetrySchema>;
/** `data` of a refused upload's error body. */
export const ScanUploadErrorDataSchema = z.object({
  uploadError: ScanUploadErrorCodeSchema,
  retry: ScanUploadRetrySchema,
  /** Why a phone photo was refused (`photoRefused`); the message says it in Chinese. */
  photo: PhotoRefusalCodeSchema.optional(),
});
export type ScanUploadErrorData = z.infer<typeof ScanUploadErrorDataSchema>;

export const ScanPageSourceSchema = z.enum(['agent', 'upload']);

export const CreateScanBatchSchema = z.object({
  /** The school year chosen in the top bar (the /scan screen refuses to scan without one). */
  schoolYearId: IdSchema.nullable().optional(),
  /** 是否分配给学科老师. */
  subjectTeacher: z.boolean().default(false),
  source: ScanPageSourceSchema.default('agent'),
  /** The scanner's name, for the batch list. */
  deviceName: z.string().trim().max(120).optional(),
  paperSize: PaperSizeCodeSchema.optional(),
  /** The homework the scan was started from (its 「扫描」 button): the batch is bound to it and listed under it. */
  homeworkId: IdSchema.nullable().optional(),
});
export type CreateScanBatch = z.input<typeof CreateScanBatchSchema>;

export const ScanBatchInfoSchema = z.object({
  id: IdSchema,
  schoolYearId: IdSchema.nullable(),
  subjectTeacher: z.boolean(),
  source: ScanPageSourceSchema,
  deviceName: z.string().nullable(),
  paperSize: z.number().int().nullable(),
  pageCount: z.number().int().nonnegative(),
  /** The homework the batch is bound to (started from its 「扫描」 button), or null. */
  homeworkId: IdSchema.nullable().default(null),
  createdBy: IdSchema,
  createdAt: TimestampSchema,
});
export type ScanBatchInfo = z.infer<typeof ScanBatchInfoSchema>;

/** The new batch and the token the agent uploads its pages with (shown once; only its hash is stored). */
export const CreatedScanBatchSchema = z.object({
  batch: ScanBatchInfoSchema,
  uploadToken: z.string(),
  uploadTokenExpiresAt: TimestampSchema,
});
export type CreatedScanBatch = z.infer<typeof CreatedScanBatchSchema>;

/** Text fields of the multipart upload (the file part is named `file`). */
export const UploadScanPageFieldsSchema = z.object({
  /** The page's place in the batch; the host numbers it after the last page when absent. */
  seq: z.coerce.number().int().positive().optional(),
  /** The scanner's image name (SPEC §3). */
  name: z.string().trim().max(200).optional(),
  /** SHA-256 of the file as the sender computed it; checked against the bytes received. */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'sha256 必须是64位十六进制')
    .optional(),
  dpi: z.coerce.number().int().min(50).max(1200).optional(),
  side: z.enum(['front', 'back']).optional(),
  blank: FlagSchema.optional(),
  /** A rescan: this page replaces the batch's page at `seq`, which keeps its place (the old one is set aside). */
  replaces: FlagSchema.optional(),
  /**
   * A phone photo of a card (issue #26): checked at once and refused with the reason (`photoRefused`), or stored
   * as the flat 200 dpi page the recogniser reads.
   */
  photo: FlagSchema.optional(),
});
export type UploadScanPageFields = z.input<typeof UploadScanPageFieldsSchema>;

export const ScanPageStatusSchema = z.enum(['received']);

export const ScanPageInfoSchema = z.object({
  id: IdSchema,
  batchId: IdSchema,
  seq: z.number().int().positive(),
  name: z.string().nullable(),
  contentHash: z.string(),
  format: z.enum(['jpeg', 'png', 'tiff']),
  size: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  dpi: z.number().int().nullable(),
  side: z.enum(['front', 'back']).nullable(),
  blank: z.boolean(),
  source: ScanPageSourceSchema,
  status: ScanPageStatusSchema,
  /** Path of the image call, relative to the host. */
  imageUrl: z.string(),
  createdAt: TimestampSchema,
});
export type ScanPageInfo = z.infer<typeof ScanPageInfoSchema>;

const UploadedPageSchema = ScanPageInfoSchema.extend({ duplicate: z.boolean() });

/**
 * An upload's answer: the page, and whether it had been received before (then it is the first page's record). A PDF
 * is stored as one page image per PDF page: the answer is its first page, and `pages` lists every page in order.
 */
export const UploadedScanPageSchema = UploadedPageSchema.extend({
  pages: z.array(UploadedPageSchema).optional(),
});
export type UploadedScanPage = z.infer<typeof UploadedScanPageSchema>;

const IdParams = z.object({ id: IdSchema });

/** `homeworkId`: only the batches bound to that homework (a scan opened from the homework's 「扫描」 button). */
export const ListScanBatchesQuerySchema = z.object({ homeworkId: IdSchema.optional() });
export type ListScanBatchesQuery = z.infer<typeof ListScanBatchesQuerySchema>;

export const createScanBatchCall = defineCall({
  name: 'createScanBatch',
  method: 'POST',
  path: '/teacher/scan/batch',
  encoding: 'json',
  auth: 'bearer',
  body: CreateScanBatchSchema,
  response: envelope(CreatedScanBatchSchema),
});

export const listScanBatchesCall = defineCall({
  name: 'listScanBatches',
  method: 'GET',
  path: '/teacher/scan/batch',
  encoding: 'none',
  auth: 'bearer',
  query: ListScanBatchesQuerySchema,
  response: envelope(z.array(ScanBatchInfoSchema)),
});

export const getScanBatchCall = defineCall({
  name: 'getScanBatch',
  method: 'GET',
  path: '/teacher/scan/batch/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(ScanBatchInfoSchema),
});

/**
 * Uploads one page (multipart: the `file` part and the fields above). The bearer token is the user's access token
 * or the batch's upload token. The same content twice (per school) answers the first page with 200.
 */
export const uploadScanPageCall = defineCall({
  name: 'uploadScanPage',
  method: 'POST',
  path: '/teacher/scan/batch/:id/page',
  encoding: 'multipart',
  auth: 'bearer',
  params: IdParams,
  body: UploadScanPageFieldsSchema,
  response: envelope(UploadedScanPageSchema),
});

export const listScanPagesCall = defineCall({
  name: 'listScanPages',
  method: 'GET',
  path: '/teacher/scan/batch/:id/pages',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.array(ScanPageInfoSchema)),
});

/** The stored image bytes (its own content type), not an envelope. */
export const scanPageImageCall = defineCall({
  name: 'scanPageImage',
  method: 'GET',
  path: '/teacher/scan/page/:id/image',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: z.custom<Uint8Array>((v) => v instanceof Uint8Array),
});
