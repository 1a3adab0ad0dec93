import { nowIso } from '../../lib/ids.js';
import { packLayout } from '../results/packing.js';
import type { ResultsService } from '../results/service.js';
import { contextKeys, type Versions } from './cache.js';
import { HomeworkModel, questionsOf, type ModelClass, type ModelStudent } from './model.js';
import type { HomeworkRecord } from './repository.js';
import type { AnalysisService } from './service.js';

// One homework's results loaded into its model (model.ts), or a kept model brought up to date (ADR 0030). The
// sheets and answers are read through the results spine.

/** What loading a model needs of the analysis service. */
export type HomeworkCore = Pick<
  AnalysisService,
  'repo' | 'clock' | 'homeworkRow' | 'paperOf' | 'present' | 'settingsOf'
>;

export class HomeworkModels {
  constructor(
    private readonly core: HomeworkCore,
    private readonly results: ResultsService,
  ) {}

  /** Loads one homework's results into the model (with each student's previous score rate of the subject). */
  async load(
    orgId: string,
    homeworkId: string,
    stamp: (keys: readonly string[]) => Promise<void>,
  ): Promise<HomeworkModel> {
    const row = await this.core.homeworkRow(orgId, homeworkId);
    const [[homework], paper] = await Promise.all([
      this.core.present(orgId, [row]),
      this.core.paperOf(homeworkId),
    ]);
    const classIds = homework!.classes.map((c) => c.id);
    const layout = packLayout(questionsOf(paper).map((q) => q.questionId));
    const [students, { sheets, packed, answers }, teachers, settings, previousRates] = await Promise.all([
      this.core.repo.studentsOfClasses(classIds),
      this.results.sheetsWithAnswers(homeworkId, layout),
      this.core.repo.teachersOf(orgId, row.subjectId, classIds),
      this.core.settingsOf(orgId),
      this.previousRates(orgId, row, stamp),
    ]);
    const classes: ModelClass[] = homework!.classes.map((c) => ({
      ...c,
      teacherNames: (teachers.get(c.id) ?? []).join('、'),
    }));
    const modelStudents: ModelStudent[] = students.map((s) => ({
      id: s.id,
      name: s.name,
      studentNo: s.studentNo,
      classId: s.classId,
      className: s.className,
    }));
    return new HomeworkModel({
      homework: homework!,
      paper,
      classes,
      students: modelStudents,
      sheets,
      packed,
      answers,
      settings,
      previousRates,
      now: nowIso(this.core.clock),
    });
  }

  /**
   * A kept model brought up to date when only results changed (the context is the same, so the homework, its
   * classes, students, settings and the earlier homework compared with are too): re-reads the sheets written since
   * the model's version with their answers, and the previous score rates only when an earlier homework's results
   * moved (ADR 0030). The header is read anew (its state follows the results).
   */
  async refresh(
    orgId: string,
    homeworkId: string,
    previous: HomeworkModel,
    was: Versions,
    now: Versions,
  ): Promise<HomeworkModel> {
    const row = await this.core.homeworkRow(orgId, homeworkId);
    const since = was.get(homeworkId) ?? 0;
    const earlierMoved = [...was.keys()].some(
      (k) => k !== homeworkId && !contextKeys(orgId).includes(k) && was.get(k) !== now.get(k),
    );
    const [[homework], { sheets, packed, answers }, previousRates] = await Promise.all([
      this.core.present(orgId, [row]),
      since === now.get(homeworkId)
        ? { sheets: [], packed: undefined, answers: [] }
        : this.results.sheetsWithAnswers(homeworkId, previous.layout, since),
      earlierMoved ? this.previousRates(orgId, row, () => Promise.resolve()) : previous.previousRates,
    ]);
    return new HomeworkModel(
      {
        homework: homework!,
        paper: previous.paper,
        classes: previous.classes,
        students: previous.rows.map((r) => r.student),
        sheets,
        packed,
        answers,
        settings: previous.settings,
        previousRates,
        now: nowIso(this.core.clock),
      },
      previous,
    );
  }

  /** Each student's score rate in the latest earlier homework of the same subject and year (up to 5 back). */
  private async previousRates(
    orgId: string,
    row: HomeworkRecord,
    stamp: (keys: readonly string[]) => Promise<void>,
  ): Promise<Map<string, number>> {
    const earlier = (
      await this.core.repo.listHomework(
        { orgId, yearId: row.yearId, subjectId: row.subjectId, to: row.startDate },
        12,
      )
    )
      .filter((h) => h.id !== row.id && (h.startDate < row.startDate || h.createdAt < row.createdAt))
      .slice(0, 5);
    const out = new Map<string, number>();
    if (earlier.length === 0) return out;
    await stamp(earlier.map((h) => h.id));
    const fullOf = new Map(earlier.map((h) => [h.id, h.totalScoreTenths]));
    const order = new Map(earlier.map((h, i) => [h.id, i]));
    const best = new Map<string, number>();
    for (const s of await this.core.repo.scoredTotals(earlier.map((h) => h.id))) {
      const i = order.get(s.homeworkId)!;
      if ((best.get(s.studentId) ?? Infinity) <= i) continue;
      best.set(s.studentId, i);
      const full = fullOf.get(s.homeworkId)!;
      out.set(s.studentId, full > 0 ? s.totalScoreTenths / full : 0);
    }
    return out;
  }
}
