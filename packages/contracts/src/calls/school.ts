import { z } from 'zod';
import { FlagSchema, IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import { AREAS } from '../constants.js';
import { isTimeZone } from '../dates.js';
import { FORM_MESSAGES } from '../messages.js';
import { PasswordSchema, UsernameSchema } from './auth.js';
import { ImageFileSchema, ImageUploadFieldsSchema, NicknameSchema } from './account.js';
import { defineCall } from './define.js';
import { MATERIAL_AUDIT_ACTIONS } from './materials.js';

/*
 * Schools and teams (/team/details, /team/member, /team/group, /invite): a school's details and logo, school years
 * and their classes, subjects per stage, grade directors, students (Excel import and export, graduation), members
 * with their roles and teaching, teaching groups, invitations, and the audit log of administrative actions.
 *
 * Every call is scoped to one school. Calls on a school take an optional `orgId` (the caller's current school when
 * absent) and answer 403 when the caller is not its member; calls on a row (a year, class, student, member, group,
 * invitation) find the school from the row and answer 404 when it is not the caller's. Roles always come from the
 * host's own membership records, never from the request (the route's isCreator / isAdministrator are hints only).
 */

/** Chinese messages of school and team calls. */
export const SCHOOL_MESSAGES = {
  noSchool: '您尚未加入任何学校',
  schoolNameRequired: '请输入学校名称',
  tooManySchools: '每个账号最多创建10所学校',
  yearNameRequired: '请输入学年名称',
  yearNotFound: '学年不存在',
  yearExists: (name: string) => `学年“${name}”已存在`,
  yearArchived: '学年已归档，不能修改其班级或学生',
  yearGraduated: '该学年已毕业',
  yearGraduatedRestore: '已毕业的学年不能恢复',
  classNameRequired: '请输入班级名称',
  classNotFound: '班级不存在',
  classExists: (name: string) => `班级“${name}”已存在`,
  classHasStudents: '班级中还有学生，请先移出或删除学生后再删除班级',
  classHasHomework: '该班级已布置过作业，不能删除',
  subjectNotFound: '学科不存在',
  subjectNotOffered: (name: string) => `学校未开设学科“${name}”`,
  gradeInvalid: '年级不正确',
  stageNotFound: '学段不存在',
  studentNotFound: '学生不存在',
  studentNameRequired: '请输入学生姓名',
  studentNoRequired: '请输入学号',
  studentNoFormat: '学号只能包含字母、数字和短横线，最多32位',
  studentNoTaken: (no: string) => `学号 ${no} 已存在`,
  studentGraduated: '已毕业的学生不能调班',
  sameClass: '学生已在该班级中',
  importFile: '请选择要导入的 Excel 文件（.xlsx）',
  importNotXlsx: '文件不是有效的 Excel 文件（.xlsx），请使用下载的模板填写',
  importTooLarge: 'Excel 文件过大（不能超过5MB）',
  importEmpty: '表格中没有学生数据',
  importTooManyRows: (max: number) => `一次最多导入${max}名学生`,
  importMissingHeader: (names: string) => `缺少表头：${names}（请使用下载的模板）`,
  importFailed: (rows: number) => `导入失败：共${rows}行有误，未导入任何学生`,
  importDone: (n: number) => `成功导入${n}名学生`,
  memberNotFound: '成员不存在',
  creatorIsAdmin: '学校创建者始终是管理员',
  cannotRemoveCreator: '不能移除学校创建者',
  lastAdministrator: '您是学校唯一的管理员，不能取消自己的管理员身份或退出学校',
  groupNotFound: '教研组或备课组不存在',
  groupNameRequired: '请输入组名',
  groupExists: (name: string) => `“${name}”已存在`,
  groupMemberNotInSchool: '所选成员不属于本校',
  inviteInvalid: '邀请链接无效，请向学校管理员重新获取',
  inviteExpired: '邀请链接已过期，请向学校管理员重新获取',
  inviteRevoked: '邀请已被撤销，请向学校管理员重新获取',
  inviteUsedUp: '邀请名额已用完，请向学校管理员重新获取',
  inviteNotFound: '邀请不存在',
  inviteGradeRequired: '邀请年级主任时请选择年级',
  alreadyMember: '您已经是该学校的成员',
  joined: (name: string) => `已加入${name}`,
  registeredAndJoined: (name: string) => `注册成功，已加入${name}`,
} as const;

/** Grades a class belongs to and a grade director directs. */
export const GRADES = [
  '一年级',
  '二年级',
  '三年级',
  '四年级',
  '五年级',
  '六年级',
  '七年级',
  '八年级',
  '九年级',
  '高一',
  '高二',
  '高三',
] as const;
export const GradeSchema = z.enum(GRADES, { error: SCHOOL_MESSAGES.gradeInvalid });
export type Grade = z.infer<typeof GradeSchema>;
/** The stage (学段) of each grade, by the stage's name in the catalogue. */
export const GRADE_STAGE_NAMES: Record<Grade, string> = {
  一年级: '小学',
  二年级: '小学',
  三年级: '小学',
  四年级: '小学',
  五年级: '小学',
  六年级: '小学',
  七年级: '初中',
  八年级: '初中',
  九年级: '初中',
  高一: '高中',
  高二: '高中',
  高三: '高中',
};

/** A member's roles (SPEC §6): the creator, administrators, grade directors and teachers. */
export const SCHOOL_ROLES = ['creator', 'administrator', 'gradeDirector', 'teacher'] as const;
export const SchoolRoleSchema = z.enum(SCHOOL_ROLES);
export type SchoolRole = z.infer<typeof SchoolRoleSchema>;
export const SCHOOL_ROLE_NAMES: Record<SchoolRole, string> = {
  creator: '创建者',
  administrator: '管理员',
  gradeDirector: '年级主任',
  teacher: '教师',
};

/** 教研组 (one subject across grades) and 备课组 (one subject in one grade). */
export const GROUP_KINDS = ['research', 'preparation'] as const;
export const GroupKindSchema = z.enum(GROUP_KINDS, { error: '请选择教研组或备课组' });
export type GroupKind = z.infer<typeof GroupKindSchema>;
export const GROUP_KIND_NAMES: Record<GroupKind, string> = { research: '教研组', preparation: '备课组' };

/** Roles an invitation may give. */
export const INVITE_ROLES = ['teacher', 'administrator', 'gradeDirector'] as const;
export const InviteRoleSchema = z.enum(INVITE_ROLES, { error: '请选择邀请的身份' });
export type InviteRole = z.infer<typeof InviteRoleSchema>;

export const INVITE_STATUSES = ['active', 'expired', 'revoked', 'usedUp'] as const;
export const InviteStatusSchema = z.enum(INVITE_STATUSES);
export type InviteStatus = z.infer<typeof InviteStatusSchema>;
export const INVITE_STATUS_NAMES: Record<InviteStatus, string> = {
  active: '有效',
  expired: '已过期',
  revoked: '已撤销',
  usedUp: '已用完',
};

/** Limits of invitations and imports. */
export const INVITE_LIMITS = { maxUses: 500, maxDays: 30, defaultDays: 7, defaultUses: 50 } as const;
export const STUDENT_IMPORT_LIMITS = { maxBytes: 5 * 1024 * 1024, maxRows: 3000 } as const;
/** The Excel columns of the student template, import and export, in order. */
export const STUDENT_COLUMNS = ['姓名', '学号', '班级', '性别'] as const;
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const OrgIdQuery = z.object({ orgId: IdSchema.optional() });
const IdParams = z.object({ id: IdSchema });
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label}最多${max}个字`)
    .nullable()
    .optional()
    .transform((v) => (v ? v : v === undefined ? undefined : null));

/** A file answer (Excel): bytes on the host, a Blob in the browser. */
export const XlsxFileSchema = z.custom<Blob | Uint8Array>(
  (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
  { message: '应为 Excel 文件' },
);

// ───────────── the school ─────────────

export const RoleFlagsSchema = z.object({
  isCreator: z.boolean(),
  isAdministrator: z.boolean(),
  isGradeDirector: z.boolean(),
});

export const SchoolDetailSchema = z.object({
  id: IdSchema,
  name: z.string(),
  /** URL of the logo (under /files/logos/), null when none; user info's orgLogo shows the same. */
  logoUrl: z.string().nullable(),
  logoPath: z.string().nullable(),
  region: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  intro: z.string().nullable(),
  createdAt: TimestampSchema,
  creator: z.object({ userId: IdSchema, nickname: z.string() }).nullable(),
  /** The caller in this school, from the host's records (not from the route's query). */
  me: RoleFlagsSchema.extend({
    memberId: IdSchema,
    /** Administrator rights: the creator or an administrator. */
    canManage: z.boolean(),
    isDefault: z.boolean(),
    grades: z.array(z.string()),
  }),
  counts: z.object({
    members: z.number().int(),
    years: z.number().int(),
    classes: z.number().int(),
    students: z.number().int(),
    groups: z.number().int(),
  }),
  defaultYear: z.object({ id: IdSchema, name: z.string() }).nullable(),
  /** The school's time zone (IANA), Asia/Shanghai unless set: "today" and default titles follow it. */
  timeZone: z.string(),
});
export type SchoolDetail = z.infer<typeof SchoolDetailSchema>;

/** The detail route's query (SPEC §2): orgId picks the school; isCreator / isAdministrator are ignored hints. */
export const SchoolDetailQuerySchema = z.object({
  orgId: IdSchema.optional(),
  isCreator: z.string().max(10).optional(),
  isAdministrator: z.string().max(10).optional(),
});

const RegionSchema = z.enum(AREAS, { error: '请选择所在地区' }).nullable().optional();

export const CreateSchoolSchema = z.object({
  name: z
    .string({ error: SCHOOL_MESSAGES.schoolNameRequired })
    .trim()
    .min(1, SCHOOL_MESSAGES.schoolNameRequired)
    .max(50, '学校名称最多50个字'),
  region: RegionSchema,
  address: optionalText(100, '地址'),
  phone: optionalText(30, '联系电话'),
  intro: optionalText(500, '简介'),
  /** Subjects offered; when none are chosen every subject of the catalogue is offered. */
  subjectIds: z.array(IdSchema).max(100).optional(),
});
export type CreateSchool = z.input<typeof CreateSchoolSchema>;

export const UpdateSchoolSchema = z.object({
  orgId: IdSchema.optional(),
  name: z
    .string({ error: SCHOOL_MESSAGES.schoolNameRequired })
    .trim()
    .min(1, SCHOOL_MESSAGES.schoolNameRequired)
    .max(50, '学校名称最多50个字')
    .optional(),
  region: RegionSchema,
  address: optionalText(100, '地址'),
  phone: optionalText(30, '联系电话'),
  intro: optionalText(500, '简介'),
  timeZone: z.string().trim().refine(isTimeZone, '请选择有效的时区').optional(),
});
export type UpdateSchool = z.input<typeof UpdateSchoolSchema>;

export const LogoUploadSchema = ImageUploadFieldsSchema.extend({
  orgId: IdSchema.optional(),
  file: ImageFileSchema,
});
export const LogoSchema = z.object({ logoUrl: z.string(), logoPath: z.string() });

// ───────────── school years and classes ─────────────

export const SchoolYearInfoSchema = z.object({
  id: IdSchema,
  name: z.string(),
  /** The school's default (members who chose none see this one). */
  isDefault: z.boolean(),
  archived: z.boolean(),
  graduated: z.boolean(),
  graduatedAt: TimestampSchema.nullable(),
  classCount: z.number().int(),
  studentCount: z.number().int(),
  createdAt: TimestampSchema,
});
export type SchoolYearInfo = z.infer<typeof SchoolYearInfoSchema>;

export const SchoolYearsQuerySchema = OrgIdQuery.extend({ includeArchived: FlagSchema.optional() });

const YearNameSchema = z
  .string({ error: SCHOOL_MESSAGES.yearNameRequired })
  .trim()
  .min(1, SCHOOL_MESSAGES.yearNameRequired)
  .max(30, '学年名称最多30个字');

export const CreateSchoolYearSchema = z.object({
  orgId: IdSchema.optional(),
  name: YearNameSchema,
  isDefault: z.boolean().default(false),
});
export const RenameSchoolYearSchema = z.object({ name: YearNameSchema });
export const ArchiveSchoolYearSchema = z.object({ archived: z.boolean() });
export const GraduatedYearSchema = z.object({
  year: SchoolYearInfoSchema,
  graduatedStudents: z.number().int(),
});

export const ClassInfoSchema = z.object({
  id: IdSchema,
  name: z.string(),
  grade: z.string().nullable(),
  stageId: IdSchema,
  stageName: z.string(),
  yearId: IdSchema,
  studentCount: z.number().int(),
});
export type ClassInfo = z.infer<typeof ClassInfoSchema>;

export const ClassesQuerySchema = z.object({ yearId: IdSchema });

const ClassNameSchema = z
  .string({ error: SCHOOL_MESSAGES.classNameRequired })
  .trim()
  .min(1, SCHOOL_MESSAGES.classNameRequired)
  .max(30, '班级名称最多30个字');

export const CreateClassSchema = z.object({
  yearId: IdSchema,
  name: ClassNameSchema,
  /** When absent, taken from the name when it starts with a grade (七年级(1)班). */
  grade: GradeSchema.nullable().optional(),
  /** When absent, the stage of the grade (or the catalogue's first stage). */
  stageId: IdSchema.optional(),
});
export const UpdateClassSchema = z.object({
  name: ClassNameSchema.optional(),
  grade: GradeSchema.nullable().optional(),
});

// ───────────── subjects and grade directors ─────────────

export const OfferedSubjectsSchema = z.array(
  z.object({
    stageId: IdSchema,
    stageName: z.string(),
    subjects: z.array(z.object({ id: IdSchema, name: z.string(), offered: z.boolean() })),
  }),
);
export type OfferedSubjects = z.infer<typeof OfferedSubjectsSchema>;
export const SetSchoolSubjectsSchema = z.object({
  orgId: IdSchema.optional(),
  subjectIds: z.array(IdSchema).max(100),
});

export const MemberRefSchema = z.object({
  memberId: IdSchema,
  userId: IdSchema,
  username: z.string(),
  nickname: z.string(),
});
export type MemberRef = z.infer<typeof MemberRefSchema>;

export const GradeDirectorsSchema = z.array(
  z.object({ grade: z.string(), directors: z.array(MemberRefSchema) }),
);
export const SetGradeDirectorsSchema = z.object({
  orgId: IdSchema.optional(),
  grade: GradeSchema,
  /** Every director of the grade (replaces the set; empty unassigns all). */
  memberIds: z.array(IdSchema).max(20),
});

// ───────────── students ─────────────

export const GenderSchema = z.enum(['男', '女'], { error: '性别只能是男或女' });

const StudentNameSchema = z
  .string({ error: SCHOOL_MESSAGES.studentNameRequired })
  .trim()
  .min(1, SCHOOL_MESSAGES.studentNameRequired)
  .max(20, '学生姓名最多20个字');
/** Student numbers: letters, digits and hyphens, up to 32. */
export const STUDENT_NO_PATTERN = /^[A-Za-z0-9-]{1,32}$/;
const StudentNoSchema = z
  .string({ error: SCHOOL_MESSAGES.studentNoRequired })
  .trim()
  .min(1, SCHOOL_MESSAGES.studentNoRequired)
  .regex(STUDENT_NO_PATTERN, SCHOOL_MESSAGES.studentNoFormat);

export const StudentSchema = z.object({
  id: IdSchema,
  name: z.string(),
  studentNo: z.string(),
  gender: GenderSchema.nullable(),
  classId: IdSchema,
  className: z.string(),
  yearId: IdSchema,
  yearName: z.string(),
  graduated: z.boolean(),
});
export type Student = z.infer<typeof StudentSchema>;

export const StudentsQuerySchema = PageQuerySchema.extend({
  orgId: IdSchema.optional(),
  yearId: IdSchema.optional(),
  classId: IdSchema.optional(),
  /** Name or student number contains. */
  keyword: z.string().trim().max(40).optional(),
  graduated: FlagSchema.optional(),
  size: z.coerce.number().int().min(1).max(200).default(50),
});

export const CreateStudentSchema = z.object({
  classId: IdSchema,
  name: StudentNameSchema,
  studentNo: StudentNoSchema,
  gender: GenderSchema.nullable().optional(),
});
export const UpdateStudentSchema = z.object({
  name: StudentNameSchema.optional(),
  studentNo: StudentNoSchema.optional(),
  gender: GenderSchema.nullable().optional(),
});

export const MoveStudentsSchema = z.object({
  studentIds: z.array(IdSchema).min(1, '请选择学生').max(500),
  classId: IdSchema,
});
/** Bulk answer: per student. */
export const MoveStudentsResultSchema = z.object({
  moved: z.array(IdSchema),
  failed: z.array(z.object({ id: IdSchema, message: z.string() })),
});

/** Fields of the import (multipart: the `file` part plus these). */
export const ImportStudentsSchema = z.object({
  file: z.custom<Blob | Uint8Array>(
    (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
    { message: SCHOOL_MESSAGES.importFile },
  ),
  /** The school year whose classes the 班级 column names. */
  yearId: IdSchema,
  /** Rows with an empty 班级 go into this class. */
  classId: IdSchema.optional(),
  /** Create classes the 班级 column names that do not exist yet (otherwise such rows are errors). */
  createMissingClasses: FlagSchema.optional(),
});
export const ImportedStudentsSchema = z.object({
  imported: z.number().int(),
  createdClasses: z.array(z.object({ id: IdSchema, name: z.string() })),
  classes: z.array(z.object({ id: IdSchema, name: z.string(), count: z.number().int() })),
});
/** `data` of a refused import (400): every broken row, 第3行：学号 2026070101 已存在. */
export const ImportErrorsSchema = z.object({
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
});

export const ExportStudentsSchema = z.object({ classId: IdSchema });

// ───────────── members and groups ─────────────

export const TeachingEntrySchema = z.object({
  subjectId: IdSchema,
  subjectName: z.string(),
  classes: z.array(z.object({ id: IdSchema, name: z.string() })),
});

export const MemberSchema = MemberRefSchema.extend({
  avatar: z.string().nullable(),
  /** Masked (138****8000). */
  phone: z.string().nullable(),
  isCreator: z.boolean(),
  isAdministrator: z.boolean(),
  isGradeDirector: z.boolean(),
  roles: z.array(SchoolRoleSchema),
  roleNames: z.array(z.string()),
  grades: z.array(z.string()),
  teaching: z.array(TeachingEntrySchema),
  groups: z.array(z.object({ id: IdSchema, name: z.string(), kind: GroupKindSchema, isLeader: z.boolean() })),
  joinedAt: TimestampSchema,
});
export type Member = z.infer<typeof MemberSchema>;

export const MembersQuerySchema = OrgIdQuery.extend({
  keyword: z.string().trim().max(40).optional(),
  role: SchoolRoleSchema.optional(),
});

export const SetMemberRolesSchema = z.object({
  isAdministrator: z.boolean(),
  /** Grades the member directs; none makes them no longer a grade director. */
  grades: z.array(GradeSchema).max(12).default([]),
});
export const SetMemberTeachingSchema = z.object({
  teaching: z
    .array(z.object({ subjectId: IdSchema, classIds: z.array(IdSchema).max(60).default([]) }))
    .max(20),
});

export const GroupMemberSchema = MemberRefSchema.extend({
  avatar: z.string().nullable(),
  isLeader: z.boolean(),
});

export const GroupSchema = z.object({
  id: IdSchema,
  name: z.string(),
  kind: GroupKindSchema,
  kindName: z.string(),
  subjectId: IdSchema.nullable(),
  subjectName: z.string().nullable(),
  grade: z.string().nullable(),
  leaders: z.array(GroupMemberSchema),
  members: z.array(GroupMemberSchema),
  memberCount: z.number().int(),
  /** Whether the caller is in the group, and leads it. */
  mine: z.boolean(),
  amLeader: z.boolean(),
  createdAt: TimestampSchema,
});
export type Group = z.infer<typeof GroupSchema>;

export const GroupsQuerySchema = OrgIdQuery.extend({
  /** Only the groups I am in (administrators see every group otherwise; teachers always see only theirs). */
  mine: FlagSchema.optional(),
});

const GroupNameSchema = z
  .string({ error: SCHOOL_MESSAGES.groupNameRequired })
  .trim()
  .min(1, SCHOOL_MESSAGES.groupNameRequired)
  .max(30, '组名最多30个字');

export const CreateGroupSchema = z.object({
  orgId: IdSchema.optional(),
  name: GroupNameSchema,
  kind: GroupKindSchema,
  subjectId: IdSchema.nullable().optional(),
  grade: GradeSchema.nullable().optional(),
});
export const UpdateGroupSchema = z.object({
  name: GroupNameSchema.optional(),
  kind: GroupKindSchema.optional(),
  subjectId: IdSchema.nullable().optional(),
  grade: GradeSchema.nullable().optional(),
});
export const SetGroupMembersSchema = z.object({
  members: z.array(z.object({ memberId: IdSchema, isLeader: z.boolean().default(false) })).max(300),
});

// ───────────── invitations ─────────────

export const CreateInvitationSchema = z
  .object({
    orgId: IdSchema.optional(),
    role: InviteRoleSchema.default('teacher'),
    grade: GradeSchema.nullable().optional(),
    maxUses: z.coerce
      .number()
      .int()
      .min(1, '邀请人数至少为1')
      .max(INVITE_LIMITS.maxUses, `邀请人数最多${INVITE_LIMITS.maxUses}`)
      .default(INVITE_LIMITS.defaultUses),
    expiresInDays: z.coerce
      .number()
      .int()
      .min(1, '有效期至少1天')
      .max(INVITE_LIMITS.maxDays, `有效期最多${INVITE_LIMITS.maxDays}天`)
      .default(INVITE_LIMITS.defaultDays),
    /** The web app's origin (window.location.origin) for the link when the host has no PUBLIC_URL. */
    origin: z
      .string()
      .regex(/^https?:\/\/[^/?#\s]+$/, '地址格式不正确')
      .optional(),
  })
  .refine((v) => v.role !== 'gradeDirector' || !!v.grade, {
    message: SCHOOL_MESSAGES.inviteGradeRequired,
    path: ['grade'],
  });
export type CreateInvitation = z.input<typeof CreateInvitationSchema>;

export const InvitationSchema = z.object({
  id: IdSchema,
  orgId: IdSchema,
  role: InviteRoleSchema,
  roleName: z.string(),
  grade: z.string().nullable(),
  maxUses: z.number().int(),
  usedCount: z.number().int(),
  expiresAt: TimestampSchema,
  revokedAt: TimestampSchema.nullable(),
  status: InviteStatusSchema,
  statusName: z.string(),
  createdBy: z.object({ userId: IdSchema, nickname: z.string() }),
  createdAt: TimestampSchema,
  uses: z.array(
    z.object({ userId: IdSchema, username: z.string(), nickname: z.string(), at: TimestampSchema }),
  ),
});
export type Invitation = z.infer<typeof InvitationSchema>;

/** Shown once, at creation: only a digest of the token is stored. */
export const CreatedInvitationSchema = z.object({
  invitation: InvitationSchema,
  token: z.string(),
  /** `<PUBLIC_URL or origin>/invite#token=…`: the token in the fragment, which browsers never send. */
  link: z.string(),
  /** The link as a QR code, a PNG data URL. */
  qrCode: z.string().startsWith('data:image/png;base64,'),
});
export type CreatedInvitation = z.infer<typeof CreatedInvitationSchema>;

export const InvitationsQuerySchema = OrgIdQuery.extend({ status: InviteStatusSchema.optional() });

export const InviteTokenSchema = z.string({ error: SCHOOL_MESSAGES.inviteInvalid }).trim().min(1).max(128);

export const InvitePreviewSchema = z.object({
  schoolName: z.string(),
  logoUrl: z.string().nullable(),
  role: InviteRoleSchema,
  roleName: z.string(),
  grade: z.string().nullable(),
  inviter: z.string(),
  expiresAt: TimestampSchema,
  status: InviteStatusSchema,
  /** Whether it can still be accepted; else `message` says why. */
  usable: z.boolean(),
  message: z.string().nullable(),
});
export type InvitePreview = z.infer<typeof InvitePreviewSchema>;

export const AcceptInvitationSchema = z.object({ token: InviteTokenSchema });
export const AcceptedInvitationSchema = z.object({
  orgId: IdSchema,
  orgName: z.string(),
  role: InviteRoleSchema,
  /** The school became the caller's current school (they had none). */
  becameDefault: z.boolean(),
});

/** A new account that joins the school at once (registration form + image captcha). */
export const InviteRegisterSchema = z
  .object({
    token: InviteTokenSchema,
    username: UsernameSchema,
    password: PasswordSchema,
    password2: z.string({ error: FORM_MESSAGES.password }).min(1, FORM_MESSAGES.password),
    nickname: NicknameSchema,
    captchaKey: z.string({ error: FORM_MESSAGES.captcha }).min(1, FORM_MESSAGES.captcha).max(64),
    captchaCode: z.string({ error: FORM_MESSAGES.captcha }).trim().min(1, FORM_MESSAGES.captcha).max(16),
  })
  .refine((v) => v.password === v.password2, { message: '两次输入的密码不一致', path: ['password2'] });
export type InviteRegister = z.infer<typeof InviteRegisterSchema>;

// ───────────── audit log ─────────────

export const AUDIT_ACTION_NAMES = {
  'school.create': '创建学校',
  'school.update': '修改学校信息',
  'school.logo': '更换学校标志',
  'school.subjects': '设置开设学科',
  'year.create': '创建学年',
  'year.rename': '重命名学年',
  'year.default': '设置默认学年',
  'year.archive': '归档学年',
  'year.restore': '恢复学年',
  'year.graduate': '学年毕业',
  'class.create': '创建班级',
  'class.update': '修改班级',
  'class.delete': '删除班级',
  'grade.directors': '设置年级主任',
  'student.create': '添加学生',
  'student.update': '修改学生',
  'student.move': '学生调班',
  'student.import': '导入学生',
  'member.roles': '设置成员身份',
  'member.teaching': '设置任教学科和班级',
  'member.remove': '移除成员',
  'group.create': '创建教研组/备课组',
  'group.update': '修改教研组/备课组',
  'group.delete': '删除教研组/备课组',
  'group.members': '设置组成员',
  'invite.create': '创建邀请',
  'invite.revoke': '撤销邀请',
  'invite.accept': '通过邀请加入',
  'feedback.reply': '回复反馈',
  ...MATERIAL_AUDIT_ACTIONS,
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_NAMES;

export const AuditEntrySchema = z.object({
  id: IdSchema,
  action: z.string(),
  actionName: z.string(),
  actor: z.object({ userId: IdSchema, nickname: z.string() }).nullable(),
  detail: z.string(),
  createdAt: TimestampSchema,
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditQuerySchema = PageQuerySchema.extend({ orgId: IdSchema.optional() });

// ───────────── calls ─────────────

export const createSchoolCall = defineCall({
  name: 'createSchool',
  method: 'POST',
  path: '/school/org',
  encoding: 'json',
  auth: 'bearer',
  body: CreateSchoolSchema,
  response: envelope(SchoolDetailSchema),
});

/** /team/details: the school with the caller's roles in it. */
export const schoolDetailCall = defineCall({
  name: 'schoolDetail',
  method: 'GET',
  path: '/school/team/details',
  encoding: 'query',
  auth: 'bearer',
  query: SchoolDetailQuerySchema,
  response: envelope(SchoolDetailSchema),
});

export const updateSchoolCall = defineCall({
  name: 'updateSchool',
  method: 'PUT',
  path: '/school/org',
  encoding: 'json',
  auth: 'bearer',
  body: UpdateSchoolSchema,
  response: envelope(SchoolDetailSchema),
});

export const uploadSchoolLogoCall = defineCall({
  name: 'uploadSchoolLogo',
  method: 'POST',
  path: '/school/org/logo',
  encoding: 'multipart',
  auth: 'bearer',
  body: LogoUploadSchema,
  response: envelope(LogoSchema),
});

export const schoolYearsCall = defineCall({
  name: 'schoolYears',
  method: 'GET',
  path: '/school/years',
  encoding: 'query',
  auth: 'bearer',
  query: SchoolYearsQuerySchema,
  response: envelope(z.array(SchoolYearInfoSchema)),
});

export const createSchoolYearCall = defineCall({
  name: 'createSchoolYear',
  method: 'POST',
  path: '/school/year',
  encoding: 'json',
  auth: 'bearer',
  body: CreateSchoolYearSchema,
  response: envelope(SchoolYearInfoSchema),
});

export const renameSchoolYearCall = defineCall({
  name: 'renameSchoolYear',
  method: 'PUT',
  path: '/school/year/:id',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: RenameSchoolYearSchema,
  response: envelope(SchoolYearInfoSchema),
});

/** Makes a year the school's default (each member's own choice in the top bar still wins, ADR 0005). */
export const setDefaultSchoolYearCall = defineCall({
  name: 'setDefaultSchoolYear',
  method: 'PUT',
  path: '/school/year/:id/default',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(SchoolYearInfoSchema),
});

export const archiveSchoolYearCall = defineCall({
  name: 'archiveSchoolYear',
  method: 'PUT',
  path: '/school/year/:id/archive',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: ArchiveSchoolYearSchema,
  response: envelope(SchoolYearInfoSchema),
});

/** Archives the year and marks every student of its classes graduated. */
export const graduateSchoolYearCall = defineCall({
  name: 'graduateSchoolYear',
  method: 'POST',
  path: '/school/year/:id/graduate',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(GraduatedYearSchema),
});

export const schoolClassesCall = defineCall({
  name: 'schoolClasses',
  method: 'GET',
  path: '/school/classes',
  encoding: 'query',
  auth: 'bearer',
  query: ClassesQuerySchema,
  response: envelope(z.array(ClassInfoSchema)),
});

export const createClassCall = defineCall({
  name: 'createClass',
  method: 'POST',
  path: '/school/class',
  encoding: 'json',
  auth: 'bearer',
  body: CreateClassSchema,
  response: envelope(ClassInfoSchema),
});

export const updateClassCall = defineCall({
  name: 'updateClass',
  method: 'PUT',
  path: '/school/class/:id',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: UpdateClassSchema,
  response: envelope(ClassInfoSchema),
});

/** Only an empty class (no students, never given homework). */
export const deleteClassCall = defineCall({
  name: 'deleteClass',
  method: 'DELETE',
  path: '/school/class/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.null()),
});

export const schoolSubjectsCall = defineCall({
  name: 'schoolSubjects',
  method: 'GET',
  path: '/school/subjects',
  encoding: 'query',
  auth: 'bearer',
  query: OrgIdQuery,
  response: envelope(OfferedSubjectsSchema),
});

export const setSchoolSubjectsCall = defineCall({
  name: 'setSchoolSubjects',
  method: 'PUT',
  path: '/school/subjects',
  encoding: 'json',
  auth: 'bearer',
  body: SetSchoolSubjectsSchema,
  response: envelope(OfferedSubjectsSchema),
});

export const gradeDirectorsCall = defineCall({
  name: 'gradeDirectors',
  method: 'GET',
  path: '/school/grade-directors',
  encoding: 'query',
  auth: 'bearer',
  query: OrgIdQuery,
  response: envelope(GradeDirectorsSchema),
});

export const setGradeDirectorsCall = defineCall({
  name: 'setGradeDirectors',
  method: 'PUT',
  path: '/school/grade-directors',
  encoding: 'json',
  auth: 'bearer',
  body: SetGradeDirectorsSchema,
  response: envelope(GradeDirectorsSchema),
});

export const studentsCall = defineCall({
  name: 'students',
  method: 'GET',
  path: '/school/students',
  encoding: 'query',
  auth: 'bearer',
  query: StudentsQuerySchema,
  response: envelope(page(StudentSchema)),
});

export const createStudentCall = defineCall({
  name: 'createStudent',
  method: 'POST',
  path: '/school/student',
  encoding: 'json',
  auth: 'bearer',
  body: CreateStudentSchema,
  response: envelope(StudentSchema),
});

export const updateStudentCall = defineCall({
  name: 'updateStudent',
  method: 'PUT',
  path: '/school/student/:id',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: UpdateStudentSchema,
  response: envelope(StudentSchema),
});

export const moveStudentsCall = defineCall({
  name: 'moveStudents',
  method: 'PUT',
  path: '/school/students/move',
  encoding: 'json',
  auth: 'bearer',
  body: MoveStudentsSchema,
  response: envelope(MoveStudentsResultSchema),
});

/** SPEC §7 file download: the empty .xlsx with the headers 姓名, 学号, 班级, 性别. */
export const studentTemplateCall = defineCall({
  name: 'studentTemplate',
  method: 'POST',
  path: '/school/students/template',
  encoding: 'json',
  auth: 'bearer',
  response: XlsxFileSchema,
});

/** All rows or none: any broken row answers 400 with every row's error in data.errors. */
export const importStudentsCall = defineCall({
  name: 'importStudents',
  method: 'POST',
  path: '/school/students/import',
  encoding: 'multipart',
  auth: 'bearer',
  body: ImportStudentsSchema,
  response: envelope(ImportedStudentsSchema),
});

/** SPEC §7 file download: one class's students as .xlsx (the import's columns, so it imports back). */
export const exportStudentsCall = defineCall({
  name: 'exportStudents',
  method: 'POST',
  path: '/school/students/export',
  encoding: 'json',
  auth: 'bearer',
  body: ExportStudentsSchema,
  response: XlsxFileSchema,
});

export const teamMembersCall = defineCall({
  name: 'teamMembers',
  method: 'GET',
  path: '/school/team/members',
  encoding: 'query',
  auth: 'bearer',
  query: MembersQuerySchema,
  response: envelope(z.array(MemberSchema)),
});

export const setMemberRolesCall = defineCall({
  name: 'setMemberRoles',
  method: 'PUT',
  path: '/school/team/member/:id/roles',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: SetMemberRolesSchema,
  response: envelope(MemberSchema),
});

export const setMemberTeachingCall = defineCall({
  name: 'setMemberTeaching',
  method: 'PUT',
  path: '/school/team/member/:id/teaching',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: SetMemberTeachingSchema,
  response: envelope(MemberSchema),
});

export const removeMemberCall = defineCall({
  name: 'removeMember',
  method: 'DELETE',
  path: '/school/team/member/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.null()),
});

export const teamGroupsCall = defineCall({
  name: 'teamGroups',
  method: 'GET',
  path: '/school/team/groups',
  encoding: 'query',
  auth: 'bearer',
  query: GroupsQuerySchema,
  response: envelope(z.array(GroupSchema)),
});

export const teamGroupCall = defineCall({
  name: 'teamGroup',
  method: 'GET',
  path: '/school/team/group/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(GroupSchema),
});

export const createGroupCall = defineCall({
  name: 'createGroup',
  method: 'POST',
  path: '/school/team/group',
  encoding: 'json',
  auth: 'bearer',
  body: CreateGroupSchema,
  response: envelope(GroupSchema),
});

export const updateGroupCall = defineCall({
  name: 'updateGroup',
  method: 'PUT',
  path: '/school/team/group/:id',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: UpdateGroupSchema,
  response: envelope(GroupSchema),
});

export const deleteGroupCall = defineCall({
  name: 'deleteGroup',
  method: 'DELETE',
  path: '/school/team/group/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.null()),
});

export const setGroupMembersCall = defineCall({
  name: 'setGroupMembers',
  method: 'PUT',
  path: '/school/team/group/:id/members',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: SetGroupMembersSchema,
  response: envelope(GroupSchema),
});

export const createInvitationCall = defineCall({
  name: 'createInvitation',
  method: 'POST',
  path: '/school/invite',
  encoding: 'json',
  auth: 'bearer',
  body: CreateInvitationSchema,
  response: envelope(CreatedInvitationSchema),
});

export const invitationsCall = defineCall({
  name: 'invitations',
  method: 'GET',
  path: '/school/invites',
  encoding: 'query',
  auth: 'bearer',
  query: InvitationsQuerySchema,
  response: envelope(z.array(InvitationSchema)),
});

export const revokeInvitationCall = defineCall({
  name: 'revokeInvitation',
  method: 'DELETE',
  path: '/school/invite/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(InvitationSchema),
});

/** What the /invite page shows before accepting; anyone holding the link may ask. */
/** The token travels in the body: never in an address that a log or a proxy keeps (ADR 0042). */
export const invitePreviewCall = defineCall({
  name: 'invitePreview',
  method: 'POST',
  path: '/school/invite/preview',
  encoding: 'json',
  auth: 'none',
  body: z.object({ token: InviteTokenSchema }),
  response: envelope(InvitePreviewSchema),
});

/** Joins with the signed-in account. */
export const acceptInvitationCall = defineCall({
  name: 'acceptInvitation',
  method: 'POST',
  path: '/school/invite/accept',
  encoding: 'json',
  auth: 'bearer',
  body: AcceptInvitationSchema,
  response: envelope(AcceptedInvitationSchema),
});

/** Registers a new account and joins; the client then signs in with the token call. */
export const inviteRegisterCall = defineCall({
  name: 'inviteRegister',
  method: 'POST',
  path: '/school/invite/register',
  encoding: 'json',
  auth: 'none',
  body: InviteRegisterSchema,
  response: envelope(AcceptedInvitationSchema),
});

export const auditLogCall = defineCall({
  name: 'auditLog',
  method: 'GET',
  path: '/school/audit',
  encoding: 'query',
  auth: 'bearer',
  query: AuditQuerySchema,
  response: envelope(page(AuditEntrySchema)),
});
