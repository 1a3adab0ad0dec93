import { calls, type ChangePassword, type CreateFeedback } from '@zhzy/contracts';
import { isApiError } from '@zhzy/api-client';
import { api, sessionChanged } from '../../../lib/api';
import { useApi, useApiRevalidate } from '../../../lib/swr';

export const ACCOUNT_KEY = 'account';

export function useProfile() {
  return useApi([ACCOUNT_KEY, 'profile'], async () => (await api.call(calls.profile)).data);
}

export function useMyTeaching(enabled: boolean) {
  return useApi(
    enabled ? [ACCOUNT_KEY, 'teaching'] : null,
    async () => (await api.call(calls.myTeaching, { query: {} })).data,
  );
}

export function useMyFeedback(page: number) {
  return useApi(
    [ACCOUNT_KEY, 'feedback', page],
    async () => (await api.call(calls.myFeedback, { query: { page, size: 10 } })).data,
    { keepPreviousData: true },
  );
}

export function useSchoolFeedback(orgId: string | null, status: 'pending' | 'replied' | '', page: number) {
  return useApi(
    orgId ? [ACCOUNT_KEY, 'school-feedback', orgId, status, page] : null,
    async () =>
      (
        await api.call(calls.schoolFeedback, {
          query: { orgId: orgId!, page, size: 10, ...(status ? { status } : {}) },
        })
      ).data,
    { keepPreviousData: true },
  );
}

export function useRevalidateAccount() {
  const revalidate = useApiRevalidate();
  return (part: 'profile' | 'feedback' | 'school-feedback' | 'teaching') =>
    void revalidate(ACCOUNT_KEY, part);
}

/** Stores the new user info so the top bar shows the new avatar, nickname or school. */
export async function refreshUser(): Promise<void> {
  try {
    await api.refreshUser({ silent: true });
  } catch {
    // The profile itself is saved; the top bar catches up on the next sign-in.
  }
  sessionChanged();
}

export const updateNickname = async (nickname: string) =>
  (await api.call(calls.updateNickname, { body: { nickname } })).data;
export const uploadAvatar = async (file: Blob) =>
  (await api.call(calls.uploadAvatar, { body: { file } })).data;
export const deleteAvatar = async () => (await api.call(calls.deleteAvatar)).data;
export const sendBindSms = async (phone: string) =>
  (await api.call(calls.sendBindSms, { body: { phone } })).data;
export const bindPhone = async (phone: string, smsCode: string) =>
  (await api.call(calls.bindPhone, { body: { phone, smsCode } })).data;
export const setDefaultSchool = async (orgId: string) =>
  (await api.call(calls.setDefaultSchool, { body: { orgId } })).data;

/** Resolves with null on success, or the host's message for the form (no toast). */
export async function changePassword(body: ChangePassword): Promise<string | null> {
  try {
    await api.call(calls.changePassword, { body, silent: true });
    return null;
  } catch (error) {
    if (isApiError(error)) return error.message;
    throw error;
  }
}

export const uploadFeedbackImage = async (file: Blob) =>
  (await api.call(calls.uploadFeedbackImage, { body: { file } })).data;
export const createFeedback = async (body: CreateFeedback) =>
  (await api.call(calls.createFeedback, { body })).data;
export const replyFeedback = async (id: string, reply: string) =>
  (await api.call(calls.replyFeedback, { params: { id }, body: { reply } })).data;
