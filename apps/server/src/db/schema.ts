import type { Generated } from 'kysely';

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
}

export interface LoginFailuresTable {
  /** 'user:<username>' or 'ip:<address>'. */
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
}
