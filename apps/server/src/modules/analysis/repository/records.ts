import type { AnalysisSettings } from '@zhzy/contracts';

// The domain types analysis's repository answers (ADR 0073), and the one mapper of its homework query.

/** The school's saved analysis settings (parsed by their schema; defaults where the stored text is not valid). */
export interface SavedSettings {
  settings: AnalysisSettings;
  updatedAt: string;
}

/** The caller's roles in a school and their chosen school year. */
export interface MembershipRoles {
  isCreator: boolean;
  isAdministrator: boolean;
  isGradeDirector: boolean;
  defaultYearId: string | null;
}

export interface SchoolOrg {
  id: string;
  name: string;
  logoPath: string | null;
  timeZone: string;
}

export interface SchoolYear {
  id: string;
  name: string;
  isDefault: boolean;
}

export interface ClassRef {
  id: string;
  name: string;
  sort: number;
}

export interface ClassOfYear {
  id: string;
  name: string;
  yearId: string;
}

/** A student with their class (class order, then student number). */
export interface ClassStudent {
  id: string;
  name: string;
  studentNo: string;
  classId: string;
  className: string;
  classSort: number;
}

export interface StudentRecord {
  id: string;
  name: string;
  studentNo: string;
  classId: string;
  className: string;
  yearId: string;
}

/** A published homework as analysis reads it (its subject, stage and creator's names joined). */
export interface HomeworkRecord {
  id: string;
  orgId: string;
  yearId: string;
  type: string;
  title: string;
  subjectId: string;
  startDate: string;
  dueDate: string;
  questionCount: number;
  totalScoreTenths: number;
  createdAt: string;
  subjectName: string;
  stageName: string;
  creatorNickname: string | null;
  creatorUsername: string | null;
}

/** A class a homework was published to. */
export interface HomeworkClass {
  homeworkId: string;
  classId: string;
  sort: number;
  name: string;
  classSort: number;
}

export interface SheetStudent {
  id: string;
  studentId: string;
}

/** A sheet's total, as trends and the data centre read it. */
export interface SheetTotal {
  homeworkId: string;
  studentId: string;
  classId: string;
  totalScoreTenths: number;
  unscoredCount: number;
  createdAt: string;
}

export type ScoredTotal = Pick<SheetTotal, 'homeworkId' | 'studentId' | 'classId' | 'totalScoreTenths'>;

export interface PendingSheets {
  homeworkId: string;
  classId: string;
  n: number;
}

/** One answer of a student (student analysis, 错题本). */
export interface StudentAnswer {
  homeworkId: string;
  questionId: string;
  response: string | null;
  blank: boolean;
  cropPath: string | null;
  scoreTenths: number | null;
  fullScoreTenths: number;
}

/** Score sums of one question of one homework over all sheets. */
export interface QuestionSum {
  homeworkId: string;
  questionId: string;
  scored: number;
  full: number;
}

/** A score given by a person (the score log). */
export interface MarkerChange {
  sheetId: string;
  questionId: string;
  userId: string | null;
  afterScoreTenths: number | null;
  createdAt: string;
}

/** The columns of analysis's homework query (homeworkQuery). */
export interface HomeworkRow {
  id: string;
  org_id: string;
  year_id: string;
  type: string;
  title: string;
  subject_id: string;
  start_date: string;
  due_date: string;
  question_count: number;
  total_score_tenths: number;
  created_at: string;
  subject_name: string;
  stage_name: string;
  creator_nickname: string | null;
  creator_username: string | null;
}

/** The one mapper of analysis's homework reads. */
export function toHomework(r: HomeworkRow): HomeworkRecord {
  return {
    id: r.id,
    orgId: r.org_id,
    yearId: r.year_id,
    type: r.type,
    title: r.title,
    subjectId: r.subject_id,
    startDate: r.start_date,
    dueDate: r.due_date,
    questionCount: r.question_count,
    totalScoreTenths: r.total_score_tenths,
    createdAt: r.created_at,
    subjectName: r.subject_name,
    stageName: r.stage_name,
    creatorNickname: r.creator_nickname,
    creatorUsername: r.creator_username,
  };
}
