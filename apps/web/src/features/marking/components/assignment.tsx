import { useEffect, useState } from 'react';
import type { MarkBlock, MarkHomework, SaveMarkBlocks } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { MARKING_TEXT as T } from '../../../i18n/marking';
import { toast } from '../../../lib/toast';
import { saveMarkBlocks, useMarkHomework } from '../api/marking';

type Draft = SaveMarkBlocks['blocks'][number];

const draftOf = (b: MarkBlock): Draft => ({
  id: b.id,
  questionIds: b.questions.map((q) => q.questionId),
  title: b.title,
  mode: b.mode,
  threshold: b.threshold,
  averageRule: b.averageRule,
  halfPoints: b.halfPoints,
  assignBy: b.assignBy,
  markers: b.markers.map((m) => ({ userId: m.userId, classIds: m.classIds })),
  arbiterId: b.arbiterId,
  rubric: b.rubric,
  comments: b.comments,
});

/** The creator's assignment screen: blocks (merge, split), mode, threshold, rule, markers by question or class. */
export function AssignmentDialog({ homeworkId, onClose }: { homeworkId: string; onClose: () => void }) {
  const { data, mutate } = useMarkHomework(homeworkId);
  return (
    <Dialog open onClose={onClose} title={T.assignTitle} className="max-w-5xl">
      {data ? (
        <Editor hw={data} onSaved={(h) => void mutate(h, false)} />
      ) : (
        <Skeleton className="h-80 w-full" />
      )}
    </Dialog>
  );
}

function Editor({ hw, onSaved }: { hw: MarkHomework; onSaved: (h: MarkHomework) => void }) {
  const [drafts, setDrafts] = useState<Draft[]>(() => hw.blocks.map(draftOf));
  const [busy, setBusy] = useState(false);
  useEffect(() => setDrafts(hw.blocks.map(draftOf)), [hw]);
  const started = new Map(hw.blocks.map((b) => [b.id, b.started]));
  const qNo = new Map(hw.questions.map((q) => [q.questionId, q.no]));
  const update = (i: number, patch: Partial<Draft>) =>
    setDrafts(drafts.map((d, k) => (k === i ? { ...d, ...patch } : d)));
  const merge = (i: number) => {
    const prev = drafts[i - 1]!;
    const cur = drafts[i]!;
    const merged = { ...prev, questionIds: [...prev.questionIds, ...cur.questionIds] };
    setDrafts([...drafts.slice(0, i - 1), merged, ...drafts.slice(i + 1)]);
  };
  const split = (i: number) => {
    const d = drafts[i]!;
    const parts = d.questionIds.map((q, k) => ({
      ...d,
      ...(k === 0 ? {} : { id: undefined }),
      questionIds: [q],
      title: T.questionNo(qNo.get(q) ?? ''),
    }));
    setDrafts([...drafts.slice(0, i), ...parts, ...drafts.slice(i + 1)]);
  };
  const toggleMarker = (i: number, userId: string, classId?: string) => {
    const d = drafts[i]!;
    const has = d.markers.find((m) => m.userId === userId);
    let markers = d.markers;
    if (d.assignBy === 'question') {
      markers = has ? d.markers.filter((m) => m.userId !== userId) : [...d.markers, { userId, classIds: [] }];
    } else if (classId) {
      const classes = new Set(has?.classIds ?? []);
      if (classes.has(classId)) classes.delete(classId);
      else classes.add(classId);
      markers = [
        ...d.markers.filter((m) => m.userId !== userId),
        ...(classes.size > 0 ? [{ userId, classIds: [...classes] }] : []),
      ];
    }
    update(i, { markers });
  };
  const save = async () => {
    setBusy(true);
    try {
      const saved = await saveMarkBlocks(hw.id, { blocks: drafts });
      toast(T.saved, 'success');
      onSaved(saved);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="max-h-[75vh] space-y-4 overflow-auto pr-1">
      <p className="text-sm text-slate-500">{T.assignLead}</p>
      {drafts.map((d, i) => {
        const view = hw.blocks.find((b) => b.id === d.id);
        const locked = !!(d.id && started.get(d.id));
        return (
          <section
            key={d.id ?? `new-${i}`}
            className="rounded-lg border border-slate-200 p-3 text-sm"
            aria-label={d.title}
          >
            <div className="flex flex-wrap items-center gap-3">
              <input
                aria-label={T.blockTitle}
                value={d.title}
                onChange={(e) => update(i, { title: e.target.value })}
                className="h-8 w-40 rounded border border-slate-300 px-2 font-medium"
              />
              <span className="text-slate-500">
                {T.questionList(d.questionIds.map((q) => qNo.get(q) ?? '?'))}
              </span>
              {i > 0 && !locked && !(drafts[i - 1]!.id && started.get(drafts[i - 1]!.id!)) && (
                <Button variant="link" size="sm" onClick={() => merge(i)}>
                  {T.mergeUp}
                </Button>
              )}
              {d.questionIds.length > 1 && !locked && (
                <Button variant="link" size="sm" onClick={() => split(i)}>
                  {T.split}
                </Button>
              )}
            </div>
            <div className="mt-2 flex flex-wrap items-center gap-4">
              <label className="flex items-center gap-1">
                {T.mode}
                <select
                  value={d.mode}
                  onChange={(e) => update(i, { mode: e.target.value as Draft['mode'] })}
                  className="h-8 rounded border border-slate-300 px-1"
                >
                  <option value="single">{T.modeNames.single}</option>
                  <option value="double">{T.modeNames.double}</option>
                </select>
              </label>
              {d.mode === 'double' && (
                <>
                  <label className="flex items-center gap-1">
                    {T.threshold}
                    <input
                      type="number"
                      min={0}
                      step={0.5}
                      value={d.threshold}
                      onChange={(e) => update(i, { threshold: Number(e.target.value) || 0 })}
                      className="h-8 w-16 rounded border border-slate-300 px-1"
                    />
                  </label>
                  <label className="flex items-center gap-1">
                    {T.rule}
                    <select
                      value={d.averageRule}
                      onChange={(e) => update(i, { averageRule: e.target.value as Draft['averageRule'] })}
                      className="h-8 rounded border border-slate-300 px-1"
                    >
                      {Object.entries(T.ruleNames).map(([v, n]) => (
                        <option key={v} value={v}>
                          {n}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="flex items-center gap-1">
                    {T.arbiter}
                    <select
                      value={d.arbiterId ?? ''}
                      onChange={(e) => update(i, { arbiterId: e.target.value || null })}
                      className="h-8 rounded border border-slate-300 px-1"
                    >
                      <option value="">{T.arbiterDefault}</option>
                      {hw.candidates.map((c) => (
                        <option key={c.userId} value={c.userId}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  </label>
                </>
              )}
              <label className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={d.halfPoints}
                  onChange={(e) => update(i, { halfPoints: e.target.checked })}
                />
                {T.halfPoints}
              </label>
              <label className="flex items-center gap-1">
                {T.assignBy}
                <select
                  value={d.assignBy}
                  onChange={(e) => update(i, { assignBy: e.target.value as Draft['assignBy'], markers: [] })}
                  className="h-8 rounded border border-slate-300 px-1"
                >
                  <option value="question">{T.assignByNames.question}</option>
                  <option value="class">{T.assignByNames.class}</option>
                </select>
              </label>
            </div>
            <div className="mt-2">
              <p className="text-slate-600">{T.markers}</p>
              {d.assignBy === 'question' ? (
                <div className="mt-1 flex flex-wrap gap-3">
                  {hw.candidates.map((c) => (
                    <label key={c.userId} className="flex items-center gap-1">
                      <input
                        type="checkbox"
                        checked={d.markers.some((m) => m.userId === c.userId)}
                        onChange={() => toggleMarker(i, c.userId)}
                      />
                      {c.name}
                    </label>
                  ))}
                </div>
              ) : (
                <table className="mt-1 text-xs">
                  <tbody>
                    {hw.classes.map((cls) => (
                      <tr key={cls.id}>
                        <th className="pr-3 text-left font-normal text-slate-600">{cls.name}</th>
                        <td className="flex flex-wrap gap-3 py-1">
                          {hw.candidates.map((c) => (
                            <label key={c.userId} className="flex items-center gap-1">
                              <input
                                type="checkbox"
                                checked={d.markers.some(
                                  (m) => m.userId === c.userId && m.classIds.includes(cls.id),
                                )}
                                onChange={() => toggleMarker(i, c.userId, cls.id)}
                              />
                              {c.name}
                              {c.subjectClassIds.includes(cls.id) && (
                                <span className="text-emerald-700">{T.teachesMark}</span>
                              )}
                            </label>
                          ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
            <label className="mt-2 block">
              <span className="text-slate-600">{T.rubric}</span>
              <textarea
                value={d.rubric}
                onChange={(e) => update(i, { rubric: e.target.value })}
                className="mt-1 h-14 w-full rounded border border-slate-300 p-2"
              />
            </label>
            {view && view.teachers.length > 0 && (
              <p className="mt-2 text-xs text-slate-500">
                {T.teacherProgressLine(view.teachers.map((t) => T.teacherLine(t.name, t.marks, t.remaining)))}
              </p>
            )}
          </section>
        );
      })}
      <div className="flex justify-end">
        <Button loading={busy} onClick={() => void save()}>
          {T.save}
        </Button>
      </div>
    </div>
  );
}
