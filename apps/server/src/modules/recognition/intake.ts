import { RECOGNITION_MESSAGES, type PageRecognition } from '@zhzy/contracts';
import type { ScanPage } from '../scan/repository.js';
import { applyWithRetry } from './apply.js';
import { newException, nowOf, type RecognitionServiceDeps } from './context.js';
import { WorkerCrashError, WorkerMemoryError, type CardHint } from './pool.js';
import type { RecognitionPage } from './repository.js';
import { cropPath, emptyPage, parseCropPaths, parseStoredReading } from './reading.js';

// Intake and the queue: a stored page is queued fairly between schools, read in the worker pool and applied; its
// crops are stored, or cut on demand when first read.

/** Cuts every crop of a recognised page from the page's file and stores them; the files written. */
export async function cutCrops(deps: RecognitionServiceDeps, scanId: string): Promise<string[]> {
  const [scan, rec] = await Promise.all([deps.repo.findScanPage(scanId), deps.repo.findPage(scanId)]);
  if (!scan || !rec?.result) return [];
  const result = parseStoredReading(rec.result);
  const paths = result.cropPaths ?? {};
  if (!result.crops.some((c) => paths[c.id])) return [];
  const images = await deps.pool.cutCrops(await deps.storage.read(scan.filePath), result);
  const written: string[] = [];
  for (const crop of result.crops) {
    const file = paths[crop.id];
    const bytes = images.get(crop.id);
    if (!file || !bytes) continue;
    await deps.storage.write(file, bytes);
    written.push(file);
  }
  return written;
}

/** A page was stored: remember it as queued and queue its recognition. */
export async function pageStored(
  deps: RecognitionServiceDeps,
  page: ScanPage,
  replaced?: ScanPage,
): Promise<void> {
  const now = nowOf(deps);
  const existing = await deps.repo.findPage(page.id);
  if (!existing) await deps.repo.upsertPage(emptyPage(page, now));
  // A rescan: the page it replaces is no longer the student's, and nothing raised about it is left to resolve (the
  // new page raises again whatever it still shows). Accepting the old page's problem would apply a page set aside.
  if (replaced) {
    const old = await deps.repo.findPage(replaced.id);
    if (old && old.status !== 'rescanned') {
      await deps.repo.updatePage(old.pageId, { status: 'rescanned', updatedAt: now });
      await deps.repo.resolvePageExceptions(old.pageId, 'rescanned', page.createdBy, now);
      // Its score boxes' scores leave the results until the rescan is read (纸上批阅, ADR 0065).
      await deps.paperScores?.()?.pageSetAside(old.pageId);
      if (old.sheetId && old.status === 'done')
        await deps.results.setPagesReceived(old.sheetId, await deps.repo.pagesOfSheet(old.sheetId));
    }
  }
  await enqueuePage(deps, page.id, page.orgId);
}

/**
 * Fair share between schools: a page waits behind the pages its own school stored before it, never behind another
 * school's backlog (one school's thousand pages do not delay another school's first). Its rank is counted from
 * the stored rows, so pages uploaded at the same moment still get distinct places.
 */
async function enqueuePage(deps: RecognitionServiceDeps, pageId: string, orgId: string): Promise<void> {
  const row = await deps.repo.findPage(pageId);
  const ahead = row ? await deps.repo.queuedAhead(orgId, row) : 0;
  await deps.enqueue(pageId, -ahead);
}

/**
 * The job: reads one page in the worker pool and applies it. A page already read is left as it is (a queue may
 * deliver a job twice); `force` reads it again (the exceptions it raised are raised again, answers rewritten only
 * where they changed).
 */
export async function recognise(
  deps: RecognitionServiceDeps,
  pageId: string,
  options: { force?: boolean } = {},
): Promise<void> {
  const scan = await deps.repo.findScanPage(pageId);
  if (!scan) return;
  const existing = await deps.repo.findPage(pageId);
  if (existing && existing.status !== 'queued' && !options.force) return;
  const now = nowOf(deps);
  const base = existing ?? emptyPage(scan, now);
  const attempts = base.attempts + 1;
  let out: { result: PageRecognition; images: Map<string, Buffer> };
  try {
    const bytes = await deps.storage.read(scan.filePath);
    out = await deps.pool.recognise(
      bytes,
      async (cardId, version) => {
        const card = await deps.findCard(cardId, version, scan.orgId);
        return card && !card.homeworkDeletedAt ? card.layout : undefined;
      },
      scan.dpi ?? undefined,
      await batchHint(deps, scan.batchId),
    );
  } catch (error) {
    return recordFailure(deps, scan, base, attempts, error);
  }
  const { result, images } = out;
  const cropPaths = await storeCrops(deps, scan, existing, result, images);
  const row: RecognitionPage = {
    ...base,
    status: 'failed',
    outcome: result.status,
    cardId: result.identity?.cardId ?? null,
    cardVersion: result.identity?.version ?? null,
    pageNo: result.identity?.page ?? null,
    identitySource: result.identity?.source ?? null,
    residualMm: result.transform?.residualMm ?? null,
    totalMs: result.timings.total ?? null,
    result: JSON.stringify({ ...result, cropPaths: Object.fromEntries(cropPaths) }),
    attempts,
    error: null,
    updatedAt: now,
  };
  await applyWithRetry(deps, scan, row, null);
}

/** One bad page never stops a batch: it becomes an exception a teacher can see. */
async function recordFailure(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  base: RecognitionPage,
  attempts: number,
  error: unknown,
): Promise<void> {
  const crashed = error instanceof WorkerCrashError;
  const reason =
    error instanceof WorkerMemoryError
      ? RECOGNITION_MESSAGES.workerOutOfMemory
      : crashed
        ? RECOGNITION_MESSAGES.workerCrashed
        : undefined;
  await deps.repo.transaction(async (repo) => {
    await repo.upsertPage({
      ...base,
      status: 'failed',
      outcome: 'failed',
      attempts,
      error: error instanceof Error ? error.message : String(error),
      updatedAt: nowOf(deps),
    });
    await repo.clearOpenExceptions(scan.id);
    await repo.insertExceptions([newException(deps, scan, base, 'imageUnreadable', reason)]);
  });
}

/**
 * Crops of written answers belong in the page store beside the page. Workers read pages without crop images: each
 * crop's place is recorded now, and the images are cut from the page when first read (`cropOnDemand`). A page read
 * again: crops cut from its earlier reading are cut again from this one.
 */
async function storeCrops(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  existing: RecognitionPage | undefined,
  result: PageRecognition,
  images: Map<string, Buffer>,
): Promise<Map<string, string>> {
  const cropPaths = new Map<string, string>();
  for (const crop of result.crops) {
    const file = cropPath(scan, crop);
    const bytes = images.get(crop.id);
    if (bytes) await deps.storage.write(file, bytes);
    cropPaths.set(crop.id, file);
  }
  if (existing?.result) {
    const earlier = parseCropPaths(existing.result);
    const written = new Set(result.crops.filter((c) => images.has(c.id)).map((c) => cropPaths.get(c.id)));
    for (const file of Object.values(earlier)) if (!written.has(file)) await deps.storage.remove(file);
  }
  return cropPaths;
}

/**
 * Batches have no target homework: a page whose code cannot be read is tried as page 1 of the card every other
 * page of its batch read so far was taken for (only one card: a mixed batch gives no hint), and is identified by
 * its number bubbles. Otherwise it stays a `qrUnreadable` exception.
 */
async function batchHint(deps: RecognitionServiceDeps, batchId: string): Promise<CardHint | undefined> {
  const cards = await deps.repo.batchCards(batchId);
  if (cards.length !== 1) return undefined;
  return { cardId: cards[0]!.cardId, version: cards[0]!.cardVersion, page: 1 };
}

/** Pages left queued by a stop (the in-process queue forgets them): queued again at start. */
export async function requeueUnfinished(deps: RecognitionServiceDeps): Promise<number> {
  const rows = await deps.repo.queuedPages();
  const ahead = new Map<string, number>();
  for (const r of rows) {
    const n = ahead.get(r.orgId) ?? 0;
    ahead.set(r.orgId, n + 1);
    await deps.enqueue(r.pageId, -n);
  }
  return rows.length;
}
