import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaperSettingsSchema, type PaperDocument } from '@zhzy/contracts';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import {
  applyTeacherDefaults,
  clearTeacherDefaults,
  readTeacherDefaults,
  saveTeacherDefaults,
} from './defaults';

afterEach(() => {
  clearTeacherDefaults('u1');
  vi.unstubAllGlobals();
});

describe("the teacher's default paper settings", () => {
  it('keeps only what differs from the standard settings, and reads them back whole', () => {
    const mine = PaperSettingsSchema.parse({ paperSize: 'A3', sealingLine: true });
    expect(saveTeacherDefaults(mine, 'u1')).toBe(true);
    expect(document.cookie).not.toContain('margins');
    expect(readTeacherDefaults('u1')).toEqual(mine);
    expect(readTeacherDefaults('u2')).toBeNull();
  });

  it('refuses settings too long for a cookie rather than losing them silently', () => {
    const long = PaperSettingsSchema.parse({
      header: { notice: Array.from({ length: 10 }, () => '注'.repeat(150)) },
    });
    expect(saveTeacherDefaults(long, 'u1')).toBe(false);
  });

  it('applies them to a paper just made, and never to one the teacher already touched', async () => {
    signInAs();
    const puts: unknown[] = [];
    fakeHost({ 'PUT /teacher/paper/settings/p1': (req) => (puts.push(req.body), ok(req.body)) });
    saveTeacherDefaults(PaperSettingsSchema.parse({ paperSize: 'B4' }), 'u1');
    // Only what the rule reads: a paper made a moment ago, with the standard settings.
    const fresh = {
      id: 'p1',
      version: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      settings: PaperSettingsSchema.parse({}),
      permissions: { edit: true, delete: true, share: true, copy: true },
    } as PaperDocument;
    applyTeacherDefaults({ ...fresh, updatedAt: '2026-02-01T00:00:00.000Z' });
    applyTeacherDefaults({ ...fresh, version: 2 });
    applyTeacherDefaults(fresh);
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ paperSize: 'B4' });
  });
});
