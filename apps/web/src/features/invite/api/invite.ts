import { LoginFailureDataSchema, calls, type Captcha, type InviteRegister } from '@zhzy/contracts';
import { isApiError } from '@zhzy/api-client';
import { paths } from '../../../config/paths';
import { api, sessionChanged } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** What the invitation offers; anyone holding the link may read it. */
export function useInvitePreview(token: string | null) {
  return useApi(
    token ? ['invite/preview', token] : null,
    async () => (await api.call(calls.invitePreview, { body: { token: token! }, silent: true })).data,
  );
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string; captchaRequired?: boolean };

async function attempt<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const data = LoginFailureDataSchema.safeParse(error.data);
    return { ok: false, message: error.message, captchaRequired: data.success && data.data.captchaRequired };
  }
}

/** Joins with the signed-in account, then stores the new user info (the school becomes current when none was). */
export const acceptInvite = (token: string) =>
  attempt(async () => {
    const accepted = (await api.call(calls.acceptInvitation, { body: { token }, silent: true })).data;
    await api.refreshUser({ silent: true }).catch(() => undefined);
    sessionChanged();
    return accepted;
  });

/** Password sign-in (silent: failures come back as a message for the form). */
export const signIn = (username: string, password: string, captcha?: { key: string; code: string }) =>
  attempt(async () => {
    const info = await api.login(
      {
        username: username.trim(),
        password,
        ...(captcha ? { captchaKey: captcha.key, captchaCode: captcha.code.trim() } : {}),
      },
      { silent: true },
    );
    sessionChanged();
    return info;
  });

/** A new account that joins at once; the caller then signs in with it. */
export const registerAndJoin = (body: InviteRegister) =>
  attempt(async () => (await api.call(calls.inviteRegister, { body, silent: true })).data);

export async function fetchCaptcha(): Promise<Captcha | null> {
  try {
    return (await api.call(calls.captcha, { silent: true })).data;
  } catch {
    return null;
  }
}

/** The invitation page of a token: the token in the fragment, which the browser never sends to a server. */
export const inviteHref = (token: string): string => `${paths.invite}#token=${encodeURIComponent(token)}`;
