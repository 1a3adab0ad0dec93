import type {
  AnswerKey,
  RecognitionException,
  RecognitionTally,
  ResolveException,
  ReviewSheet,
  SheetReview,
  UpdateAnswerKey,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import type { ScanPage } from '../scan/repository.js';
import * as keys from './answer-key.js';
import type { RecognitionServiceDeps } from './context.js';
import * as exceptions from './exceptions.js';
import * as intake from './intake.js';
import { CROP_PATH } from './reading.js';
import * as review from './review.js';
import * as tallies from './tally.js';

export { EXCEPTION_ACTIONS, RECOGNISE_PAGE_JOB, type RecognitionServiceDeps } from './context.js';

/**
 * Recognition's facade: intake and the queue (`intake.ts`, `apply.ts`), the exception queue (`exceptions.ts`), the
 * batch tally (`tally.ts`), the review of read sheets (`review.ts`) and the answer key (`answer-key.ts`).
 */
export class RecognitionService {
  constructor(private readonly deps: RecognitionServiceDeps) {}

  private readonly cutting = new Map<string, Promise<string[]>>();

  /**
   * Makes a crop file exist when it is a crop of a recognised page not cut yet: cuts every crop of that page from
   * the page's file in a worker and stores them. True when `relative` was such a crop (and now exists). Concurrent
   * requests for one page's crops share one cut.
   */
  cropOnDemand(relative: string): Promise<boolean> {
    const scanId = CROP_PATH.exec(relative)?.[1];
    if (!scanId) return Promise.resolve(false);
    let cut = this.cutting.get(scanId);
    if (!cut) {
      cut = intake.cutCrops(this.deps, scanId).finally(() => this.cutting.delete(scanId));
      this.cutting.set(scanId, cut);
    }
    return cut.then((written) => written.includes(relative));
  }

  /** A page was stored: remember it as queued and queue its recognition. */
  pageStored(page: ScanPage, replaced?: ScanPage): Promise<void> {
    return intake.pageStored(this.deps, page, replaced);
  }

  /** The job: reads one page in the worker pool and applies it (`force` reads a page already read again). */
  recognise(pageId: string, options: { force?: boolean } = {}): Promise<void> {
    return intake.recognise(this.deps, pageId, options);
  }

  /** Pages left queued by a stop (the in-process queue forgets them): queued again at start. */
  requeueUnfinished(): Promise<number> {
    return intake.requeueUnfinished(this.deps);
  }

  listExceptions(
    auth: AuthContext,
    q: { batchId?: string | undefined; homeworkId?: string | undefined; status: 'open' | 'resolved' | 'all' },
  ): Promise<RecognitionException[]> {
    return exceptions.listExceptions(this.deps, auth, q);
  }

  resolve(auth: AuthContext, id: string, body: ResolveException): Promise<RecognitionException> {
    return exceptions.resolve(this.deps, auth, id, body);
  }

  tally(auth: AuthContext, batchId: string): Promise<RecognitionTally> {
    return tallies.tally(this.deps, auth, batchId);
  }

  /** When scanning ends: every student of the batch's homework with some pages but not all gets a missing page. */
  check(auth: AuthContext, batchId: string): Promise<RecognitionTally> {
    return tallies.check(this.deps, auth, batchId);
  }

  reviewSheets(auth: AuthContext, homeworkId: string): Promise<ReviewSheet[]> {
    return review.reviewSheets(this.deps, auth, homeworkId);
  }

  reviewSheet(auth: AuthContext, sheetId: string): Promise<SheetReview> {
    return review.reviewSheet(this.deps, auth, sheetId);
  }

  override(
    auth: AuthContext,
    sheetId: string,
    answers: { questionId: string; response: string }[],
  ): Promise<SheetReview> {
    return review.override(this.deps, auth, sheetId, answers);
  }

  confirm(auth: AuthContext, sheetId: string): Promise<ReviewSheet> {
    return review.confirm(this.deps, auth, sheetId);
  }

  answerKey(auth: AuthContext, homeworkId: string): Promise<AnswerKey> {
    return keys.answerKey(this.deps, auth, homeworkId);
  }

  /** Changes keys and the partial rule, then re-scores every sheet already scored (each change recorded). */
  updateAnswerKey(
    auth: AuthContext,
    homeworkId: string,
    body: UpdateAnswerKey,
  ): Promise<{ changed: number; sheets: number }> {
    return keys.updateAnswerKey(this.deps, auth, homeworkId, body);
  }
}
