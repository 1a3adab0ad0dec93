import {
  CARD_COLUMNS,
  HOMEWORK_STATE_NAMES,
  HOMEWORK_TYPE_NAMES,
  type CardLayout,
  type CardPaper,
  type CardSettings,
  type CardVersionInfo,
  type HomeworkCard,
  type HomeworkState,
  type HomeworkSummary,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import type { HomeworkProgress } from '../results/progress.js';
import { toPoints } from '../results/scoring.js';
import { canDelete, canEditCard } from './policy.js';
import type { CardVersion, Homework, HomeworkListing } from './repository.js';

// How homework reads to a caller: its state from the results spine's progress, its summary in lists, the frozen card
// versions it prints. Pure: the service fetches, these shape.

export const columnsOf = (s: CardSettings) => s.columns ?? CARD_COLUMNS[s.size][0]!;

/** 待扫描 until a page arrives; 扫描中 until every page has; 阅卷中 while answers wait; then 已完成. */
export function homeworkState(progress: HomeworkProgress | undefined): HomeworkState {
  if (!progress || progress.pages === 0) return 'toScan';
  if (progress.pages < progress.expectedPages) return 'scanning';
  if (progress.answersToMark > 0) return 'marking';
  return 'done';
}

/** A listed homework as a caller sees it (`classes` of every listed row with their students, `state` of this one). */
export function summaryOf(
  auth: AuthContext,
  r: HomeworkListing,
  progress: HomeworkProgress | undefined,
  classes: { homeworkId: string; classId: string; name: string; students: number }[],
): HomeworkSummary {
  const state = homeworkState(progress);
  const settings = r.cardSettings;
  const type = r.type === 'test' ? 'test' : 'homework';
  return {
    id: r.id,
    title: r.title,
    type,
    typeName: HOMEWORK_TYPE_NAMES[type],
    state,
    stateName: HOMEWORK_STATE_NAMES[state],
    paperId: r.paperId,
    paperTitle: r.paperTitle,
    stageId: r.stageId,
    stageName: r.stageName,
    subjectId: r.subjectId,
    subjectName: r.subjectName,
    schoolYearId: r.yearId,
    classes: classes
      .filter((c) => c.homeworkId === r.id)
      .map((c) => ({ id: c.classId, name: c.name, studentCount: c.students })),
    startDate: r.startDate,
    dueDate: r.dueDate,
    subjectTeacher: r.subjectTeacher,
    questionCount: r.questionCount,
    totalScore: toPoints(r.totalScoreTenths),
    card: {
      cardId: r.cardId,
      version: r.cardVersion,
      identity: settings.identity,
      size: settings.size,
      columns: columnsOf(settings),
      pageCount: r.cardPageCount,
    },
    createdBy: r.createdBy,
    createdByName: r.createdByName,
    mine: r.createdBy === auth.userId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    permissions: { editCard: canEditCard(r, auth), delete: canDelete(r, auth) },
  };
}

/** A new frozen card version. */
export function newCardVersion(
  orgId: string,
  homeworkId: string,
  userId: string,
  now: string,
  settings: CardSettings,
  paper: CardPaper,
  layout: CardLayout,
): CardVersion {
  return {
    cardId: layout.cardId,
    version: layout.version,
    orgId,
    homeworkId,
    settings,
    paper,
    layout,
    identity: layout.identity,
    pageCount: layout.pages.length,
    createdBy: userId,
    createdAt: now,
  };
}

/** A homework's card at one frozen version, with every version it has had. */
export function homeworkCardOf(
  homework: Homework,
  version: CardVersion,
  versions: Pick<CardVersion, 'version' | 'settings' | 'pageCount' | 'createdAt'>[],
): HomeworkCard {
  return {
    homeworkId: homework.id,
    cardId: version.cardId,
    version: version.version,
    currentVersion: homework.cardVersion,
    settings: version.settings,
    paper: version.paper,
    layout: version.layout,
    versions: versions.map((v): CardVersionInfo => {
      const s = v.settings;
      return {
        version: v.version,
        identity: s.identity,
        size: s.size,
        columns: columnsOf(s),
        pageCount: v.pageCount,
        createdAt: v.createdAt,
      };
    }),
  };
}
