import { LoginFailureDataSchema, calls, type Captcha, type Register, type UserInfo } from '@zhzy/contracts';
import { isApiError } from '@zhzy/api-client';
import { api, sessionChanged } from '../../../lib/api';

export interface LoginValues {
  username: string;
  password: string;
  captchaKey?: string | undefined;
  captchaCode?: string | undefined;
}

export type LoginResult =
  { ok: true; info: UserInfo } | { ok: false; message: string; captchaRequired: boolean };

/** Password grant then user info (stored by the client); failures come back as a message, not a toast. */
export async function login(values: LoginValues): Promise<LoginResult> {
  try {
    const info = await api.login(
      {
        username: values.username.trim(),
        password: values.password,
        ...(values.captchaKey
          ? { captchaKey: values.captchaKey, captchaCode: values.captchaCode?.trim() ?? '' }
          : {}),
      },
      { silent: true },
    );
    sessionChanged();
    return { ok: true, info };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const data = LoginFailureDataSchema.safeParse(error.data);
    return { ok: false, message: error.message, captchaRequired: data.success && data.data.captchaRequired };
  }
}

/** A new image captcha (one try, five minutes). */
export async function fetchCaptcha(): Promise<Captcha> {
  const answer = await api.call(calls.captcha, { silent: true });
  return answer.data;
}

/** Creates an account; resolves with null on success or the host's message. */
export async function register(values: Register): Promise<string | null> {
  try {
    await api.call(calls.register, { body: values, silent: true });
    return null;
  } catch (error) {
    if (isApiError(error)) return error.message;
    throw error;
  }
}
