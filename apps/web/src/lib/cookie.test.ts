import { afterEach, describe, expect, it, vi } from 'vitest';
import { COOKIE_PERSIST_DAYS } from '@zhzy/contracts';
import { deleteCookie, getCookie, setCookie } from './cookie';

afterEach(() => {
  vi.restoreAllMocks();
  for (const name of ['scanner', 'city', 'a;b']) deleteCookie(name);
});

describe('cookie helper', () => {
  it('sets and gets a value, encoding what needs it', () => {
    setCookie('city', '北京; 海淀', 7);
    expect(getCookie('city')).toBe('北京; 海淀');
    expect(getCookie('unknown')).toBeNull();
  });

  it('persists settings for 360 days by default', () => {
    const writes: string[] = [];
    const desc = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    vi.spyOn(document, 'cookie', 'set').mockImplementation((v: string) => {
      writes.push(v);
      desc.set!.call(document, v);
    });
    const now = Date.UTC(2026, 0, 1);
    vi.spyOn(Date, 'now').mockReturnValue(now);
    setCookie('scanner', '0');
    expect(COOKIE_PERSIST_DAYS).toBe(360);
    const expires = /expires=([^;]+)/.exec(writes[0]!)?.[1];
    expect(new Date(expires!).getTime()).toBe(now + 360 * 86_400_000);
    expect(writes[0]).toContain('path=/');
  });

  it('deletes a cookie', () => {
    setCookie('scanner', '2');
    expect(getCookie('scanner')).toBe('2');
    deleteCookie('scanner');
    expect(getCookie('scanner')).toBeNull();
  });
});
