import { z } from 'zod';
import { envelope } from '../common.js';
import { FORM_MESSAGES } from '../messages.js';
import { defineCall } from './define.js';

/** The token answer of the OAuth endpoint (not wrapped in the envelope). */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  token_type: z.literal('bearer'),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

export const PasswordGrantSchema = z.object({
  grant_type: z.literal('password'),
  username: z.string({ error: FORM_MESSAGES.username }).trim().min(1, FORM_MESSAGES.username).max(64),
  password: z.string({ error: FORM_MESSAGES.password }).min(1, FORM_MESSAGES.password).max(128),
  /** Key of the image captcha the host handed out; required once the host asks for it. */
  captchaKey: z.string().max(64).optional(),
  captchaCode: z.string().max(16).optional(),
});
export type PasswordGrant = z.infer<typeof PasswordGrantSchema>;

export const RefreshGrantSchema = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1).max(512),
});
export type RefreshGrant = z.infer<typeof RefreshGrantSchema>;

export const TokenRequestSchema = z.discriminatedUnion(
  'grant_type',
  [PasswordGrantSchema, RefreshGrantSchema],
  {
    error: '授权方式只能是“password”或“refresh_token”',
  },
);
export type TokenRequest = z.infer<typeof TokenRequestSchema>;

/** Extra data of a failed sign-in: whether the host now asks for the image captcha. */
export const LoginFailureDataSchema = z.object({ captchaRequired: z.boolean() });

export const CaptchaSchema = z.object({
  captchaKey: z.string(),
  /** An image as a data URL. */
  image: z.string().startsWith('data:image/'),
  expiresIn: z.number().int().positive(),
});
export type Captcha = z.infer<typeof CaptchaSchema>;

/** Password rules: 8–64 characters with at least one letter and one digit. */
export const PasswordSchema = z
  .string({ error: FORM_MESSAGES.password })
  .min(1, FORM_MESSAGES.password)
  .min(8, '密码至少8位')
  .max(64, '密码最多64位')
  .regex(/[A-Za-z]/, '密码须包含字母')
  .regex(/\d/, '密码须包含数字');

export const UsernameSchema = z
  .string({ error: FORM_MESSAGES.username })
  .trim()
  .min(1, FORM_MESSAGES.username)
  .min(4, '用户名至少4位')
  .max(32, '用户名最多32位')
  .regex(/^[A-Za-z0-9_-]+$/, '用户名只能包含字母、数字、下划线和短横线');

export const RegisterSchema = z
  .object({
    username: UsernameSchema,
    password: PasswordSchema,
    password2: z.string({ error: FORM_MESSAGES.password }).min(1, FORM_MESSAGES.password),
    nickname: z
      .string({ error: FORM_MESSAGES.nickname })
      .trim()
      .min(1, FORM_MESSAGES.nickname)
      .max(20, '昵称最多20个字'),
    captchaKey: z.string({ error: FORM_MESSAGES.captcha }).min(1, FORM_MESSAGES.captcha).max(64),
    captchaCode: z.string({ error: FORM_MESSAGES.captcha }).trim().min(1, FORM_MESSAGES.captcha).max(16),
    /** Not required (SPEC §5); SMS arrives with the accounts issue. */
    smsCode: z.string().max(8).optional(),
  })
  .refine((v) => v.password === v.password2, { message: '两次输入的密码不一致', path: ['password2'] });
export type Register = z.infer<typeof RegisterSchema>;

export const tokenCall = defineCall({
  name: 'token',
  method: 'POST',
  path: '/oauth/oauth/token',
  encoding: 'form',
  auth: 'client',
  body: TokenRequestSchema,
  response: TokenResponseSchema,
});

export const captchaCall = defineCall({
  name: 'captcha',
  method: 'GET',
  path: '/oauth/captcha',
  encoding: 'none',
  auth: 'none',
  response: envelope(CaptchaSchema),
});

export const signoutCall = defineCall({
  name: 'signout',
  method: 'DELETE',
  path: '/oauth/signout',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(z.null()),
});

/** Creates an account (without a school: joining one comes through an invitation). */
export const registerCall = defineCall({
  name: 'register',
  method: 'POST',
  path: '/oauth/register',
  encoding: 'json',
  auth: 'none',
  body: RegisterSchema,
  response: envelope(z.null()),
});
