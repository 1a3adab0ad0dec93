import type { AnalysisHomework, AnalysisSettings, HomeworkPaper, StudentResultStatus } from '@zhzy/contracts';
import { cardQuestionOf } from '../homework/card-paper.js';
import {
  PACKED_BLANK,
  PACKED_CROP,
  forEachPacked,
  type PackLayout,
  type PackedSheet,
} from '../results/packing.js';
import type { AnswerRead } from '../results/service.js';
import { isObjective } from '../results/scoring.js';
import { normaliseChoice } from './metrics.js';
import type { HomeworkModel } from './model.js';

// What a homework model is built from: the questions of its frozen paper, its students and sheets, and the answer
// store (typed arrays, one slot of answers per row with a sheet) filled from answer rows and packs.

const TRUE_FALSE_OPTIONS = ['F', 'T'];

export interface ModelQuestion {
  questionId: string;
  no: string;
  sectionTitle: string;
  typeName: string;
  kind: string;
  objective: boolean;
  full: number;
  /** Normalised key for objective questions, the reference answer otherwise. */
  answer: string;
  optionLabels: string[];
  stem: string;
  options: { label: string; content: string }[];
  analysis: string;
  difficulty: number;
  knowledgePoints: { id: string; name: string }[];
}

export interface ModelStudent {
  id: string;
  name: string;
  studentNo: string;
  classId: string;
  className: string;
}

export interface ModelClass {
  id: string;
  name: string;
  studentCount: number;
  teacherNames: string;
}

export interface SheetInput {
  id: string;
  studentId: string;
  classId: string;
  objectiveScoreTenths: number;
  subjectiveScoreTenths: number;
  totalScoreTenths: number;
  unscoredCount: number;
}

/** An answer read from its row (the results spine's `AnswerRead`). */
export type AnswerInput = AnswerRead;

export interface ModelInput {
  homework: AnalysisHomework;
  paper: HomeworkPaper;
  classes: ModelClass[];
  students: ModelStudent[];
  sheets: SheetInput[];
  /** Answers of sheets without a usable packed copy, as rows. */
  answers: AnswerInput[];
  /** Answers of the other sheets, packed for the paper's questions (their key checked): by sheet id. */
  packed?: Map<string, PackedSheet>;
  settings: AnalysisSettings;
  /** Score rate of each student's previous homework of the subject (for trend and follow-up). */
  previousRates?: Map<string, number>;
  now: string;
}

/** Flags of a stored answer (the same bits as a packed code's). */
export const CROP = PACKED_CROP;
export const BLANK = PACKED_BLANK;

export interface Row {
  student: ModelStudent;
  status: StudentResultStatus;
  total: number | null;
  partial: number | null;
  objective: number | null;
  subjective: number | null;
  /**
   * Where the row's answers start in the model's answer store (`slot × question count`), null when absent: answer
   * i of the row is at `at + i` of `points`, `flags` and `responses`.
   */
  at: number | null;
  gradeRank: number | null;
  classRank: number | null;
  z: number | null;
}

/** The questions of a frozen paper in paper order, as analysis needs them. */
export function questionsOf(paper: HomeworkPaper): ModelQuestion[] {
  const out: ModelQuestion[] = [];
  for (const section of paper.sections) {
    for (const item of section.items) {
      const kind = cardQuestionOf(item).kind;
      const objective = isObjective(kind);
      const q = item.question;
      const labels =
        kind === 'truefalse'
          ? TRUE_FALSE_OPTIONS
          : (q?.options.map((o) => o.label.trim().toUpperCase()).filter((l) => /^[A-Z]$/.test(l)) ?? []);
      out.push({
        questionId: item.questionId,
        no: String(item.no),
        sectionTitle: section.heading || section.title,
        typeName: q?.typeName ?? '',
        kind,
        objective,
        full: item.score,
        answer: objective ? normaliseChoice(q?.answer ?? '') : (q?.answer ?? ''),
        optionLabels: labels.length > 0 || kind === 'truefalse' ? labels : ['A', 'B', 'C', 'D'],
        stem: q?.stem ?? '',
        options: q?.options ?? [],
        analysis: q?.analysis ?? '',
        difficulty: q?.difficulty ?? 3,
        knowledgePoints: q?.knowledgePoints ?? [],
      });
    }
  }
  return out;
}

export function cropUrl(homeworkId: string, studentId: string, questionId: string): string {
  return `/teacher/analysis/crop/${encodeURIComponent(homeworkId)}/${encodeURIComponent(studentId)}/${encodeURIComponent(questionId)}`;
}

const absentRow = (student: ModelStudent): Row => ({
  student,
  status: 'absent',
  total: null,
  partial: null,
  objective: null,
  subjective: null,
  at: null,
  gradeRank: null,
  classRank: null,
  z: null,
});

const sheetRow = (student: ModelStudent, sheet: SheetInput, at: number): Row => {
  const scored = sheet.unscoredCount === 0;
  return {
    student,
    status: scored ? 'scored' : 'pending',
    total: scored ? sheet.totalScoreTenths / 10 : null,
    partial: scored ? null : sheet.totalScoreTenths / 10,
    objective: sheet.objectiveScoreTenths / 10,
    subjective: sheet.subjectiveScoreTenths / 10,
    at,
    gradeRank: null,
    classRank: null,
    z: null,
  };
};

/** The model's rows (a slot of `count` answers for each row with a sheet), before their answers are filled in. */
export interface BuiltRows {
  rows: Row[];
  /** Slot start of each new sheet, by sheet id. */
  atOfSheet: Map<string, number>;
  /** Slots kept from the base model: its slot start, and this model's. */
  copied: [from: number, to: number][];
  slots: number;
}

export function buildRows(input: ModelInput, count: number, base?: HomeworkModel): BuiltRows {
  const baseRows = base ? new Map(base.rows.map((r) => [r.student.id, r])) : null;
  const sheetOf = new Map(input.sheets.map((s) => [s.studentId, s]));
  const atOfSheet = new Map<string, number>();
  const copied: [from: number, to: number][] = [];
  let slots = 0;
  const rows = input.students.map((student): Row => {
    const sheet = sheetOf.get(student.id);
    const kept = sheet ? undefined : baseRows?.get(student.id);
    if (kept) {
      let at: number | null = null;
      if (kept.at !== null) {
        at = slots++ * count;
        copied.push([kept.at, at]);
      }
      return { ...kept, student, at, gradeRank: null, classRank: null, z: null };
    }
    if (!sheet) return absentRow(student);
    const at = slots++ * count;
    atOfSheet.set(sheet.id, at);
    return sheetRow(student, sheet, at);
  });
  return { rows, atOfSheet, copied, slots };
}

/** The answer store of the rows: kept slots copied from the base, then the new sheets' answers and packs. */
export function fillAnswers(
  input: ModelInput,
  questions: ModelQuestion[],
  layout: PackLayout,
  built: BuiltRows,
  base?: HomeworkModel,
): { points: Float64Array; flags: Uint8Array; responses: (string | null)[] } {
  const count = questions.length;
  const { slots, atOfSheet } = built;
  // A question the sheet has no answer for: unscored, nothing read.
  const points = new Float64Array(slots * count).fill(NaN);
  const flags = new Uint8Array(slots * count);
  const responses = new Array<string | null>(slots * count).fill(null);
  for (const [from, to] of built.copied)
    for (let i = 0; i < count; i += 1) {
      points[to + i] = base!.points[from + i]!;
      flags[to + i] = base!.flags[from + i]!;
      responses[to + i] = base!.responses[from + i]!;
    }
  const qIndex = new Map(questions.map((q, i) => [q.questionId, i]));
  for (const a of input.answers) {
    const at = atOfSheet.get(a.sheetId);
    const i = qIndex.get(a.questionId);
    if (at === undefined || i === undefined) continue;
    points[at + i] = a.scoreTenths === null ? NaN : a.scoreTenths / 10;
    flags[at + i] = (a.blank ? BLANK : 0) | (a.crop ? CROP : 0);
    responses[at + i] = a.response;
  }
  // A pack (its key and length checked by the reader), decoded by the results spine.
  for (const [sheetId, pack] of input.packed ?? []) {
    const at = atOfSheet.get(sheetId);
    if (at === undefined) continue;
    forEachPacked(pack, layout, (i, scoreTenths, answerFlags, response) => {
      points[at + i] = scoreTenths === null ? NaN : scoreTenths / 10;
      flags[at + i] = answerFlags;
      responses[at + i] = response;
    });
  }
  return { points, flags, responses };
}
