import { describe, expect, it } from 'vitest';
import { RescanPageSchema, StartScanSchema, VirtualScanSchema, isNewerVersion } from './index.js';

const settings = { scannerIndex: 0 };

describe('the virtual scan of POST /scans', () => {
  it('carries an answer key and difficulties for the class to answer from, and stays valid without them', () => {
    const start = StartScanSchema.parse({
      settings,
      virtual: {
        sheets: 2,
        seed: 7,
        key: { q1: 'B', q2: 'ACD', q3: 'T', q4: 'F' },
        difficulty: { q1: 0.25, q2: 1 },
      },
    });
    expect(start.virtual).toMatchObject({
      key: { q1: 'B', q2: 'ACD', q3: 'T', q4: 'F' },
      difficulty: { q1: 0.25, q2: 1 },
    });
    const plain = VirtualScanSchema.parse({});
    expect(plain.key).toBeUndefined();
    expect(plain.difficulty).toBeUndefined();
    expect(RescanPageSchema.parse({ virtual: { key: { q1: 'C' } } }).virtual?.key).toEqual({ q1: 'C' });
  });

  it('refuses keys that are not option letters, repeat an option or mix true/false with letters', () => {
    for (const bad of ['', 'b', 'AA', 'TF', 'AT', 'ABCDEFGH', '1']) {
      const result = VirtualScanSchema.safeParse({ key: { q1: bad } });
      expect(result.success, `key ${JSON.stringify(bad)}`).toBe(false);
    }
    expect(VirtualScanSchema.safeParse({ key: { q1: 'ABCDEFG' } }).success).toBe(true);
  });

  it('refuses difficulties off the 0–1 scale and tables of more questions than a card holds', () => {
    expect(VirtualScanSchema.safeParse({ difficulty: { q1: 1.5 } }).success).toBe(false);
    expect(VirtualScanSchema.safeParse({ difficulty: { q1: -0.1 } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 401 }, (_, i) => [`q${i}`, 'A']));
    expect(VirtualScanSchema.safeParse({ key: many }).success).toBe(false);
    const enough = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`q${i}`, 'A']));
    expect(VirtualScanSchema.safeParse({ key: enough }).success).toBe(true);
  });
});

describe('agent versions', () => {
  it('compares numeric dot parts and ignores a pre-release suffix', () => {
    expect(isNewerVersion('0.2.1-test', '0.2.0')).toBe(true);
    expect(isNewerVersion('0.10.0', '0.9.9')).toBe(true);
    expect(isNewerVersion('0.2.0', '0.2.0-beta')).toBe(false);
    expect(isNewerVersion('0.2.0', '0.2.1')).toBe(false);
    expect(isNewerVersion('1.0', '1.0.0')).toBe(false);
  });
});
