import type { FastifyInstance } from 'fastify';
import {
  REHEARSE_MESSAGES,
  addDays,
  calls,
  dayInZone,
  type MistakeBook,
  type PublishRehearsal,
  type Rehearsal,
  type RehearsalQuestion,
} from '@zhzy/contracts';
import { ok, registerCall, type AuthContext, type CallGuards } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import type { HomeworkService } from '../homework/service.js';
import type { PapersService } from '../papers/service.js';
import type { AnalysisService } from './service.js';

// 错题重练 「发布为作业」: the wrong questions of a class (its most-missed ones) or of picked students (the union of
// theirs), each with a similar question when asked, composed into a paper by the papers service and published to
// the class by the homework service — the same paper and homework any teacher makes, with its own answer card.

/** Days a published 错题重练 stays open. */
const REHEARSAL_DAYS = 7;

interface Missed {
  questionId: string;
  homeworkId: string;
  date: string;
  no: string;
  missedBy: number;
}

/** Wrong questions of the books, most missed first (then the earlier homework, then the question's number). */
export function rankMistakes(books: MistakeBook[]): Missed[] {
  const byId = new Map<string, Missed>();
  for (const book of books) {
    for (const e of new Map(book.entries.map((x) => [x.questionId, x])).values()) {
      const m = byId.get(e.questionId);
      if (m) m.missedBy += 1;
      else
        byId.set(e.questionId, {
          questionId: e.questionId,
          homeworkId: e.homeworkId,
          date: e.date,
          no: e.no,
          missedBy: 1,
        });
    }
  }
  return [...byId.values()].sort(
    (a, b) =>
      b.missedBy - a.missedBy ||
      a.date.localeCompare(b.date) ||
      a.homeworkId.localeCompare(b.homeworkId) ||
      a.no.localeCompare(b.no, 'zh', { numeric: true }),
  );
}

export class RehearsalService {
  constructor(
    private readonly analysis: AnalysisService,
    private readonly papers: PapersService,
    private readonly homework: HomeworkService,
  ) {}

  /** The students' books over the scope; picked students must be of the class. */
  private async books(auth: AuthContext, q: PublishRehearsal) {
    const scope = { homeworkId: q.homeworkId, from: q.from, to: q.to, similar: 0 };
    const roster = await this.analysis.students(auth, q.classId);
    if (q.studentIds.some((id) => !roster.some((s) => s.id === id)))
      throw new AppError('VALIDATION', REHEARSE_MESSAGES.studentNotInClass);
    const picked = q.studentIds.length > 0;
    const { books } = await this.analysis.mistakeBooks(
      auth,
      picked ? { ...scope, studentIds: q.studentIds } : { ...scope, classId: q.classId },
    );
    return { books, picked, className: roster[0]?.className ?? '' };
  }

  /** The one subject of the ranked questions' homework (a range over several subjects is refused). */
  private async subjectOf(orgId: string, ranked: Missed[]): Promise<string> {
    const subjects = new Set<string>();
    for (const id of new Set(ranked.map((m) => m.homeworkId)))
      subjects.add((await this.analysis.homeworkRow(orgId, id)).subjectId);
    if (subjects.size > 1) throw new AppError('VALIDATION', REHEARSE_MESSAGES.severalSubjects);
    return [...subjects][0]!;
  }

  /** The ranked questions, each followed by one similar question from the bank when asked. */
  private async withSimilar(auth: AuthContext, ranked: Missed[], similar: boolean) {
    const out: RehearsalQuestion[] = [];
    const seen = new Set(ranked.map((m) => m.questionId));
    for (const m of ranked) {
      out.push({ questionId: m.questionId, missedBy: m.missedBy, similarOf: null });
      if (!similar) continue;
      const found = await this.analysis.similar(auth, m.questionId, 1, [...seen]).catch(() => []);
      for (const s of found.filter((x) => !seen.has(x.id))) {
        seen.add(s.id);
        out.push({ questionId: s.id, missedBy: 0, similarOf: m.questionId });
      }
    }
    return out;
  }

  async publish(auth: AuthContext, q: PublishRehearsal): Promise<Rehearsal> {
    const orgId = requireSchool(auth);
    if (q.homeworkId) await this.analysis.homeworkRow(orgId, q.homeworkId);
    const { books, picked, className } = await this.books(auth, q);
    const all = rankMistakes(books);
    if (all.length === 0) throw new AppError('VALIDATION', REHEARSE_MESSAGES.noMistakes);
    const ranked = picked ? all : all.slice(0, q.count);
    const subjectId = await this.subjectOf(orgId, ranked);
    const questions = await this.withSimilar(auth, ranked, q.similar);
    const today = dayInZone(this.analysis.clock(), (await this.analysis.repo.org(orgId))?.timeZone);
    const title = ANALYSIS_TEXT.rehearsalTitle(className, today);
    const blank = await this.papers.createBlank(auth, { subjectId, title, subtitle: '' });
    const filled = await this.papers.addQuestions(auth, blank.id, {
      version: blank.version,
      questionIds: questions.map((x) => x.questionId),
    });
    const paper = await this.papers.save(auth, filled.id, {
      version: filled.version,
      title: filled.title,
      subtitle: filled.subtitle,
      status: 'final',
      sections: filled.sections.map((s) => ({
        id: s.id,
        typeId: s.typeId,
        title: s.title,
        note: s.note,
        defaultScore: s.defaultScore,
        items: s.items.map((i) => ({ questionId: i.questionId, score: i.score })),
      })),
    });
    const homework = await this.homework.publish(auth, {
      paperId: paper.id,
      type: 'homework',
      title,
      classIds: [q.classId],
      startDate: today,
      dueDate: addDays(today, REHEARSAL_DAYS),
      subjectTeacher: false,
    });
    return { homeworkId: homework.id, paperId: paper.id, title, classId: q.classId, className, questions };
  }
}

/** Registers 「发布为作业」 of 错题重练 over the analysis, papers and homework services. */
export function registerRehearsal(
  app: FastifyInstance,
  guards: CallGuards,
  services: { analysis: AnalysisService; papers: PapersService; homework: HomeworkService },
): void {
  const rehearsal = new RehearsalService(services.analysis, services.papers, services.homework);
  registerCall(app, guards, calls.publishRehearsal, async ({ auth, body }) =>
    ok(await rehearsal.publish(auth, body)),
  );
}
