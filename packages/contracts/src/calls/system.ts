import { z } from 'zod';
import { IdSchema, envelope } from '../common.js';
import { defineCall } from './define.js';

/** The user record stored locally (SPEC §3); the fields beyond SPEC's four are ours. */
export const UserRecordSchema = z.object({
  id: IdSchema,
  username: z.string(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  phone: z.string().nullable(),
  /** URL of the default school's logo, null when it has none. */
  orgLogo: z.string().nullable(),
  /** Path of the default school's logo under the base image URL, null when none. */
  logoPath: z.string().nullable(),
  orgName: z.string().nullable(),
});
export type UserRecord = z.infer<typeof UserRecordSchema>;

/** The user's grade info (SPEC §3). */
export const GradeInfoSchema = z.object({
  orgDefaultId: IdSchema.nullable(),
  gradeDirector: z.boolean(),
  isCreator: z.boolean(),
  isAdministrator: z.boolean(),
});
export type GradeInfo = z.infer<typeof GradeInfoSchema>;

export const OrgSummarySchema = z.object({ id: IdSchema, name: z.string(), logoPath: z.string().nullable() });

export const UserInfoSchema = z.object({
  user: UserRecordSchema,
  gradeInfo: GradeInfoSchema,
  orgs: z.array(OrgSummarySchema),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

/** A school year (type 1) or a class (type 2). */
export const SchoolClassSchema = z.object({
  id: IdSchema,
  name: z.string(),
  /** Parent: the school year of a class, null for a school year. */
  pid: IdSchema.nullable(),
  /** For a school year: whether it is the caller's default. */
  isDefault: z.boolean(),
});
export type SchoolClass = z.infer<typeof SchoolClassSchema>;

export const ClassListQuerySchema = z.object({
  orgId: IdSchema,
  /** 1 lists school years, 2 lists the classes of the school year `pid`. */
  type: z.enum(['1', '2'], { error: '类型只能是 1（学年）或 2（班级）' }),
  pid: z.string().max(64).optional(),
});

export const UpdateClassDefaultSchema = z.object({ orgId: IdSchema, classId: IdSchema });

export const userInfoCall = defineCall({
  name: 'userInfo',
  method: 'GET',
  path: '/system/user/info',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(UserInfoSchema),
});

export const classListCall = defineCall({
  name: 'classList',
  method: 'GET',
  path: '/system/class',
  encoding: 'query',
  auth: 'bearer',
  query: ClassListQuerySchema,
  response: envelope(z.array(SchoolClassSchema)),
});

export const updateClassDefaultCall = defineCall({
  name: 'updateClassDefault',
  method: 'PUT',
  path: '/system/class/updateClassDefault',
  encoding: 'form',
  auth: 'bearer',
  body: UpdateClassDefaultSchema,
  response: envelope(z.null()),
});
