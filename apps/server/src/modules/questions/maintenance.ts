import type { FastifyInstance } from 'fastify';
import { QUESTION_RECYCLE_DAYS } from '@zhzy/contracts';
import type { QuestionsRepository } from './repository.js';

const DAY_MS = 86_400_000;

/**
 * Deletes for ever every question that has been in a recycle bin longer than QUESTION_RECYCLE_DAYS days
 * (also school questions withdrawn that long ago). The clock is injected so tests can move it.
 * Answers how many were deleted and how many kept for papers that still use them.
 */
export async function purgeExpiredQuestions(
  repo: QuestionsRepository,
  clock: () => number,
): Promise<{ deleted: number; kept: number }> {
  const before = new Date(clock() - QUESTION_RECYCLE_DAYS * DAY_MS).toISOString();
  const now = new Date(clock()).toISOString();
  let deleted = 0;
  let kept = 0;
  for (;;) {
    const ids = await repo.expiredDeleted(before);
    for (const id of ids) {
      if ((await repo.deleteForever(id, now)) === 'deleted') deleted += 1;
      else kept += 1;
    }
    if (ids.length < 500) return { deleted, kept };
  }
}

/**
 * The question bank's upkeep, at boot and then once a day while the host runs (the timer never keeps the
 * process alive): index questions written without search tokens, purge expired recycle bins, and refresh
 * the query planner's statistics.
 */
export async function scheduleQuestionMaintenance(
  app: FastifyInstance,
  repo: QuestionsRepository,
  clock: () => number,
  intervalMs = DAY_MS,
): Promise<void> {
  const run = async () => {
    await repo.indexPending();
    const { deleted, kept } = await purgeExpiredQuestions(repo, clock);
    if (deleted + kept > 0) app.log.info({ deleted, kept }, 'purged questions from the recycle bins');
    await repo.refreshStatistics();
  };
  await run();
  const timer = setInterval(() => {
    run().catch((err: unknown) => app.log.error({ err }, 'question bank upkeep failed'));
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', () => clearInterval(timer));
}
