import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { layoutCard } from '@zhzy/answer-card';
import { VirtualScanSchema } from '@zhzy/contracts';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { act, render, screen } from '@testing-library/react';
import { Toaster } from '../../../components/ui/toast';
import { clearToasts } from '../../../lib/toast';
import { virtualFeed } from './host-scan';

const layout = layoutCard(
  {
    id: 'p1',
    title: '一元一次方程 随堂练习',
    subtitle: '',
    sections: [
      {
        title: '一、选择题',
        questions: [
          { id: 'q1', number: '1', score: 3, kind: 'single', options: 4 },
          { id: 'q2', number: '2', score: 4, kind: 'multiple', options: 4 },
          { id: 'q3', number: '3', score: 2, kind: 'truefalse' },
          { id: 'q4', number: '4', score: 3, kind: 'single', options: 4 },
        ],
      },
      { title: '二、解答题', questions: [{ id: 'q5', number: '5', score: 10, kind: 'written' }] },
    ],
  },
  { size: 'A4', identity: 'qr' },
  { cardId: 'c1', version: 1 },
);

const item = (questionId: string, difficulty: number) => ({
  id: `i-${questionId}`,
  questionId,
  question: { id: questionId, difficulty, answer: '', options: [] },
});

const key = (questionId: string, kind: string, value: string | null) => ({
  questionId,
  number: questionId.slice(1),
  kind,
  options: kind === 'truefalse' ? ['T', 'F'] : ['A', 'B', 'C', 'D'],
  key: value,
  fullScore: 3,
});

function host(answerKey: () => { status?: number; body: unknown }) {
  return fakeHost({
    'GET /teacher/homework/card/hw1': () => ok({ homeworkId: 'hw1', layout }),
    'GET /teacher/homework/detail/hw1': () =>
      ok({
        id: 'hw1',
        classes: [{ id: 'c1', name: '七年级(1)班', studentCount: 1 }],
        paper: {
          sections: [
            { items: [item('q1', 2), item('q2', 5), item('q3', 1), item('q4', 3)] },
            { items: [item('q5', 4)] },
          ],
        },
      }),
    'GET /school/students': () =>
      ok({
        records: [{ id: 's1', name: '王子涵', studentNo: '2026070101', className: '七年级(1)班' }],
        total: 1,
      }),
    'GET /teacher/recognition/homework/hw1/key': answerKey,
  });
}

beforeEach(() => signInAs());
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('what the virtual scanner is fed for a homework', () => {
  it('is its card, its students, and the key recognition scores with, with each keyed question’s difficulty', async () => {
    const { log } = host(() =>
      ok({
        homeworkId: 'hw1',
        partialRule: 'half',
        questions: [
          key('q1', 'single', 'B'),
          key('q2', 'multiple', 'ACD'),
          key('q3', 'truefalse', 'T'),
        ].concat(
          // A question whose paper answer could not be read as options has no key: it is answered at random.
          key('q4', 'single', null),
        ),
      }),
    );
    const feed = await virtualFeed('hw1');
    expect(log.map((r) => `${r.method} ${r.path}`)).toContain('GET /teacher/recognition/homework/hw1/key');
    expect(feed.layout).toEqual(layout);
    expect(feed.students).toEqual([
      { id: 's1', name: '王子涵', number: '2026070101', className: '七年级(1)班' },
    ]);
    expect(feed.key).toEqual({ q1: 'B', q2: 'ACD', q3: 'T' });
    // The bank's levels 1…5 on the 0–1 scale.
    expect(feed.difficulty).toEqual({ q1: 0.25, q2: 1, q3: 0 });
    expect(VirtualScanSchema.safeParse({ ...feed, sheets: 1 }).success).toBe(true);
  });

  it('goes without a key, and without a toast, when the key cannot be read', async () => {
    render(<Toaster />);
    host(() => ({ status: 500, body: { code: 500, message: '系统内部异常，请联系网站管理员', data: null } }));
    const feed = await virtualFeed('hw1');
    expect(feed.key).toEqual({});
    expect(feed.difficulty).toEqual({});
    expect(feed.students).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
