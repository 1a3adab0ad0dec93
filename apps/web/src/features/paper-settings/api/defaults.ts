import { PaperSettingsSchema, calls, type PaperDocument, type PaperSettings } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { deleteCookie, getCookie, setCookie } from '../../../lib/cookie';
import { readSession } from '../../../lib/session';

/**
 * The teacher's own default paper settings (/cloudResources/paperSetting). The host has no call for them yet, so
 * they live in a cookie of this browser for 360 days (SPEC §9's persisted settings; local storage is cleared on
 * sign-out). Only what differs from the standard settings is kept, so the cookie stays small.
 */
const cookieName = (userId: string) => `zhzy_paperset_${userId}`;
/** Browsers keep about 4 KB per cookie. */
const MAX_COOKIE_CHARS = 3800;

export const STANDARD_SETTINGS: PaperSettings = PaperSettingsSchema.parse({});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function readTeacherDefaults(userId = readSession().user?.id): PaperSettings | null {
  if (!userId) return null;
  const raw = getCookie(cookieName(userId));
  if (!raw) return null;
  try {
    const parsed = PaperSettingsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Saves the defaults; false when they do not fit (very long 注意事项). */
export function saveTeacherDefaults(settings: PaperSettings, userId = readSession().user?.id): boolean {
  if (!userId) return false;
  const diff = Object.fromEntries(
    Object.entries(settings).filter(([k, v]) => !same(v, STANDARD_SETTINGS[k as keyof PaperSettings])),
  );
  if (Object.keys(diff).length === 0) {
    deleteCookie(cookieName(userId));
    return true;
  }
  const text = JSON.stringify(diff);
  if (encodeURIComponent(text).length > MAX_COOKIE_CHARS) return false;
  setCookie(cookieName(userId), text);
  return true;
}

export function clearTeacherDefaults(userId = readSession().user?.id): void {
  if (userId) deleteCookie(cookieName(userId));
}

/**
 * A paper just made (version 1, never updated, standard settings) takes the teacher's defaults. Settings are saved apart from the
 * document, so this never makes /edit's copy stale.
 */
export function applyTeacherDefaults(doc: PaperDocument): void {
  const mine = readTeacherDefaults();
  // Only a paper never touched since it was made: a teacher who chose the standard settings keeps them.
  if (!mine || !doc.permissions.edit || doc.version !== 1 || doc.createdAt !== doc.updatedAt) return;
  if (!same(doc.settings, STANDARD_SETTINGS) || same(mine, STANDARD_SETTINGS)) return;
  void api
    .call(calls.savePaperSettings, { params: { id: doc.id }, body: mine, silent: true })
    .catch(() => undefined);
}
