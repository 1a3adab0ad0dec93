import type { Selectable } from 'kysely';
import {
  CardLayoutSchema,
  CardPaperSchema,
  HomeworkPaperSchema,
  type CardLayout,
  type CardPaper,
  type CardSettings,
  type HomeworkPaper,
} from '@zhzy/contracts';
import type { AnswerCardsTable, CardVersionsTable, HomeworkTable } from '../../../db/schema.js';
import { deepFreeze } from '../../../lib/freeze.js';
import { defaultCardSettings, parseCardSettings } from '../card-paper.js';

// The homework module's domain types and the one mapper of each of its tables (homework, answer_cards,
// card_versions); JSON columns are parsed by their schemas here.

/**
 * A homework's frozen paper from its stored snapshot (`homework.paper_snapshot`), parsed by its schema — the one
 * reading of a snapshot every module uses. Without `fallback` a snapshot that is not a paper throws; with it, that
 * snapshot reads as `fallback`.
 */
export function paperFromSnapshot(text: string): HomeworkPaper;
export function paperFromSnapshot<F>(text: string, fallback: F): HomeworkPaper | F;
export function paperFromSnapshot<F>(text: string, ...fallback: [F?]): HomeworkPaper | F {
  if (fallback.length === 0) return HomeworkPaperSchema.parse(JSON.parse(text));
  try {
    const parsed = HomeworkPaperSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: the fallback.
  }
  return fallback[0] as F;
}

/** The paper a snapshot that is not one reads as where a caller goes on without it: no sections. */
export const NO_SECTIONS = { sections: [] } as unknown as HomeworkPaper;

/** A published homework (its paper snapshot is read apart: `findPaperSnapshot`, `findHomeworkWithPaper`). */
export interface Homework {
  id: string;
  orgId: string;
  yearId: string;
  /** 'homework' | 'test' */
  type: string;
  title: string;
  paperId: string;
  paperTitle: string;
  stageId: string;
  subjectId: string;
  startDate: string;
  dueDate: string;
  subjectTeacher: boolean;
  paperMarking: boolean;
  questionCount: number;
  totalScoreTenths: number;
  cardId: string;
  cardVersion: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** A homework with the paper it was published from (its snapshot, parsed by its schema). */
export interface HomeworkWithPaper extends Homework {
  paper: HomeworkPaper;
}

/** What publishing writes: the homework and the snapshot of its paper. */
export type NewHomework = Omit<Homework, 'paperMarking'> & { paper: HomeworkPaper };

/** A homework as lists show it: names and the current card version's facts. */
export interface HomeworkListing {
  id: string;
  title: string;
  type: string;
  paperId: string;
  paperTitle: string;
  stageId: string;
  stageName: string;
  subjectId: string;
  subjectName: string;
  yearId: string;
  startDate: string;
  dueDate: string;
  subjectTeacher: boolean;
  questionCount: number;
  totalScoreTenths: number;
  cardId: string;
  cardVersion: number;
  cardIdentity: string;
  cardPageCount: number;
  cardSettings: CardSettings;
  createdBy: string;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
}

/** The answer card of a paper: the designer's settings and the last version frozen. */
export interface AnswerCard {
  paperId: string;
  orgId: string;
  settings: CardSettings;
  saved: boolean;
  latestVersion: number;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
}

/** The JSON of a frozen card version: settings, the card's paper and the layout. */
export interface CardVersionBody {
  settings: CardSettings;
  paper: CardPaper;
  layout: CardLayout;
}

/** A frozen version of a homework's card (never changed once written). */
export interface CardVersion extends CardVersionBody {
  cardId: string;
  version: number;
  orgId: string;
  homeworkId: string;
  /** 'qr' | 'bubbles' | 'barcode' */
  identity: string;
  pageCount: number;
  createdBy: string;
  createdAt: string;
}

/** A frozen version's facts with the homework it belongs to (the recogniser's look-up). */
export interface FrozenCardHead {
  cardId: string;
  version: number;
  orgId: string;
  homeworkId: string;
  createdAt: string;
  paperId: string;
  currentVersion: number;
  homeworkDeletedAt: string | null;
}

/** Stored settings JSON: unreadable settings read as the defaults. */
export const settingsOf = (json: string) => parseCardSettings(json, defaultCardSettings(8));

/** Listed settings kept, at most this many distinct texts (the oldest go first). */
const LISTED_SETTINGS_MAX = 256;
const listedSettings = new Map<string, CardSettings>();

/**
 * A listed homework's card settings, parsed once per stored text (issue 25): the homework list parsed every listed
 * card version's settings through their schema on every request, though a card version never changes and most
 * share a few texts. Keyed by the text itself, so a kept value is never stale; frozen, as every list shares it.
 */
export function listedSettingsOf(json: string): CardSettings {
  let settings = listedSettings.get(json);
  if (!settings) {
    settings = deepFreeze(settingsOf(json));
    if (listedSettings.size >= LISTED_SETTINGS_MAX)
      listedSettings.delete(listedSettings.keys().next().value!);
    listedSettings.set(json, settings);
  }
  return settings;
}

export const toHomework = (r: Selectable<HomeworkTable>): Homework => ({
  id: r.id,
  orgId: r.org_id,
  yearId: r.year_id,
  type: r.type,
  title: r.title,
  paperId: r.paper_id,
  paperTitle: r.paper_title,
  stageId: r.stage_id,
  subjectId: r.subject_id,
  startDate: r.start_date,
  dueDate: r.due_date,
  subjectTeacher: r.subject_teacher === 1,
  paperMarking: r.paper_marking === 1,
  questionCount: r.question_count,
  totalScoreTenths: r.total_score_tenths,
  cardId: r.card_id,
  cardVersion: r.card_version,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at,
});

export const toCard = (r: Selectable<AnswerCardsTable>): AnswerCard => ({
  paperId: r.paper_id,
  orgId: r.org_id,
  settings: settingsOf(r.settings),
  saved: r.saved === 1,
  latestVersion: r.latest_version,
  updatedBy: r.updated_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toBody = (
  r: Pick<CardVersionsTable, 'settings' | 'card_paper' | 'layout'>,
): CardVersionBody => ({
  settings: settingsOf(r.settings),
  paper: CardPaperSchema.parse(JSON.parse(r.card_paper)),
  layout: CardLayoutSchema.parse(JSON.parse(r.layout)),
});

export const toCardVersion = (r: Selectable<CardVersionsTable>): CardVersion => ({
  cardId: r.card_id,
  version: r.version,
  orgId: r.org_id,
  homeworkId: r.homework_id,
  ...toBody(r),
  identity: r.identity,
  pageCount: r.page_count,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

/** A row of the list query (homework with names and its current card version's facts). */
interface ListingRow {
  id: string;
  title: string;
  type: string;
  paper_id: string;
  paper_title: string;
  stage_id: string;
  stage_name: string;
  subject_id: string;
  subject_name: string;
  year_id: string;
  start_date: string;
  due_date: string;
  subject_teacher: number;
  question_count: number;
  total_score_tenths: number;
  card_id: string;
  card_version: number;
  card_identity: string;
  card_page_count: number;
  card_settings: string;
  created_by: string;
  created_by_name: string;
  created_at: string;
  updated_at: string;
}

export const toListing = (r: ListingRow): HomeworkListing => ({
  id: r.id,
  title: r.title,
  type: r.type,
  paperId: r.paper_id,
  paperTitle: r.paper_title,
  stageId: r.stage_id,
  stageName: r.stage_name,
  subjectId: r.subject_id,
  subjectName: r.subject_name,
  yearId: r.year_id,
  startDate: r.start_date,
  dueDate: r.due_date,
  subjectTeacher: r.subject_teacher === 1,
  questionCount: r.question_count,
  totalScoreTenths: r.total_score_tenths,
  cardId: r.card_id,
  cardVersion: r.card_version,
  cardIdentity: r.card_identity,
  cardPageCount: r.card_page_count,
  cardSettings: listedSettingsOf(r.card_settings),
  createdBy: r.created_by,
  createdByName: r.created_by_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface HomeworkFilter {
  orgId: string;
  yearId?: string | undefined;
  ids?: string[] | undefined;
  classId?: string | undefined;
  subjectId?: string | undefined;
  type?: string | undefined;
  /** Running on or after this day: due_date >= from. */
  from?: string | undefined;
  /** Running on or before this day: start_date <= to. */
  to?: string | undefined;
  createdBy?: string | undefined;
}

export const toFrozenCardHead = (
  r: Pick<CardVersionsTable, 'card_id' | 'version' | 'org_id' | 'homework_id' | 'created_at'> & {
    paper_id: string;
    current_version: number;
    homework_deleted_at: string | null;
  },
): FrozenCardHead => ({
  cardId: r.card_id,
  version: r.version,
  orgId: r.org_id,
  homeworkId: r.homework_id,
  createdAt: r.created_at,
  paperId: r.paper_id,
  currentVersion: r.current_version,
  homeworkDeletedAt: r.homework_deleted_at,
});
