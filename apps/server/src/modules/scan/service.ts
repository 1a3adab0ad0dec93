import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SCAN_MESSAGES,
  SCAN_PDF_DPI,
  SCAN_PDF_MAX_PAGES,
  SCAN_PDF_MAX_PAGE_MM,
  SCAN_UPLOAD_ERRORS,
  SCAN_UPLOAD_TOKEN_PREFIX,
  SCAN_UPLOAD_TOKEN_TTL_SECONDS,
  buildPath,
  calls,
  type CreateScanBatch,
  type CreatedScanBatch,
  type ListScanBatchesQuery,
  type ScanBatchInfo,
  type ScanPageInfo,
  type UploadScanPageFields,
  type UploadedScanPage,
} from '@zhzy/contracts';
import { flattenPhoto, PHOTO_PAGE_DPI } from '@zhzy/answer-card/photo';
import { isPdf, pdfPageSizes, rasterisePdfPage, type PdfPageSize } from '@zhzy/answer-card/recognise';
import { isUniqueViolation } from '../../db/dialect.js';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { hashToken, isoAfter, newId, nowIso, randomToken } from '../../lib/ids.js';
import { inspectImage } from './image.js';
import { uploadError } from './upload-errors.js';
import { assertCanUseBatch } from './policy.js';
import type { ScanBatch, ScanPage, ScanRepository } from './repository.js';
import type { PageStorage } from './storage.js';
import { SCAN_TEXT } from '../../i18n/messages.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Who is uploading: a signed-in user, or the agent holding one batch's upload token. */
export type Uploader = { kind: 'user'; auth: AuthContext } | { kind: 'token'; batch: ScanBatch };

type ParsedFields = {
  seq?: number | undefined;
  name?: string | undefined;
  sha256?: string | undefined;
  dpi?: number | undefined;
  side?: 'front' | 'back' | undefined;
  blank?: boolean | undefined;
  replaces?: boolean | undefined;
  photo?: boolean | undefined;
};

const batchInfo = (b: ScanBatch, pageCount: number): ScanBatchInfo => ({
  id: b.id,
  schoolYearId: b.schoolYearId,
  subjectTeacher: b.subjectTeacher,
  source: b.source === 'upload' ? 'upload' : 'agent',
  deviceName: b.deviceName,
  paperSize: b.paperSize,
  pageCount,
  homeworkId: b.homeworkId,
  createdBy: b.userId,
  createdAt: b.createdAt,
});

export const pageInfo = (p: ScanPage): ScanPageInfo => ({
  id: p.id,
  batchId: p.batchId,
  seq: p.seq,
  name: p.name,
  contentHash: p.contentHash,
  format: p.format === 'png' ? 'png' : p.format === 'tiff' ? 'tiff' : 'jpeg',
  size: p.size,
  width: p.width,
  height: p.height,
  dpi: p.dpi,
  side: p.side === 'front' || p.side === 'back' ? p.side : null,
  blank: p.blank,
  source: p.source === 'upload' ? 'upload' : 'agent',
  status: 'received',
  imageUrl: buildPath(calls.scanPageImage.path, { id: p.id }),
  createdAt: p.createdAt,
});

/** The scan intake: batches, idempotent page uploads (by content hash per school), page lists and images. */
export class ScanService {
  constructor(
    private readonly repo: ScanRepository,
    private readonly storage: PageStorage,
    private readonly clock: () => number,
    /**
     * Called for every page newly stored (recognition queues it); not for a duplicate. A rescan names the page it set
     * aside, so what was raised about that page can be closed.
     */
    private readonly onStored: (page: ScanPage, replaced?: ScanPage) => Promise<void> = async () => {},
  ) {}

  async createBatch(
    auth: AuthContext,
    input: CreateScanBatch & { subjectTeacher: boolean; source: 'agent' | 'upload' },
  ): Promise<CreatedScanBatch> {
    const orgId = requireSchool(auth);
    if (input.schoolYearId) {
      const year = await this.repo.findSchoolYear(orgId, input.schoolYearId);
      if (!year || year.archived === 1) throw notFound(SCAN_MESSAGES.yearNotFound);
    }
    if (input.homeworkId && !(await this.repo.findHomework(orgId, input.homeworkId)))
      throw notFound(SCAN_MESSAGES.homeworkNotFound);
    const token = `${SCAN_UPLOAD_TOKEN_PREFIX}${randomToken()}`;
    const now = this.clock();
    const row: ScanBatch = {
      id: newId(),
      orgId,
      userId: auth.userId,
      schoolYearId: input.schoolYearId ?? null,
      subjectTeacher: input.subjectTeacher,
      source: input.source,
      deviceName: input.deviceName ?? null,
      paperSize: input.paperSize ?? null,
      homeworkId: input.homeworkId ?? null,
      uploadTokenHash: hashToken(token),
      uploadTokenExpiresAt: isoAfter(now, SCAN_UPLOAD_TOKEN_TTL_SECONDS),
      createdAt: nowIso(() => now),
    };
    await this.repo.insertBatch(row);
    return {
      batch: batchInfo(row, 0),
      uploadToken: token,
      uploadTokenExpiresAt: row.uploadTokenExpiresAt,
    };
  }

  async listBatches(auth: AuthContext, query: ListScanBatchesQuery = {}): Promise<ScanBatchInfo[]> {
    const orgId = requireSchool(auth);
    const rows = await this.repo.listBatches(orgId, auth.userId, 100, query.homeworkId);
    const counts = await this.repo.pageCounts(rows.map((r) => r.id));
    return rows.map((r) => batchInfo(r, counts.get(r.id) ?? 0));
  }

  async getBatch(auth: AuthContext, id: string): Promise<ScanBatchInfo> {
    const batch = await this.repo.findBatch(id);
    assertCanUseBatch(auth, batch);
    const counts = await this.repo.pageCounts([batch.id]);
    return batchInfo(batch, counts.get(batch.id) ?? 0);
  }

  /** Resolves an upload token to its batch (401 when unknown or expired). */
  async batchForToken(token: string): Promise<ScanBatch> {
    const batch = await this.repo.findBatchByToken(hashToken(token));
    if (!batch) throw uploadError('tokenUnknown', 'UNAUTHORIZED');
    if (batch.uploadTokenExpiresAt <= nowIso(this.clock))
      throw uploadError('tokenExpired', 'UNAUTHORIZED', SCAN_MESSAGES.uploadTokenExpired);
    return batch;
  }

  /**
   * Stores one page. The same bytes a second time in the school (a retried upload whose answer was lost, or a page
   * scanned twice) answer the first page with `duplicate: true`, so a page is never stored twice.
   */
  async upload(
    who: Uploader,
    batchId: string,
    data: Buffer,
    fields: ParsedFields,
  ): Promise<UploadedScanPage> {
    let batch: ScanBatch | undefined;
    if (who.kind === 'token') {
      // An upload token opens exactly one batch.
      if (who.batch.id !== batchId) throw uploadError('wrongBatch', 'FORBIDDEN', SCAN_MESSAGES.wrongBatch);
      batch = who.batch;
    } else {
      batch = await this.repo.findBatch(batchId);
      assertCanUseBatch(who.auth, batch);
    }
    const hash = sha256(data);
    if (fields.sha256 && fields.sha256 !== hash)
      throw uploadError('hashMismatch', 'VALIDATION', SCAN_MESSAGES.hashMismatch);
    if (fields.photo) return this.uploadPhoto(who, batch, data, fields);
    if (isPdf(data)) return this.uploadPdf(who, batch, data, fields);
    return this.storePage(who, batch, data, hash, fields);
  }

  /**
   * A phone photo of a card (issue #26, ADR 0060): checked by its content like any page, then flattened at once; a
   * photo that cannot give a trustworthy page is refused with the reason in Chinese, so the phone asks for a retake
   * on the spot. The flat 200 dpi page is what is stored and recognised.
   */
  private async uploadPhoto(
    who: Uploader,
    batch: ScanBatch,
    data: Buffer,
    fields: ParsedFields,
  ): Promise<UploadedScanPage> {
    const facts = await inspectImage(data);
    if (facts.format === 'tiff') throw uploadError('badImage', 'UNSUPPORTED_MEDIA', SCAN_MESSAGES.badImage);
    const flat = await flattenPhoto(data);
    if (!flat.ok) {
      throw new AppError('VALIDATION', flat.message, {
        data: { uploadError: 'photoRefused', retry: SCAN_UPLOAD_ERRORS.photoRefused, photo: flat.code },
      });
    }
    const { photo: _photo, sha256: _sha, ...rest } = fields;
    return this.storePage(who, batch, flat.page, sha256(flat.page), { ...rest, dpi: PHOTO_PAGE_DPI });
  }

  /**
   * A PDF (many scanners save one): checked against the limits from its page sizes before anything is rendered,
   * then each page rasterised in its own pdftoppm process (one page in memory at a time) and stored as a page image
   * like any other, in order. The same PDF again answers its pages as duplicates (rasterising is deterministic).
   */
  private async uploadPdf(
    who: Uploader,
    batch: ScanBatch,
    data: Buffer,
    fields: ParsedFields,
  ): Promise<UploadedScanPage> {
    const unreadable = () => uploadError('pdfUnreadable', 'UNSUPPORTED_MEDIA', SCAN_MESSAGES.pdfUnreadable);
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'zhzy-scan-pdf-'));
    try {
      const file = path.join(dir, 'upload.pdf');
      await fs.promises.writeFile(file, data);
      let sizes: PdfPageSize[];
      try {
        sizes = await pdfPageSizes(file);
      } catch {
        throw unreadable();
      }
      if (sizes.length === 0) throw unreadable();
      if (sizes.length > SCAN_PDF_MAX_PAGES)
        throw uploadError('pdfTooManyPages', 'PAYLOAD_TOO_LARGE', SCAN_MESSAGES.pdfTooManyPages);
      if (sizes.some((p) => Math.max(p.widthMm, p.heightMm) > SCAN_PDF_MAX_PAGE_MM))
        throw uploadError('pdfPageTooLarge', 'VALIDATION', SCAN_MESSAGES.pdfPageTooLarge);
      if (fields.replaces && sizes.length > 1)
        throw uploadError('invalidFields', 'VALIDATION', SCAN_MESSAGES.pdfReplace);
      const base = fields.name?.replace(/\.pdf$/i, '') || 'PDF';
      const pages: UploadedScanPage[] = [];
      for (const [i, p] of sizes.entries()) {
        let image: Buffer;
        try {
          image = await rasterisePdfPage(file, { page: p.page, dpi: SCAN_PDF_DPI, format: 'jpeg' });
        } catch {
          throw unreadable();
        }
        pages.push(
          await this.storePage(who, batch, image, sha256(image), {
            ...(fields.seq ? { seq: fields.seq + i } : {}),
            ...(fields.replaces ? { replaces: true } : {}),
            name: SCAN_TEXT.pageName(base, p.page),
            dpi: SCAN_PDF_DPI,
          }),
        );
      }
      return { ...pages[0]!, pages };
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Stores one page image. The same bytes a second time in the school (a retried upload whose answer was lost, or a
   * page scanned twice) answer the first page with `duplicate: true`, so a page is never stored twice.
   */
  private async storePage(
    who: Uploader,
    batch: ScanBatch,
    data: Buffer,
    hash: string,
    fields: ParsedFields,
  ): Promise<UploadedScanPage> {
    const existing = await this.repo.findPageByHash(batch.orgId, hash);
    if (existing) {
      // A token sees only its batch: the same page in another batch is refused without telling anything about it.
      if (who.kind === 'token' && existing.batchId !== batch.id)
        throw uploadError('duplicateElsewhere', 'CONFLICT', SCAN_MESSAGES.duplicateElsewhere);
      return { ...pageInfo(existing), duplicate: true };
    }
    // A rescan replaces the page at `seq`, which keeps its place; the old page is set aside, never deleted.
    let replaced: ScanPage | undefined;
    if (fields.replaces) {
      if (!fields.seq) throw uploadError('invalidFields', 'VALIDATION', SCAN_MESSAGES.replaceNeedsSeq);
      replaced = await this.repo.findPageAt(batch.id, fields.seq);
      if (!replaced) throw uploadError('replaceMissing', 'NOT_FOUND', SCAN_MESSAGES.replaceMissing);
    }

    const facts = await inspectImage(data);
    const ext = facts.format === 'jpeg' ? 'jpg' : facts.format === 'png' ? 'png' : 'tif';
    const filePath = this.storage.relativePath(batch.orgId, hash, ext);
    await this.storage.write(filePath, data);
    const row: ScanPage = {
      id: newId(),
      orgId: batch.orgId,
      batchId: batch.id,
      seq: fields.seq ?? (await this.repo.nextSeq(batch.id)),
      name: fields.name ?? null,
      contentHash: hash,
      format: facts.format,
      filePath,
      size: data.length,
      width: facts.width,
      height: facts.height,
      dpi: fields.dpi ?? facts.dpi,
      side: fields.side ?? null,
      blank: fields.blank ?? false,
      source: who.kind === 'token' ? 'agent' : batch.source === 'upload' ? 'upload' : 'agent',
      status: 'received',
      createdBy: who.kind === 'user' ? who.auth.userId : batch.userId,
      createdAt: nowIso(this.clock),
    };
    try {
      await this.repo.insertPage(row);
      if (replaced) await this.repo.setAside(replaced.id, 'replaced');
    } catch (error) {
      // Two uploads of the same page raced: the other one won, answer its page.
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.repo.findPageByHash(batch.orgId, hash);
      if (!winner) throw error;
      return { ...pageInfo(winner), duplicate: true };
    }
    await this.onStored(row, replaced);
    return { ...pageInfo(row), duplicate: false };
  }

  async listPages(auth: AuthContext, batchId: string): Promise<ScanPageInfo[]> {
    const batch = await this.repo.findBatch(batchId);
    assertCanUseBatch(auth, batch);
    return (await this.repo.listPages(batch.id)).map(pageInfo);
  }

  async pageImage(auth: AuthContext, pageId: string): Promise<{ data: Buffer; format: string }> {
    const page = await this.repo.findPage(pageId);
    if (!page || page.orgId !== auth.orgId) throw notFound(SCAN_MESSAGES.pageNotFound);
    assertCanUseBatch(auth, await this.repo.findBatch(page.batchId));
    return { data: await this.storage.read(page.filePath), format: page.format };
  }
}

export type { UploadScanPageFields };
