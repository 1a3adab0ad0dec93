import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecognitionException } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { ExceptionQueue } from './exception-queue';

// A doubtful score box (纸上批阅, ADR 0065) in /scan's exception queue: the crop as the teacher marked it, the score
// typed from it, or the question sent to on-screen marking.

const box: RecognitionException = {
  id: 'e1',
  batchId: 'b1',
  pageId: 'p1',
  pageSeq: 3,
  pageNo: 1,
  homeworkId: 'h1',
  homeworkTitle: '先阅后扫作业',
  sheetId: 's1',
  studentId: 'st1',
  studentName: '李明',
  code: 'scoreDoubtful',
  message: '第17题打分框：打分框同一行勾了多个格（可能有涂改），请人工核对得分',
  questionIds: ['q17'],
  questions: [],
  actions: ['enterScore', 'markOnScreen'],
  imageUrl: '/teacher/scan/page/p1/image',
  status: 'open',
  resolution: null,
  createdAt: '2026-11-02T08:00:00.000Z',
  paperScore: { id: 'ps1', number: '17', fullScore: 12, cropUrl: '/teacher/paper-scores/ps1/crop' },
};

beforeEach(() => {
  signInAs();
  sessionChanged();
});
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('a doubtful score box in the exception queue', () => {
  it('types the score read from the crop, or sends the question to on-screen marking', async () => {
    const sent: unknown[] = [];
    fakeHost({
      'POST /teacher/recognition/exception/e1/resolve': (req) => {
        sent.push(req.body);
        const body = req.body as { score?: number };
        if ((body.score ?? 0) > 12)
          return { status: 400, body: { code: 400, message: '得分不能超过该题满分', data: null } };
        return ok({ ...box, status: 'resolved', resolution: (req.body as { action: string }).action });
      },
    });
    const onChanged = vi.fn();
    const user = userEvent.setup();
    render(
      <>
        <Toaster />
        <ExceptionQueue exceptions={[box]} tally={undefined} onChanged={onChanged} />
      </>,
    );
    expect(screen.getByText(box.message)).toBeInTheDocument();
    expect(screen.getByText('第17题（满分12分）：请对照红笔批改输入得分')).toBeInTheDocument();
    // The box's own entry carries its fixes: no second pair of buttons.
    expect(screen.getAllByRole('button', { name: '改为网上阅卷' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: '输入得分' })).toBeNull();

    const input = screen.getByRole('textbox', { name: '李明第17题的得分' });
    await user.click(screen.getByRole('button', { name: '确认得分' }));
    expect(await screen.findByText('请输入得分（整数或0.5分）')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.type(input, '13');
    await user.click(screen.getByRole('button', { name: '确认得分' }));
    expect(await screen.findByText('得分不能超过该题满分')).toBeInTheDocument();
    expect(onChanged).not.toHaveBeenCalled();

    await user.clear(input);
    await user.type(input, '9.5');
    await user.click(screen.getByRole('button', { name: '确认得分' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: '改为网上阅卷' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(2));
    expect(sent).toEqual([
      { action: 'enterScore', score: 13 },
      { action: 'enterScore', score: 9.5 },
      { action: 'markOnScreen' },
    ]);
  });
});
