import { useSyncExternalStore } from 'react';
import { SessionStore, type StoredUser } from '@zhzy/api-client/session';
import { createMemoryBacking, createStorage, type StorageBacking } from '@zhzy/api-client/storage';
import { createEmitter } from './events';

/**
 * The stored session, readable without the API client: the guard and the visitor page need only this, so the
 * client (and the contracts with zod) load with the first screen that calls the host.
 */
function browserBacking(): StorageBacking {
  try {
    const ls = globalThis.localStorage;
    if (ls) return ls;
  } catch {
    // Storage blocked (private mode settings): keep the session in memory for this tab.
  }
  return createMemoryBacking();
}

/** The marking bench's 讲评 (anonymous) mode: a setting of the projecting PC. */
export const ANONYMOUS_MARKING_KEY = 'markAnonymous';

/**
 * Keys of this device rather than of the signed-in session: the scan agent's pairing tokens, its URL override,
 * the scanner settings and the bench's 讲评 mode survive a sign-out (another teacher on the same PC uses the same agent and scanner).
 */
export const isDeviceSetting = (key: string): boolean =>
  key.startsWith('scanAgentToken:') ||
  key === 'scanAgentWsUrl' ||
  key === 'scannerSetting' ||
  key === ANONYMOUS_MARKING_KEY;

/** JSON local storage (SPEC §9) shared by the session reader and the API client; sign-out keeps device settings. */
export const storage = createStorage(browserBacking(), { keepOnClear: isDeviceSetting });
export const sessionStore = new SessionStore(storage, () => Date.now());

/** Fired after the client cleared the session (401, refresh token无效, or sign-out). */
export const signedOutEvents = createEmitter<void>();
/** Fired whenever the stored session changed (sign-in, user refreshed, sign-out). */
export const sessionEvents = createEmitter<void>();

/** Tells listeners the stored session changed (call after sign-in or a user refresh). */
export function sessionChanged(): void {
  sessionEvents.emit();
}

export interface Session {
  /** Access token and non-empty user record both stored (SPEC §2). */
  signedIn: boolean;
  user: StoredUser | null;
}

let cached: { key: string; session: Session } | null = null;

/** A stable snapshot of the stored session (recomputed only when the stored texts change). */
export function readSession(): Session {
  const user = sessionStore.user;
  const signedIn = sessionStore.isSignedIn();
  const key = `${String(sessionStore.accessToken)}|${JSON.stringify(user)}`;
  if (cached?.key !== key) cached = { key, session: { signedIn, user: signedIn ? user : null } };
  return cached.session;
}

export function useSession(): Session {
  return useSyncExternalStore((l) => sessionEvents.subscribe(l), readSession, readSession);
}

if (typeof window !== 'undefined') {
  // Another tab signed in or out.
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === 'access_token' || e.key === 'user') sessionEvents.emit();
  });
}
