import type { Generated } from 'kysely';
import type { AnswerKindName } from '@zhzy/contracts/scoring';

// Table types assemble one Database interface. Flags are integers 0/1 and timestamps ISO text on both
// databases, so rows look the same on SQLite and PostgreSQL (docs/adr/0003-ids-and-timestamps.md).
type Flag = number;
type Timestamp = string;

export interface OrgsTable {
  id: string;
  name: string;
  logo_path: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  username: string;
  password_hash: string;
  nickname: string;
  avatar: string | null;
  phone: string | null;
  default_org_id: string | null;
  disabled: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  id: string;
  org_id: string;
  user_id: string;
  is_creator: Generated<Flag>;
  is_administrator: Generated<Flag>;
  is_grade_director: Generated<Flag>;
  /** Bumped by every change of the member's basket (0007). */
  basket_version: Generated<number>;
  default_year_id: string | null;
  created_at: Timestamp;
}

export interface SchoolYearsTable {
  id: string;
  org_id: string;
  name: string;
  is_default: Generated<Flag>;
  archived: Generated<Flag>;
  sort: number;
  created_at: Timestamp;
}

export interface ClassesTable {
  id: string;
  org_id: string;
  year_id: string;
  stage_id: string;
  name: string;
  sort: number;
  created_at: Timestamp;
}

export interface StudentsTable {
  id: string;
  org_id: string;
  class_id: string;
  name: string;
  student_no: string;
  gender: string | null;
  created_at: Timestamp;
}

export interface StagesTable {
  id: string;
  name: string;
  sort: number;
}

export interface SubjectsTable {
  id: string;
  stage_id: string;
  name: string;
  sort: number;
}

export interface TextbooksTable {
  id: string;
  subject_id: string;
  publisher: string;
  name: string;
  sort: number;
}

export interface BooknodesTable {
  id: string;
  textbook_id: string;
  parent_id: string | null;
  name: string;
  sort: number;
  depth: number;
}

export interface KnowledgePointsTable {
  id: string;
  subject_id: string;
  parent_id: string | null;
  name: string;
  sort: number;
}

export interface QuestionTypesTable {
  id: string;
  subject_id: string;
  name: string;
  objective: Flag;
  sort: number;
}

export interface QuestionsTable {
  id: string;
  subject_id: string;
  type_id: string;
  /** 'system' | 'school' | 'personal' */
  owner: string;
  org_id: string | null;
  owner_user_id: string | null;
  difficulty: number;
  stem: string;
  /** JSON array of { label, content }. */
  options: string;
  answer: string;
  analysis: string;
  year: number | null;
  source: string | null;
  usage_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  /** Blanks of a 填空题; null for other types. */
  blank_count: number | null;
  /** One of the contracts' AREAS, null when unknown. */
  region: string | null;
  /** The question this one was copied from: an edited copy, or the personal original of a shared one. */
  origin_id: string | null;
  /** 'approved' | 'pending' | 'rejected'; only shared school questions are ever anything but approved. */
  review_status: Generated<string>;
  reviewed_by: string | null;
  reviewed_at: Timestamp | null;
  review_note: string | null;
  /** Deleted for ever while a saved paper still points at it: kept for that paper, shown nowhere else. */
  purged_at: Timestamp | null;
  /** Segmented text for full-text search (see db/dialect.ts); null until indexed. */
  search_tokens: string | null;
}

export interface QuestionBooknodesTable {
  question_id: string;
  booknode_id: string;
}

export interface QuestionKnowledgePointsTable {
  question_id: string;
  knowledge_point_id: string;
}

export interface BasketPapersTable {
  id: string;
  org_id: string;
  user_id: string;
  stage_id: string;
  subject_id: string;
  textbook_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BasketSectionsTable {
  id: string;
  paper_id: string;
  type_id: string;
  sort: number;
}

export interface BasketItemsTable {
  id: string;
  paper_id: string;
  section_id: string;
  question_id: string;
  sort: number;
  created_at: Timestamp;
}

export interface AuthSessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  revoke_reason: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface AccessTokensTable {
  token_hash: string;
  session_id: string;
  user_id: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
  /** The pair that replaced this token, sealed with this token (read within the refresh grace window). */
  successor: string | null;
}

export interface LoginFailuresTable {
  /** 'acct:<user id>', 'pair:<user id>|<address>' or 'addr:<address>' (migration 0026). */
  key: string;
  count: number;
  window_start: Timestamp;
  locked_until: Timestamp | null;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface PapersTable {
  id: string;
  /** 'system' (shipped templates) | 'personal' */
  owner: string;
  org_id: string | null;
  owner_user_id: string | null;
  title: string;
  subtitle: string;
  stage_id: string;
  subject_id: string;
  textbook_id: string | null;
  /** 'draft' | 'final' */
  status: string;
  /** 'basket' | 'smart' | 'template' | 'copy' | 'word' | 'blank' */
  source: string;
  basket_paper_id: string | null;
  /** JSON array of question ids. */
  basket_seen: string;
  /** JSON of PaperSettings. */
  settings: string;
  version: number;
  content_hash: string;
  shared_at: Timestamp | null;
  is_template: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface PaperSectionsTable {
  id: string;
  paper_id: string;
  type_id: string | null;
  title: string;
  note: string;
  default_score_tenths: number;
  sort: number;
}

export interface PaperItemsTable {
  id: string;
  paper_id: string;
  section_id: string;
  question_id: string;
  score_tenths: number | null;
  sort: number;
}

export interface Database {
  orgs: OrgsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  school_years: SchoolYearsTable;
  classes: ClassesTable;
  students: StudentsTable;
  stages: StagesTable;
  subjects: SubjectsTable;
  textbooks: TextbooksTable;
  booknodes: BooknodesTable;
  knowledge_points: KnowledgePointsTable;
  question_types: QuestionTypesTable;
  questions: QuestionsTable;
  question_booknodes: QuestionBooknodesTable;
  question_knowledge_points: QuestionKnowledgePointsTable;
  basket_papers: BasketPapersTable;
  basket_sections: BasketSectionsTable;
  basket_items: BasketItemsTable;
  auth_sessions: AuthSessionsTable;
  access_tokens: AccessTokensTable;
  refresh_tokens: RefreshTokensTable;
  login_failures: LoginFailuresTable;
  captchas: CaptchasTable;
  meta: MetaTable;
  papers: PapersTable;
  paper_sections: PaperSectionsTable;
  paper_items: PaperItemsTable;
}

// Scan intake (migration 0004-scan): merged into Database below.
export interface ScanBatchesTable {
  id: string;
  org_id: string;
  user_id: string;
  school_year_id: string | null;
  subject_teacher: Generated<Flag>;
  /** 'agent' | 'upload' */
  source: string;
  device_name: string | null;
  paper_size: number | null;
  /** The homework the scan was started from (migration 0026), or null. */
  homework_id: string | null;
  upload_token_hash: string;
  upload_token_expires_at: Timestamp;
  created_at: Timestamp;
}

export interface ScanPagesTable {
  id: string;
  org_id: string;
  batch_id: string;
  seq: number;
  name: string | null;
  /** SHA-256 of the stored bytes, hex; unique per school. */
  content_hash: string;
  /** 'jpeg' | 'png' | 'tiff' */
  format: string;
  /** Relative to DATA_DIR. */
  file_path: string;
  size: number;
  width: number;
  height: number;
  dpi: number | null;
  side: string | null;
  blank: Generated<Flag>;
  source: string;
  /** 'received' (recognition adds later states). */
  status: string;
  created_by: string;
  created_at: Timestamp;
}

export interface Database {
  scan_batches: ScanBatchesTable;
  scan_pages: ScanPagesTable;
}

// Homework and answer cards (migration 0005-homework): merged into Database below.
export interface AnswerCardsTable {
  /** The card's id is its paper's id. */
  paper_id: string;
  org_id: string;
  /** JSON of CardSettings. */
  settings: string;
  saved: Generated<Flag>;
  latest_version: Generated<number>;
  updated_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface HomeworkTable {
  id: string;
  org_id: string;
  year_id: string;
  /** 'homework' | 'test' */
  type: string;
  title: string;
  paper_id: string;
  paper_title: string;
  stage_id: string;
  subject_id: string;
  /** YYYY-MM-DD */
  start_date: string;
  due_date: string;
  subject_teacher: Generated<Flag>;
  /** 纸上批阅: written questions with score boxes are marked on paper (migration 0032). */
  paper_marking: Generated<Flag>;
  question_count: number;
  total_score_tenths: number;
  /** JSON of HomeworkPaper. */
  paper_snapshot: string;
  card_id: string;
  card_version: number;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface HomeworkClassesTable {
  homework_id: string;
  class_id: string;
  sort: number;
}

export interface CardVersionsTable {
  card_id: string;
  version: number;
  org_id: string;
  homework_id: string;
  /** JSON of CardSettings, CardPaper and CardLayout. */
  settings: string;
  card_paper: string;
  layout: string;
  /** 'qr' | 'bubbles' | 'barcode' */
  identity: string;
  page_count: number;
  created_by: string;
  created_at: Timestamp;
}

export interface Database {
  answer_cards: AnswerCardsTable;
  homework: HomeworkTable;
  homework_classes: HomeworkClassesTable;
  card_versions: CardVersionsTable;
}

// Schools, teams and accounts (migration 0006-school): new columns merged into the tables above, and new tables.
export interface OrgsTable {
  region: string | null;
  address: string | null;
  phone: string | null;
  intro: string | null;
  created_by: string | null;
  /** IANA time zone (migration 0030), Asia/Shanghai unless the school sets another. */
  time_zone: Generated<string>;
}

export interface ClassesTable {
  /** 七年级 …; null when unknown. */
  grade: string | null;
}

export interface SchoolYearsTable {
  graduated_at: Timestamp | null;
}

export interface StudentsTable {
  /** Optional here only because older code builds whole student rows without it. */
  graduated_at?: Timestamp | null;
}

export interface SchoolSubjectsTable {
  org_id: string;
  subject_id: string;
}

export interface GradeDirectorsTable {
  org_id: string;
  grade: string;
  user_id: string;
  created_at: Timestamp;
}

export interface MemberSubjectsTable {
  org_id: string;
  user_id: string;
  subject_id: string;
  sort: number;
}

export interface TeachingAssignmentsTable {
  org_id: string;
  user_id: string;
  subject_id: string;
  class_id: string;
}

export interface TeachingGroupsTable {
  id: string;
  org_id: string;
  name: string;
  /** 'research' (教研组) | 'preparation' (备课组) */
  kind: string;
  subject_id: string | null;
  grade: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeachingGroupMembersTable {
  group_id: string;
  user_id: string;
  is_leader: Generated<Flag>;
  created_at: Timestamp;
}

export interface InvitationsTable {
  id: string;
  org_id: string;
  token_hash: string;
  /** 'teacher' | 'administrator' | 'gradeDirector' */
  role: string;
  grade: string | null;
  max_uses: number;
  used_count: Generated<number>;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  created_by: string;
  created_at: Timestamp;
}

export interface InvitationUsesTable {
  invitation_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface SmsCodesTable {
  id: string;
  phone: string;
  /** 'register' | 'login' | 'reset' | 'bind' */
  purpose: string;
  code_hash: string;
  ip: string | null;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface FeedbackTable {
  id: string;
  org_id: string | null;
  user_id: string;
  type: string;
  content: string;
  contact: string | null;
  /** 'pending' | 'replied' */
  status: string;
  reply: string | null;
  replied_by: string | null;
  replied_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FeedbackImagesTable {
  id: string;
  user_id: string;
  feedback_id: string | null;
  /** Relative to DATA_DIR/files. */
  path: string;
  sort: Generated<number>;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: string;
  org_id: string;
  actor_id: string | null;
  action: string;
  target_id: string | null;
  detail: string;
  created_at: Timestamp;
}

export interface Database {
  school_subjects: SchoolSubjectsTable;
  grade_directors: GradeDirectorsTable;
  member_subjects: MemberSubjectsTable;
  teaching_assignments: TeachingAssignmentsTable;
  teaching_groups: TeachingGroupsTable;
  teaching_group_members: TeachingGroupMembersTable;
  invitations: InvitationsTable;
  invitation_uses: InvitationUsesTable;
  sms_codes: SmsCodesTable;
  feedback: FeedbackTable;
  feedback_images: FeedbackImagesTable;
  audit_log: AuditLogTable;
}

// Results (migration 0008-results): merged into Database below.
export type SheetReviewStatus = 'pending' | 'confirmed';

export interface SheetsTable {
  id: string;
  org_id: string;
  homework_id: string;
  student_id: string;
  class_id: string;
  card_id: string;
  card_version: number;
  pages_expected: number;
  pages_received: Generated<number>;
  review_status: Generated<SheetReviewStatus>;
  objective_score_tenths: Generated<number>;
  subjective_score_tenths: Generated<number>;
  total_score_tenths: Generated<number>;
  unscored_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Its homework's results version at the sheet's last write (migration 0022, ADR 0030). */
  results_version: Generated<number>;
  /**
   * Every answer of the sheet as one JSON text, written by the results spine with the answers (migration 0024,
   * ADR 0033; without question ids since migration 0025, ADR 0037: `packAnswers`); null when not packed (the answer
   * rows are read instead).
   */
  answers_packed: string | null;
}

/** Every kind of answer on a sheet (`ANSWER_KINDS` of the shared scoring rules, ADR 0051). */
export type AnswerKind = AnswerKindName;
export type ResponseStatus = 'ok' | 'blank' | 'multiple' | 'uncertain';
/** 'paper': read from the card's score box, or typed from it by a person (纸上批阅, ADR 0065). */
export type ScoreSource =
  'auto' | 'override' | 'marker' | 'group' | 'double' | 'arbitration' | 'seed' | 'paper';

export interface SheetAnswersTable {
  sheet_id: string;
  org_id: string;
  homework_id: string;
  question_id: string;
  kind: AnswerKind;
  response: string | null;
  response_status: ResponseStatus | null;
  crop_path: string | null;
  blank: Generated<number>;
  full_score_tenths: number;
  score_tenths: number | null;
  score_source: ScoreSource | null;
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface ScoreChangesTable {
  id: string;
  org_id: string;
  homework_id: string;
  sheet_id: string;
  question_id: string;
  user_id: string | null;
  reason: string;
  before_response: string | null;
  after_response: string | null;
  before_score_tenths: number | null;
  after_score_tenths: number | null;
  created_at: Timestamp;
}

export interface Database {
  sheets: SheetsTable;
  sheet_answers: SheetAnswersTable;
  score_changes: ScoreChangesTable;
}

// A teacher's default paper settings (migration 0016-paper-setting-defaults).
export interface PaperSettingDefaultsTable {
  user_id: string;
  settings: string;
  updated_at: Timestamp;
}

export interface Database {
  paper_setting_defaults: PaperSettingDefaultsTable;
}
// Recognition (migration 0009-recognition): merged into Database below.
export type RecognitionPageStatus = 'queued' | 'done' | 'failed' | 'ignored' | 'rescanned';

export interface RecognitionPagesTable {
  page_id: string;
  org_id: string;
  batch_id: string;
  status: RecognitionPageStatus;
  outcome: 'ok' | 'review' | 'failed' | null;
  card_id: string | null;
  card_version: number | null;
  page_no: number | null;
  homework_id: string | null;
  student_id: string | null;
  sheet_id: string | null;
  identity_source: string | null;
  residual_mm: number | null;
  total_ms: number | null;
  /** JSON of PageRecognition. */
  result: string | null;
  attempts: Generated<number>;
  error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RecognitionExceptionsTable {
  id: string;
  org_id: string;
  batch_id: string;
  page_id: string | null;
  homework_id: string | null;
  sheet_id: string | null;
  student_id: string | null;
  page_no: number | null;
  code: string;
  message: string;
  /** JSON array of question ids. */
  question_ids: string;
  status: Generated<'open' | 'resolved'>;
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AnswerKeysTable {
  homework_id: string;
  question_id: string;
  org_id: string;
  answer: string;
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface ScoringRulesTable {
  homework_id: string;
  org_id: string;
  partial_rule: 'half' | 'zero' | 'proportional';
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface Database {
  recognition_pages: RecognitionPagesTable;
  recognition_exceptions: RecognitionExceptionsTable;
  answer_keys: AnswerKeysTable;
  scoring_rules: ScoringRulesTable;
}
// Marking on screen (migration 0010-marking): merged into Database below.
export interface MarkBlocksTable {
  id: string;
  org_id: string;
  homework_id: string;
  title: string;
  sort: number;
  /** JSON array of paper question ids. */
  question_ids: string;
  /** 'single' | 'double' */
  mode: Generated<string>;
  threshold_tenths: Generated<number>;
  /** 'mean' | 'max' | 'min' */
  average_rule: Generated<string>;
  half_points: Generated<Flag>;
  /** 'question' | 'class' */
  assign_by: Generated<string>;
  arbiter_id: string | null;
  rubric: Generated<string>;
  /** JSON array of strings. */
  comments: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MarkMarkersTable {
  block_id: string;
  user_id: string;
  /** '' when the marker marks every class. */
  class_id: string;
}

export interface MarkMarksTable {
  id: string;
  org_id: string;
  block_id: string;
  sheet_id: string;
  user_id: string;
  /** 'mark' | 'arbitration' | 'group' */
  kind: string;
  /** JSON object question id → tenths. */
  scores: string;
  total_tenths: number;
  /** JSON array of annotations. */
  annotations: Generated<string>;
  comment: Generated<string>;
  /** JSON object question id → applied rubric item ids (0031). */
  rubric: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A rubric item (评分项) of a homework's question (0031). */
export interface MarkRubricItemsTable {
  id: string;
  org_id: string;
  homework_id: string;
  question_id: string;
  sort: number;
  label: string;
  /** Signed: a deduction is negative. */
  points_tenths: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MarkProblemsTable {
  block_id: string;
  sheet_id: string;
  user_id: string;
  note: string;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
}

export interface MarkClaimsTable {
  block_id: string;
  sheet_id: string;
  user_id: string;
  expires_at: Timestamp;
}

export interface MarkCropHashesTable {
  crop_path: string;
  hash: string;
}

export interface Database {
  mark_blocks: MarkBlocksTable;
  mark_markers: MarkMarkersTable;
  mark_marks: MarkMarksTable;
  mark_problems: MarkProblemsTable;
  mark_claims: MarkClaimsTable;
  mark_crop_hashes: MarkCropHashesTable;
  mark_rubric_items: MarkRubricItemsTable;
  mark_items: MarkItemsTable;
  mark_item_counts: MarkItemCountsTable;
}

/** Where one item (a sheet's answers to a block) stands, as its block's counters hold it (migration 0033, ADR 0071). */
export interface MarkItemsTable {
  block_id: string;
  sheet_id: string;
  class_id: string;
  /** Every answer of the item has a score. */
  done: number;
  /** An open problem is flagged on it. */
  problem: number;
  /** 'open' | 'final' | 'arbitration' */
  state: string;
  /** Marks (not arbitrations) given, at most the marks required. */
  given: number;
  /** JSON array of the users who gave one of its marks (arbitrations too), sorted. */
  users: string;
}

/** Items of a block per class and state (user ''), and per user for the items that user marked (0033). */
export interface MarkItemCountsTable {
  block_id: string;
  class_id: string;
  /** '' for every item; a user's id for the items they marked. */
  user_id: string;
  done: number;
  problem: number;
  state: string;
  given: number;
  items: number;
}
// ───────────── 0011 analysis ─────────────

export interface AnalysisSettingsTable {
  org_id: string;
  /** JSON of the contracts' AnalysisSettings. */
  settings: string;
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface Database {
  analysis_settings: AnalysisSettingsTable;
}
// School materials (migration 0012-materials): merged into Database below.
export type MaterialKindColumn = 'pdf' | 'word' | 'image';

export interface MaterialFoldersTable {
  id: string;
  org_id: string;
  parent_id: string | null;
  name: string;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MaterialsTable {
  id: string;
  org_id: string;
  folder_id: string | null;
  name: string;
  ext: string;
  kind: MaterialKindColumn;
  mime: string;
  size_bytes: number;
  sha256: string;
  /** Relative to DATA_DIR (materials/<school>/<uuid>.<ext>). */
  path: string;
  page_count: number | null;
  width: number | null;
  height: number | null;
  uploaded_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  deleted_by: string | null;
}

export interface MaterialLinksTable {
  token_hash: string;
  material_id: string;
  user_id: string;
  expires_at: Timestamp;
}

export interface Database {
  material_folders: MaterialFoldersTable;
  materials: MaterialsTable;
  material_links: MaterialLinksTable;
}

/** Versions validating analysis caches (migration 0017, ADR 0021): a homework id or 'context'. */
export interface AnalysisVersionsTable {
  key: string;
  version: number;
}

export interface Database {
  analysis_versions: AnalysisVersionsTable;
}

/**
 * PostgreSQL only (migration 0021, ADR 0024): a narrow copy of each question's filter and sort columns with its
 * full-text vector, kept in step with `questions` by a trigger. Full-text searches read it instead of the wide
 * question rows; nothing writes it directly.
 */
export type QuestionSearchRowsTable = Pick<
  QuestionsTable,
  | 'id'
  | 'subject_id'
  | 'type_id'
  | 'owner'
  | 'org_id'
  | 'owner_user_id'
  | 'difficulty'
  | 'year'
  | 'source'
  | 'usage_count'
  | 'created_at'
  | 'deleted_at'
  | 'region'
  | 'review_status'
>;

export interface Database {
  question_search_rows: QuestionSearchRowsTable;
}

/** A score box read on a scanned sheet of a homework marked on paper (纸上批阅, migration 0032, ADR 0065). */
export interface PaperScoresTable {
  id: string;
  org_id: string;
  homework_id: string;
  sheet_id: string;
  student_id: string;
  question_id: string;
  page_id: string | null;
  state: 'scored' | 'doubtful' | 'resolved' | 'onScreen';
  read_tenths: number | null;
  reason: string | null;
  colour: Generated<Flag>;
  crop_path: string | null;
  exception_id: string | null;
  resolved_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  paper_scores: PaperScoresTable;
}
