import { SCORE_DOUBT_MESSAGES, ScoreDoubtReasonSchema, type PaperScore } from '@zhzy/contracts';
import type { ListedPaperScore } from './repository.js';

// 纸上批阅's answers: a box's row as the teacher's list and the exception queue show it.

/** The crop of a paper score, relative to the host. */
export const cropUrlOf = (id: string) => `/teacher/paper-scores/${encodeURIComponent(id)}/crop`;

export function present(r: ListedPaperScore, number: string): PaperScore {
  const reason = ScoreDoubtReasonSchema.safeParse(r.reason);
  return {
    id: r.id,
    questionId: r.questionId,
    number,
    fullScore: r.fullScoreTenths / 10,
    studentId: r.studentId,
    studentName: r.studentName,
    className: r.className,
    state: r.state,
    score: r.state === 'doubtful' || r.scoreTenths === null ? null : r.scoreTenths / 10,
    reason: reason.success ? reason.data : null,
    reasonText: reason.success ? SCORE_DOUBT_MESSAGES[reason.data] : null,
    cropUrl: r.pageId ? cropUrlOf(r.id) : null,
  };
}
