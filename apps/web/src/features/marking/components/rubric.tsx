import { useState } from 'react';
import { isApiError } from '@zhzy/api-client';
import {
  RUBRIC_KEYS,
  rubricScoreTenths,
  type MarkBlock,
  type MarkQuestion,
  type RubricItem,
} from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { MARKING_TEXT as T } from '../../../i18n/marking';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { saveRubricItems } from '../api/marking';
import { formatScore } from '../utils/score';

// Rubric items (评分项): a question's items as one-key buttons on the bench, and the dialog that edits them.

/** Applied item ids per question id. */
export type Applied = Record<string, string[]>;

/** The key of each item of a block, in the block's order. */
export const keyOf = (block: MarkBlock, itemId: string): string | null => {
  const i = block.rubricItems.findIndex((r) => r.id === itemId);
  return i >= 0 && i < RUBRIC_KEYS.length ? RUBRIC_KEYS[i]! : null;
};

/** The item a key applies, if any. */
export const itemOfKey = (block: MarkBlock, key: string): RubricItem | null => {
  const i = (RUBRIC_KEYS as readonly string[]).indexOf(key.toLowerCase());
  return i >= 0 ? (block.rubricItems[i] ?? null) : null;
};

/** Toggles an item; answers the applied ids of its question and the score they give (null: none applied). */
export function toggleItem(
  applied: Applied,
  item: RubricItem,
  question: MarkQuestion,
  items: readonly RubricItem[],
): { ids: string[]; score: number | null } {
  const now = applied[item.questionId] ?? [];
  const ids = now.includes(item.id) ? now.filter((id) => id !== item.id) : [...now, item.id];
  const points = ids.map((id) => Math.round((items.find((r) => r.id === id)?.points ?? 0) * 10));
  const tenths = rubricScoreTenths(Math.round(question.fullScore * 10), points);
  return { ids, score: tenths === null ? null : tenths / 10 };
}

/** A question's items as buttons, each with its key; the applied ones pressed. */
export function RubricButtons({
  block,
  question,
  applied,
  disabled,
  onToggle,
}: {
  block: MarkBlock;
  question: MarkQuestion;
  applied: string[];
  disabled: boolean;
  onToggle: (item: RubricItem) => void;
}) {
  const items = block.rubricItems.filter((r) => r.questionId === question.questionId);
  if (items.length === 0) return null;
  const labels = items
    .filter((r) => applied.includes(r.id))
    .map((r) => `${r.label} ${T.signedPoints(r.points)}`);
  return (
    <div role="group" aria-label={T.rubricItemsOf(question.no)} className="space-y-1">
      <div className="flex flex-wrap gap-1.5">
        {items.map((r) => {
          const key = keyOf(block, r.id);
          const on = applied.includes(r.id);
          return (
            <button
              key={r.id}
              type="button"
              disabled={disabled}
              aria-pressed={on}
              onClick={() => onToggle(r)}
              className={cn(
                'flex h-8 items-center gap-1.5 rounded-md border px-2 text-sm',
                on
                  ? r.points < 0
                    ? 'border-red-400 bg-red-50 text-red-700'
                    : 'border-emerald-500 bg-emerald-50 text-emerald-800'
                  : 'border-slate-200 text-slate-700 hover:border-blue-300',
              )}
            >
              {key && (
                <kbd className="rounded border border-slate-300 bg-white px-1 font-mono text-xs text-slate-500">
                  {key.toUpperCase()}
                </kbd>
              )}
              <span>{r.label}</span>
              <span className="tabular-nums">{T.signedPoints(r.points)}</span>
            </button>
          );
        })}
      </div>
      {labels.length > 0 && (
        <p className="text-xs text-slate-600" data-testid="rubric-applied">
          {T.rubricApplied(labels)}
        </p>
      )}
    </div>
  );
}

interface Row {
  id?: string;
  questionId: string;
  label: string;
  points: string;
}

/** Edits the block's rubric items (its creator and markers). */
export function RubricDialog({
  block,
  onClose,
  onSaved,
}: {
  block: MarkBlock;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [rows, setRows] = useState<Row[]>(() =>
    block.rubricItems.map((r) => ({
      id: r.id,
      questionId: r.questionId,
      label: r.label,
      points: formatScore(r.points),
    })),
  );
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const first = block.questions[0]!.questionId;
  const set = (i: number, patch: Partial<Row>) => {
    setRows(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
    setError('');
  };
  const save = async () => {
    const items = [];
    for (const r of rows) {
      const points = Number(r.points.replace('−', '-'));
      if (!r.points.trim() || !Number.isFinite(points) || points === 0) {
        setError(T.rubricPointsBad);
        return;
      }
      items.push({ ...(r.id ? { id: r.id } : {}), questionId: r.questionId, label: r.label.trim(), points });
    }
    setBusy(true);
    try {
      await saveRubricItems(block.id, { items });
      toast(T.rubricSaved, 'success');
      onSaved();
    } catch (e) {
      if (!isApiError(e)) throw e;
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} title={T.rubricEditTitle} className="max-w-2xl">
      <p className="mb-3 text-sm text-slate-500">{T.rubricLead}</p>
      <div className="space-y-2">
        {rows.map((r, i) => (
          <div key={i} className="flex items-center gap-2">
            {block.questions.length > 1 && (
              <select
                aria-label={T.rubricQuestion}
                value={r.questionId}
                onChange={(e) => set(i, { questionId: e.target.value })}
                className="h-9 rounded border border-slate-300 px-2 text-sm"
              >
                {block.questions.map((q) => (
                  <option key={q.questionId} value={q.questionId}>
                    {T.questionNo(q.no)}
                  </option>
                ))}
              </select>
            )}
            <input
              aria-label={T.rubricLabel}
              placeholder={T.rubricLabel}
              value={r.label}
              maxLength={30}
              onChange={(e) => set(i, { label: e.target.value })}
              className="h-9 min-w-0 flex-1 rounded border border-slate-300 px-2 text-sm"
            />
            <input
              aria-label={T.rubricPoints}
              placeholder={T.rubricPoints}
              value={r.points}
              inputMode="decimal"
              onChange={(e) => set(i, { points: e.target.value.replace(/[^\d.\-−]/g, '') })}
              className="h-9 w-28 rounded border border-slate-300 px-2 text-right text-sm tabular-nums"
            />
            <Button variant="ghost" size="sm" onClick={() => setRows(rows.filter((_, k) => k !== i))}>
              {T.rubricRemove}
            </Button>
          </div>
        ))}
      </div>
      <Button
        variant="secondary"
        size="sm"
        className="mt-3"
        disabled={rows.length >= RUBRIC_KEYS.length}
        onClick={() => setRows([...rows, { questionId: first, label: '', points: '' }])}
      >
        {T.rubricAdd}
      </Button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      )}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {T.cancel}
        </Button>
        <Button loading={busy} onClick={() => void save()}>
          {T.save}
        </Button>
      </div>
    </Dialog>
  );
}
