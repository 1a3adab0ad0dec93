import { useState } from 'react';
import type { GroupScoreResult, MarkBlock, MarkGroup } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { Skeleton } from '../../../components/ui/skeleton';
import { MARKING_TEXT as T } from '../../../i18n/marking';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { groupScore, useMarkGroups } from '../api/marking';
import { Thumb } from './thumb';
import { cleanScoreText, readScores } from '../utils/score';

/** Grouped marking: blank answers and identical crops, looked at, then scored together. */
export function GroupsDialog({
  block,
  onClose,
  onScored,
}: {
  block: MarkBlock;
  onClose: () => void;
  /** After a group is scored: the items scored and my counts now (the bench's counters follow at once). */
  onScored: (result: GroupScoreResult, scored: string[]) => void;
}) {
  const { data, mutate } = useMarkGroups(block.id);
  return (
    <Dialog open onClose={onClose} title={T.groups} className="max-w-5xl">
      <p className="mb-3 text-sm text-slate-500">{T.groupsLead}</p>
      {!data ? (
        <Skeleton className="h-60 w-full" />
      ) : data.length === 0 ? (
        <Empty title={T.groupsEmpty} />
      ) : (
        <div className="max-h-[70vh] space-y-6 overflow-auto">
          {data.map((g) => (
            <GroupCard
              key={`${g.kind}-${g.sheetIds[0]}`}
              group={g}
              block={block}
              onScored={(res, scored) => {
                onScored(res, scored);
                void mutate();
              }}
            />
          ))}
        </div>
      )}
    </Dialog>
  );
}

function GroupCard({
  group,
  block,
  onScored,
}: {
  group: MarkGroup;
  block: MarkBlock;
  onScored: (result: GroupScoreResult, scored: string[]) => void;
}) {
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(group.sheetIds));
  const [texts, setTexts] = useState<string[]>(() =>
    block.questions.map(() => (group.kind === 'blank' ? '0' : '')),
  );
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const read = readScores(texts, block.questions, block.halfPoints);
    if (!read.ok) {
      setError(read.message);
      return;
    }
    setBusy(true);
    try {
      const res = await groupScore(block.id, [...chosen], read.scores);
      const ok = res.results.filter((r) => r.ok).length;
      toast(T.groupDone(ok, res.results.length - ok), ok === res.results.length ? 'success' : 'error');
      onScored(
        res,
        res.results.filter((r) => r.ok).map((r) => r.sheetId),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="rounded-lg border border-slate-200 p-3">
      <h3 className="mb-2 text-sm font-medium text-slate-800">
        {group.kind === 'blank' ? T.groupBlank(group.sheetIds.length) : T.groupSimilar(group.sheetIds.length)}
      </h3>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {group.items.map((item, n) => (
          <label
            key={item.sheetId}
            className={cn(
              'block cursor-pointer rounded border p-1',
              chosen.has(item.sheetId) ? 'border-blue-300 bg-blue-50/40' : 'border-slate-200 opacity-60',
            )}
          >
            {/* Above the crop, not over it: the answer starts at the crop's top left. */}
            <span className="mb-1 flex items-center gap-1.5 px-1 text-xs text-slate-500">
              <input
                type="checkbox"
                checked={chosen.has(item.sheetId)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(item.sheetId);
                  else next.delete(item.sheetId);
                  setChosen(next);
                }}
              />
              {T.groupItem(n + 1)}
            </span>
            {item.answers.map((a) => (a.cropUrl ? <Thumb key={a.questionId} url={a.cropUrl} /> : null))}
          </label>
        ))}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {block.questions.map((q, i) => (
          <label key={q.questionId} className="flex items-center gap-2 text-sm">
            {T.scoreFor(q.no, q.fullScore)}
            <input
              value={texts[i]}
              inputMode="decimal"
              onChange={(e) => setTexts(texts.map((t, k) => (k === i ? cleanScoreText(e.target.value) : t)))}
              className="h-8 w-16 rounded border border-slate-300 px-2 text-right"
            />
          </label>
        ))}
        <Button size="sm" loading={busy} disabled={chosen.size === 0} onClick={() => void submit()}>
          {T.groupScoreCount(chosen.size)}
        </Button>
        {error && (
          <span role="alert" className="text-sm text-red-600">
            {error}
          </span>
        )}
      </div>
    </section>
  );
}
