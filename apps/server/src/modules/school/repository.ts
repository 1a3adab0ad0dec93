import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { AuditLogRepository } from './repository/audit-log.js';
import { GroupsRepository } from './repository/groups.js';
import { InvitationsRepository } from './repository/invitations.js';
import { MembersRepository } from './repository/members.js';
import { StudentsRepository } from './repository/students.js';
import { TeachingRepository } from './repository/teaching.js';
import { YearsRepository } from './repository/years.js';

export type { AuditRecord } from './repository/audit-log.js';
export type {
  GroupChange,
  GroupMember,
  GroupOfMember,
  NewGroup,
  TeachingGroup,
} from './repository/groups.js';
export type { InvitationRecord, InvitationToJoin, InvitationUse } from './repository/invitations.js';
export type {
  GradeDirector,
  MemberRecord,
  Membership,
  NewSchool,
  School,
  SchoolChange,
  SchoolUser,
} from './repository/members.js';
export type { NewStudent, StudentChange, StudentFilter, StudentRecord } from './repository/students.js';
export type { CatalogueSubject, MemberSubject, TeachingClass } from './repository/teaching.js';
export type {
  ClassInYear,
  NewClass,
  SchoolClass,
  SchoolYear,
  SchoolYearWithCounts,
  YearChange,
} from './repository/years.js';

/**
 * The school module's SQL, one file per data area under `repository/`: schools, members and grade directors; years
 * and classes; subjects and teaching; students; teaching groups; invitations; the audit log.
 */
export class SchoolRepository {
  readonly members: MembersRepository;
  readonly years: YearsRepository;
  readonly teaching: TeachingRepository;
  readonly students: StudentsRepository;
  readonly groups: GroupsRepository;
  readonly invitations: InvitationsRepository;
  readonly auditLog: AuditLogRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {
    this.members = new MembersRepository(db, dialect);
    this.years = new YearsRepository(db, dialect);
    this.teaching = new TeachingRepository(db, dialect);
    this.students = new StudentsRepository(db, dialect);
    this.groups = new GroupsRepository(db, dialect);
    this.invitations = new InvitationsRepository(db, dialect);
    this.auditLog = new AuditLogRepository(db, dialect);
  }

  /** Runs `fn` in one transaction, with a repository bound to it. */
  transaction<T>(fn: (repo: SchoolRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new SchoolRepository(trx, this.dialect)));
  }
}
