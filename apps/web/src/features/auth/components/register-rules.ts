import { FORM_MESSAGES, RegisterSchema } from '@zhzy/contracts';

export type RegisterField = 'username' | 'password' | 'password2' | 'nickname' | 'captchaCode' | 'smsCode';

export interface RegisterValues {
  username: string;
  password: string;
  password2: string;
  nickname: string;
  captchaKey: string;
  captchaCode: string;
  smsCode: string;
}

/**
 * When each field is checked (SPEC §5): username, nickname and the image code when the field is left;
 * the two passwords on every change.
 */
export const TRIGGER: Record<RegisterField, 'blur' | 'change' | 'none'> = {
  username: 'blur',
  password: 'change',
  password2: 'change',
  nickname: 'blur',
  captchaCode: 'blur',
  smsCode: 'none',
};

/** Every field's first error by the contracts' RegisterSchema rules (SPEC §5 messages). */
export function registerErrors(values: RegisterValues): Partial<Record<RegisterField, string>> {
  const input = { ...values, smsCode: values.smsCode.trim() || undefined };
  const result = RegisterSchema.safeParse(input);
  const out: Partial<Record<RegisterField, string>> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    let field = issue.path[0] as string;
    // A missing captcha key means the picture did not load: the user sees it as the image code.
    if (field === 'captchaKey') field = 'captchaCode';
    if (!(field in TRIGGER)) continue;
    const f = field as RegisterField;
    out[f] ??= issue.message;
  }
  // An empty second password says 请输入密码 before any mismatch.
  if (!values.password2) out.password2 = FORM_MESSAGES.password;
  return out;
}
