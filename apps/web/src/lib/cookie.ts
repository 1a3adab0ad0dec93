import { COOKIE_PERSIST_DAYS } from '@zhzy/contracts/constants';

/** Sets a cookie for `days` days (settings persist 360 days by default), path `/`. */
export function setCookie(name: string, value: string, days: number = COOKIE_PERSIST_DAYS): void {
  const expires = new Date(Date.now() + days * 86_400_000).toUTCString();
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
}

/** The cookie's value, or null when not set. */
export function getCookie(name: string): string | null {
  const wanted = encodeURIComponent(name);
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === wanted) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** Deletes the cookie. */
export function deleteCookie(name: string): void {
  document.cookie = `${encodeURIComponent(name)}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax`;
}
