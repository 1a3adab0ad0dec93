import {
  CARD_COLUMNS,
  CardLayoutSchema,
  CardPaperSchema,
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
import { defaultCardSettings, parseCardSettings } from './card-paper.js';
import { canDelete, canEditCard } from './policy.js';
import type { CardVersionRow, HomeworkRepository, HomeworkRow } from './repository.js';

// How homework reads to a caller: its state from the results spine's progress, its summary in lists, the frozen card
// versions it prints. Pure: the service fetches, these shape.

export type ListRow = Awaited<ReturnType<HomeworkRepository['listHomework']>>[number];

export const columnsOf = (s: CardSettings) => s.columns ?? CARD_COLUMNS[s.size][0]!;

/** 待扫描 until a page arrives; 扫描中 until every page has; 阅卷中 while answers wait; then 已完成. */
export function homeworkState(progress: HomeworkProgress | undefined): HomeworkState {
  if (!progress || progress.pages === 0) return 'toScan';
  if (progress.pages < progress.expectedPages) return 'scanning';
  if (progress.answersToMark > 0) return 'marking';
  return 'done';
}

/** A listed homework as a caller sees it (`classes` and `counts` of every listed row, `state` of this one). */
export function summaryOf(
  auth: AuthContext,
  r: ListRow,
  progress: HomeworkProgress | undefined,
  classes: { homework_id: string; class_id: string; name: string }[],
  counts: Map<string, number>,
): HomeworkSummary {
  const state = homeworkState(progress);
  const settings = parseCardSettings(r.card_settings, defaultCardSettings(8));
  const type = r.type === 'test' ? 'test' : 'homework';
  return {
    id: r.id,
    title: r.title,
    type,
    typeName: HOMEWORK_TYPE_NAMES[type],
    state,
    stateName: HOMEWORK_STATE_NAMES[state],
    paperId: r.paper_id,
    paperTitle: r.paper_title,
    stageId: r.stage_id,
    stageName: r.stage_name,
    subjectId: r.subject_id,
    subjectName: r.subject_name,
    schoolYearId: r.year_id,
    classes: classes
      .filter((c) => c.homework_id === r.id)
      .map((c) => ({ id: c.class_id, name: c.name, studentCount: counts.get(c.class_id) ?? 0 })),
    startDate: r.start_date,
    dueDate: r.due_date,
    subjectTeacher: r.subject_teacher === 1,
    questionCount: r.question_count,
    totalScore: toPoints(r.total_score_tenths),
    card: {
      cardId: r.card_id,
      version: r.card_version,
      identity: settings.identity,
      size: settings.size,
      columns: columnsOf(settings),
      pageCount: r.card_page_count,
    },
    createdBy: r.created_by,
    createdByName: r.created_by_name,
    mine: r.created_by === auth.userId,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    permissions: { editCard: canEditCard(r, auth), delete: canDelete(r, auth) },
  };
}

/** The row of a frozen card version. */
export function versionRow(
  orgId: string,
  homeworkId: string,
  userId: string,
  now: string,
  settings: CardSettings,
  paper: CardPaper,
  layout: CardLayout,
): CardVersionRow {
  return {
    card_id: layout.cardId,
    version: layout.version,
    org_id: orgId,
    homework_id: homeworkId,
    settings: JSON.stringify(settings),
    card_paper: JSON.stringify(paper),
    layout: JSON.stringify(layout),
    identity: layout.identity,
    page_count: layout.pages.length,
    created_by: userId,
    created_at: now,
  };
}

/** A homework's card at one frozen version, with every version it has had. */
export function homeworkCardOf(
  row: HomeworkRow,
  version: CardVersionRow,
  versions: Pick<CardVersionRow, 'version' | 'settings' | 'page_count' | 'created_at'>[],
): HomeworkCard {
  const fallback = defaultCardSettings(8);
  return {
    homeworkId: row.id,
    cardId: version.card_id,
    version: version.version,
    currentVersion: row.card_version,
    settings: parseCardSettings(version.settings, fallback),
    paper: CardPaperSchema.parse(JSON.parse(version.card_paper)),
    layout: CardLayoutSchema.parse(JSON.parse(version.layout)),
    versions: versions.map((v): CardVersionInfo => {
      const s = parseCardSettings(v.settings, fallback);
      return {
        version: v.version,
        identity: s.identity,
        size: s.size,
        columns: columnsOf(s),
        pageCount: v.page_count,
        createdAt: v.created_at,
      };
    }),
  };
}
