import { describe, expect, it } from 'vitest';
import { CARD_QR_PREFIX, crc32, decodeCardQr, encodeCardQr } from '@zhzy/contracts';

describe('card QR payload codec', () => {
  it('encodes the card, version, page and student compactly with a CRC-32 check', () => {
    const text = encodeCardQr({ cardId: 'card-1', version: 2, page: 1, studentId: 'stu-7' });
    expect(text).toMatch(/^ZY1\|card-1\|2\|1\|stu-7\|[0-9A-F]{8}$/);
    expect(text.startsWith(`${CARD_QR_PREFIX}|`)).toBe(true);
  });

  it('round-trips with and without a student', () => {
    for (const payload of [
      {
        cardId: '0199a3f2-7c41-7b3e-9d5a-2f6c8e1b4a70',
        version: 12,
        page: 3,
        studentId: '0199a3f2-0001-7b3e-9d5a-2f6c8e1b4a70',
      },
      { cardId: 'card-1', version: 1, page: 1 },
    ]) {
      expect(decodeCardQr(encodeCardQr(payload))).toEqual({ ok: true, payload });
    }
  });

  it('survives ids containing the separator and the escape character', () => {
    const payload = { cardId: 'a|b%7C%25|', version: 1, page: 2, studentId: '%|%' };
    expect(decodeCardQr(encodeCardQr(payload))).toEqual({ ok: true, payload });
  });

  it('matches the standard CRC-32 check value', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('refuses any single changed character (the check fails or the text no longer parses)', () => {
    const text = encodeCardQr({ cardId: 'card-1', version: 2, page: 1, studentId: 'stu-7' });
    for (let i = 0; i < text.length; i++) {
      for (const ch of ['0', '9', 'x', '|']) {
        if (text[i] === ch) continue;
        const changed = text.slice(0, i) + ch + text.slice(i + 1);
        expect(decodeCardQr(changed).ok, changed).toBe(false);
      }
    }
  });

  it('names why a text is refused', () => {
    expect(decodeCardQr('https://example.com')).toEqual({ ok: false, reason: 'notOurs' });
    expect(decodeCardQr('ZY1|card|1|1')).toEqual({ ok: false, reason: 'malformed' });
    const text = encodeCardQr({ cardId: 'card-1', version: 2, page: 1 });
    expect(decodeCardQr(text.replace('|2|', '|3|'))).toEqual({ ok: false, reason: 'checkFailed' });
    const zeroPage = 'ZY1|card|1|0|';
    expect(
      decodeCardQr(`${zeroPage}|${crc32(zeroPage).toString(16).toUpperCase().padStart(8, '0')}`).ok,
    ).toBe(false);
  });
});
