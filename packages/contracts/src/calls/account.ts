import { z } from 'zod';
import { IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import { FORM_MESSAGES } from '../messages.js';
import { PasswordSchema, TokenResponseSchema, UsernameSchema } from './auth.js';
import { defineCall } from './define.js';

/*
 * Accounts and the personal centre (/userset; nav=2 opens feedback): SMS codes (register by phone, SMS sign-in,
 * password reset, binding a phone), profile, nickname, avatar, password change, my classes and subjects, feedback.
 * SMS codes go through a pluggable provider; the embedded one writes them to the host's log and, in development, to
 * the inbox call below.
 */

/** Chinese messages of account calls. */
export const ACCOUNT_MESSAGES = {
  phoneRequired: '请输入手机号',
  phoneInvalid: '请输入正确的手机号',
  smsCodeFormat: '短信验证码为6位数字',
  smsWrong: '短信验证码错误或已过期',
  smsTooSoon: (seconds: number) => `发送过于频繁，请${seconds}秒后再试`,
  smsPhoneDailyLimit: '该手机号今日获取验证码次数已达上限，请明天再试',
  smsAddressLimit: '获取验证码过于频繁，请稍后再试',
  smsSendFailed: '短信发送失败，请稍后再试',
  phoneTaken: '该手机号已被其他账号绑定',
  phoneNotBound: '该手机号未绑定任何账号',
  phoneSame: '新手机号与当前绑定的手机号相同',
  usernameTaken: '该用户名已被注册',
  passwordsDiffer: '两次输入的密码不一致',
  oldPasswordRequired: '请输入原密码',
  oldPasswordWrong: '原密码错误',
  passwordUnchanged: '新密码不能与原密码相同',
  passwordChanged: '密码已修改，其他设备上的登录已退出',
  passwordReset: '密码已重置，请使用新密码登录',
  registered: '注册成功',
  phoneBound: '手机号绑定成功',
  badImage: '只能上传 JPG、PNG 或 WebP 格式的图片',
  imageTooLarge: '图片文件过大（不能超过5MB）',
  imageTooManyPixels: '图片尺寸过大，无法处理（可能是异常文件）',
  imageTooSmall: '图片太小（宽和高至少32像素）',
  cropOutside: '裁剪区域超出了图片范围',
  noFile: '请选择要上传的图片',
  feedbackContent: '请输入反馈内容',
  feedbackType: '请选择反馈类型',
  feedbackTooManyImages: '最多上传3张截图',
  feedbackImageNotFound: '截图不存在或已被使用，请重新上传',
  feedbackNotFound: '反馈不存在',
  replyRequired: '请输入回复内容',
  accountDisabled: '该账号已被停用，请联系学校管理员',
} as const;

/** Mainland mobile numbers: 11 digits starting 13–19. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

export const PhoneSchema = z
  .string({ error: ACCOUNT_MESSAGES.phoneRequired })
  .trim()
  .min(1, ACCOUNT_MESSAGES.phoneRequired)
  .regex(PHONE_PATTERN, ACCOUNT_MESSAGES.phoneInvalid);

export const SmsCodeSchema = z
  .string({ error: FORM_MESSAGES.sms })
  .trim()
  .min(1, FORM_MESSAGES.sms)
  .regex(/^\d{6}$/, ACCOUNT_MESSAGES.smsCodeFormat);

export const NicknameSchema = z
  .string({ error: FORM_MESSAGES.nickname })
  .trim()
  .min(1, FORM_MESSAGES.nickname)
  .max(20, '昵称最多20个字');

/** What an SMS code is for; a code only works for the purpose it was sent for. */
export const SMS_PURPOSES = ['register', 'login', 'reset', 'bind'] as const;
export const SmsPurposeSchema = z.enum(SMS_PURPOSES);
export type SmsPurpose = z.infer<typeof SmsPurposeSchema>;
export const SMS_PURPOSE_NAMES: Record<SmsPurpose, string> = {
  register: '注册',
  login: '登录',
  reset: '找回密码',
  bind: '绑定手机号',
};

/** SMS code lifetime and sending limits (per phone and per address). */
export const SMS_LIMITS = {
  codeTtlSeconds: 300,
  /** A phone gets at most one code per this many seconds. */
  resendSeconds: 60,
  /** Codes one phone may receive in 24 hours. */
  perPhonePerDay: 10,
  /** Codes one address may ask for in an hour. */
  perAddressPerHour: 20,
  /** Wrong tries after which a code stops working. */
  maxAttempts: 5,
} as const;

// ───────────── SMS, registration by phone, SMS sign-in, password reset ─────────────

/** Sending a code without being signed in needs the image captcha (GET /oauth/captcha). */
export const SendSmsSchema = z.object({
  phone: PhoneSchema,
  purpose: z.enum(['register', 'login', 'reset'], { error: '验证码用途不正确' }),
  captchaKey: z.string({ error: FORM_MESSAGES.captcha }).min(1, FORM_MESSAGES.captcha).max(64),
  captchaCode: z.string({ error: FORM_MESSAGES.captcha }).trim().min(1, FORM_MESSAGES.captcha).max(16),
});
export type SendSms = z.infer<typeof SendSmsSchema>;

export const SentSmsSchema = z.object({
  /** Seconds the code stays valid. */
  expiresIn: z.number().int().positive(),
  /** Seconds before another code may be asked for (the button's countdown). */
  resendAfter: z.number().int().positive(),
});
export type SentSms = z.infer<typeof SentSmsSchema>;

const passwordPair = <T extends { password: string; password2: string }>(v: T) => v.password === v.password2;

export const PhoneRegisterSchema = z
  .object({
    username: UsernameSchema,
    password: PasswordSchema,
    password2: z.string({ error: FORM_MESSAGES.password }).min(1, FORM_MESSAGES.password),
    nickname: NicknameSchema,
    phone: PhoneSchema,
    smsCode: SmsCodeSchema,
  })
  .refine(passwordPair, { message: ACCOUNT_MESSAGES.passwordsDiffer, path: ['password2'] });
export type PhoneRegister = z.infer<typeof PhoneRegisterSchema>;

/** SMS sign-in (form-encoded, the fixed client Basic header, like the token call). */
export const SmsTokenRequestSchema = z.object({ phone: PhoneSchema, smsCode: SmsCodeSchema });

export const ResetPasswordSchema = z
  .object({
    phone: PhoneSchema,
    smsCode: SmsCodeSchema,
    password: PasswordSchema,
    password2: z.string({ error: FORM_MESSAGES.password }).min(1, FORM_MESSAGES.password),
  })
  .refine(passwordPair, { message: ACCOUNT_MESSAGES.passwordsDiffer, path: ['password2'] });
export type ResetPassword = z.infer<typeof ResetPasswordSchema>;

/** One message of the development inbox (the embedded provider only, never in production). */
export const SmsInboxEntrySchema = z.object({
  phone: z.string(),
  purpose: SmsPurposeSchema,
  code: z.string(),
  text: z.string(),
  sentAt: TimestampSchema,
});
export type SmsInboxEntry = z.infer<typeof SmsInboxEntrySchema>;

// ───────────── profile ─────────────

export const MySchoolSchema = z.object({
  id: IdSchema,
  name: z.string(),
  logoUrl: z.string().nullable(),
  isDefault: z.boolean(),
  isCreator: z.boolean(),
  isAdministrator: z.boolean(),
  isGradeDirector: z.boolean(),
});
export type MySchool = z.infer<typeof MySchoolSchema>;

export const ProfileSchema = z.object({
  id: IdSchema,
  username: z.string(),
  nickname: z.string(),
  /** URL of the avatar (under /files/avatars/), null when none. */
  avatar: z.string().nullable(),
  /** The bound phone, masked (138****8000); null when none. */
  phone: z.string().nullable(),
  createdAt: TimestampSchema,
  defaultOrgId: IdSchema.nullable(),
  schools: z.array(MySchoolSchema),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const UpdateNicknameSchema = z.object({ nickname: NicknameSchema });

/**
 * Fields of an image upload (multipart: the `file` part plus these). The optional square crop is in pixels of the
 * image as the browser shows it (EXIF orientation applied); without it the centre square is taken.
 */
export const ImageUploadFieldsSchema = z.object({
  x: z.coerce.number().int().min(0).optional(),
  y: z.coerce.number().int().min(0).optional(),
  size: z.coerce.number().int().min(1).optional(),
});
/** The uploaded file: a File in the browser, bytes on the host. */
export const ImageFileSchema = z.custom<Blob | Uint8Array>(
  (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
  { message: ACCOUNT_MESSAGES.noFile },
);
export const AvatarUploadSchema = ImageUploadFieldsSchema.extend({ file: ImageFileSchema });

/** Largest image file accepted (avatars, logos, screenshots). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Largest image in pixels; more is refused before decoding, as a decompression bomb. */
export const IMAGE_MAX_PIXELS = 40_000_000;
/** Avatars are stored square at this size. */
export const AVATAR_SIZE = 256;

export const AvatarSchema = z.object({ avatar: z.string().nullable() });

export const BindPhoneSmsSchema = z.object({ phone: PhoneSchema });
export const BindPhoneSchema = z.object({ phone: PhoneSchema, smsCode: SmsCodeSchema });

export const ChangePasswordSchema = z
  .object({
    oldPassword: z
      .string({ error: ACCOUNT_MESSAGES.oldPasswordRequired })
      .min(1, ACCOUNT_MESSAGES.oldPasswordRequired)
      .max(128),
    password: PasswordSchema,
    password2: z.string({ error: FORM_MESSAGES.password }).min(1, FORM_MESSAGES.password),
  })
  .refine(passwordPair, { message: ACCOUNT_MESSAGES.passwordsDiffer, path: ['password2'] })
  .refine((v) => v.password !== v.oldPassword, {
    message: ACCOUNT_MESSAGES.passwordUnchanged,
    path: ['password'],
  });
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const SetDefaultSchoolSchema = z.object({ orgId: IdSchema });

// ───────────── my classes and subjects ─────────────

export const TaughtClassSchema = z.object({
  id: IdSchema,
  name: z.string(),
  grade: z.string().nullable(),
  yearId: IdSchema,
  yearName: z.string(),
});
export type TaughtClass = z.infer<typeof TaughtClassSchema>;

export const TaughtSubjectSchema = z.object({
  id: IdSchema,
  name: z.string(),
  stageId: IdSchema,
  stageName: z.string(),
});
export type TaughtSubject = z.infer<typeof TaughtSubjectSchema>;

export const MyTeachingQuerySchema = z.object({ orgId: IdSchema.optional() });

export const MyTeachingSchema = z.object({
  orgId: IdSchema.nullable(),
  orgName: z.string().nullable(),
  /** Every subject I teach, and per subject the classes (of unarchived years). */
  subjects: z.array(TaughtSubjectSchema),
  classes: z.array(TaughtClassSchema),
  teaching: z.array(TaughtSubjectSchema.extend({ classes: z.array(TaughtClassSchema) })),
  groups: z.array(
    z.object({
      id: IdSchema,
      name: z.string(),
      kind: z.enum(['research', 'preparation']),
      kindName: z.string(),
      isLeader: z.boolean(),
    }),
  ),
  /** Grades I direct (年级主任), e.g. 七年级. */
  gradeDirectorOf: z.array(z.string()),
});
export type MyTeaching = z.infer<typeof MyTeachingSchema>;

// ───────────── feedback ─────────────

export const FEEDBACK_TYPES = ['功能建议', '问题反馈', '其他'] as const;
export const FeedbackTypeSchema = z.enum(FEEDBACK_TYPES, { error: ACCOUNT_MESSAGES.feedbackType });

export const FEEDBACK_STATUSES = ['pending', 'replied'] as const;
export const FeedbackStatusSchema = z.enum(FEEDBACK_STATUSES);
export const FEEDBACK_STATUS_NAMES: Record<z.infer<typeof FeedbackStatusSchema>, string> = {
  pending: '待回复',
  replied: '已回复',
};
export const FEEDBACK_MAX_IMAGES = 3;

export const FeedbackImageSchema = z.object({ id: IdSchema, url: z.string() });
export type FeedbackImage = z.infer<typeof FeedbackImageSchema>;

export const FeedbackImageUploadSchema = z.object({ file: ImageFileSchema });

export const CreateFeedbackSchema = z.object({
  type: FeedbackTypeSchema,
  content: z
    .string({ error: ACCOUNT_MESSAGES.feedbackContent })
    .trim()
    .min(1, ACCOUNT_MESSAGES.feedbackContent)
    .max(1000, '反馈内容最多1000个字'),
  contact: z.string().trim().max(50, '联系方式最多50个字').optional(),
  imageIds: z.array(IdSchema).max(FEEDBACK_MAX_IMAGES, ACCOUNT_MESSAGES.feedbackTooManyImages).default([]),
});
export type CreateFeedback = z.input<typeof CreateFeedbackSchema>;

export const FeedbackSchema = z.object({
  id: IdSchema,
  type: FeedbackTypeSchema,
  content: z.string(),
  contact: z.string().nullable(),
  /** Screenshot URLs (under /files/feedback/, readable by the author and the school's administrators). */
  images: z.array(FeedbackImageSchema),
  status: FeedbackStatusSchema,
  statusName: z.string(),
  reply: z.string().nullable(),
  repliedBy: z.string().nullable(),
  repliedAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
  author: z.object({ userId: IdSchema, username: z.string(), nickname: z.string() }),
  orgId: IdSchema.nullable(),
});
export type Feedback = z.infer<typeof FeedbackSchema>;

export const SchoolFeedbackQuerySchema = PageQuerySchema.extend({
  orgId: IdSchema.optional(),
  status: FeedbackStatusSchema.optional(),
});

export const ReplyFeedbackSchema = z.object({
  reply: z
    .string({ error: ACCOUNT_MESSAGES.replyRequired })
    .trim()
    .min(1, ACCOUNT_MESSAGES.replyRequired)
    .max(1000, '回复最多1000个字'),
});

const IdParams = z.object({ id: IdSchema });

// ───────────── calls ─────────────

export const sendSmsCall = defineCall({
  name: 'sendSms',
  method: 'POST',
  path: '/oauth/sms/send',
  encoding: 'json',
  auth: 'none',
  body: SendSmsSchema,
  response: envelope(SentSmsSchema),
});

/** Creates an account bound to a phone (the SMS code stands in for the image captcha). */
export const registerByPhoneCall = defineCall({
  name: 'registerByPhone',
  method: 'POST',
  path: '/oauth/register/phone',
  encoding: 'json',
  auth: 'none',
  body: PhoneRegisterSchema,
  response: envelope(z.null()),
});

/** SMS sign-in: answers the same tokens as the token call. */
export const smsTokenCall = defineCall({
  name: 'smsToken',
  method: 'POST',
  path: '/oauth/sms/token',
  encoding: 'form',
  auth: 'client',
  body: SmsTokenRequestSchema,
  response: TokenResponseSchema,
});

/** Sets a new password with an SMS code; every session of the account is signed out. */
export const resetPasswordCall = defineCall({
  name: 'resetPassword',
  method: 'POST',
  path: '/oauth/password/reset',
  encoding: 'json',
  auth: 'none',
  body: ResetPasswordSchema,
  response: envelope(z.null()),
});

/** Development only (demo seed on, not production): the codes the embedded provider "sent", newest first. */
export const smsInboxCall = defineCall({
  name: 'smsInbox',
  method: 'GET',
  path: '/system/dev/sms-inbox',
  encoding: 'query',
  auth: 'none',
  query: z.object({ phone: z.string().max(20).optional() }),
  response: envelope(z.array(SmsInboxEntrySchema)),
});

export const profileCall = defineCall({
  name: 'profile',
  method: 'GET',
  path: '/system/account/profile',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(ProfileSchema),
});

export const updateNicknameCall = defineCall({
  name: 'updateNickname',
  method: 'PUT',
  path: '/system/account/nickname',
  encoding: 'json',
  auth: 'bearer',
  body: UpdateNicknameSchema,
  response: envelope(ProfileSchema),
});

export const uploadAvatarCall = defineCall({
  name: 'uploadAvatar',
  method: 'POST',
  path: '/system/account/avatar',
  encoding: 'multipart',
  auth: 'bearer',
  body: AvatarUploadSchema,
  response: envelope(AvatarSchema),
});

export const deleteAvatarCall = defineCall({
  name: 'deleteAvatar',
  method: 'DELETE',
  path: '/system/account/avatar',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(AvatarSchema),
});

export const sendBindSmsCall = defineCall({
  name: 'sendBindSms',
  method: 'POST',
  path: '/system/account/phone/sms',
  encoding: 'json',
  auth: 'bearer',
  body: BindPhoneSmsSchema,
  response: envelope(SentSmsSchema),
});

export const bindPhoneCall = defineCall({
  name: 'bindPhone',
  method: 'PUT',
  path: '/system/account/phone',
  encoding: 'json',
  auth: 'bearer',
  body: BindPhoneSchema,
  response: envelope(ProfileSchema),
});

/** Changes the password (old + new); every other session of the account is signed out. */
export const changePasswordCall = defineCall({
  name: 'changePassword',
  method: 'PUT',
  path: '/system/account/password',
  encoding: 'json',
  auth: 'bearer',
  body: ChangePasswordSchema,
  response: envelope(z.null()),
});

/** Makes one of my schools my current (default) school: everything school-scoped then works in it. */
export const setDefaultSchoolCall = defineCall({
  name: 'setDefaultSchool',
  method: 'PUT',
  path: '/system/account/default-school',
  encoding: 'json',
  auth: 'bearer',
  body: SetDefaultSchoolSchema,
  response: envelope(ProfileSchema),
});

export const myTeachingCall = defineCall({
  name: 'myTeaching',
  method: 'GET',
  path: '/system/account/teaching',
  encoding: 'query',
  auth: 'bearer',
  query: MyTeachingQuerySchema,
  response: envelope(MyTeachingSchema),
});

export const uploadFeedbackImageCall = defineCall({
  name: 'uploadFeedbackImage',
  method: 'POST',
  path: '/system/account/feedback/image',
  encoding: 'multipart',
  auth: 'bearer',
  body: FeedbackImageUploadSchema,
  response: envelope(FeedbackImageSchema),
});

export const createFeedbackCall = defineCall({
  name: 'createFeedback',
  method: 'POST',
  path: '/system/account/feedback',
  encoding: 'json',
  auth: 'bearer',
  body: CreateFeedbackSchema,
  response: envelope(FeedbackSchema),
});

export const myFeedbackCall = defineCall({
  name: 'myFeedback',
  method: 'GET',
  path: '/system/account/feedback',
  encoding: 'query',
  auth: 'bearer',
  query: PageQuerySchema,
  response: envelope(page(FeedbackSchema)),
});

/** The feedback of a school's members (administrators only). */
export const schoolFeedbackCall = defineCall({
  name: 'schoolFeedback',
  method: 'GET',
  path: '/school/feedback',
  encoding: 'query',
  auth: 'bearer',
  query: SchoolFeedbackQuerySchema,
  response: envelope(page(FeedbackSchema)),
});

export const replyFeedbackCall = defineCall({
  name: 'replyFeedback',
  method: 'PUT',
  path: '/school/feedback/:id/reply',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: ReplyFeedbackSchema,
  response: envelope(FeedbackSchema),
});
