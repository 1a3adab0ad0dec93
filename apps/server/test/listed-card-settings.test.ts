import { describe, expect, it } from 'vitest';
import { listedSettingsOf, settingsOf } from '../src/modules/homework/repository/records.js';

// Issue 25: the homework list parsed every listed card version's settings through their schema on every request.

describe("a listed homework's card settings", () => {
  const a3 = JSON.stringify({ size: 'A3', identity: 'barcode', studentNumberDigits: 6, columns: 2 });

  it('are parsed once per stored text and shared, frozen', () => {
    const first = listedSettingsOf(a3);
    expect(first).toEqual(settingsOf(a3));
    expect(listedSettingsOf(String(a3))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.writtenHeights)).toBe(true);
  });

  it('follow their text: another text reads as its own, an unreadable one as the defaults', () => {
    const a4 = JSON.stringify({ size: 'A4', identity: 'qr' });
    expect(listedSettingsOf(a4)).toMatchObject({ size: 'A4', identity: 'qr' });
    expect(listedSettingsOf(a3)).toMatchObject({ size: 'A3', identity: 'barcode', columns: 2 });
    expect(listedSettingsOf('not json')).toEqual(settingsOf('{}'));
  });
});
