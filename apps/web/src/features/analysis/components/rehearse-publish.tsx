import { useId, useState } from 'react';
import { calls, type Rehearsal } from '@zhzy/contracts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { paths, withQuery } from '../../../config/paths';
import { composition } from '../../../i18n/composition';
import { HOMEWORK_LIST } from '../../../api/keys';
import { api } from '../../../lib/api';
import { useApiRevalidate } from '../../../lib/swr';

const s = composition.mistakes.publish;

/**
 * 错题重练 「发布为作业」: the whole class's most-missed questions (or the picked students' wrong questions), with
 * similar ones when ticked, published to the class as a homework in one step; then that homework's card and print
 * links.
 */
export function RehearsePublish({
  classId,
  scope,
  picked,
}: {
  classId: string;
  /** One homework, or the homework of a date range. */
  scope: { homeworkId: string } | { from: string; to: string };
  /** Ticked students; none means the whole class. */
  picked: string[];
}) {
  const countId = useId();
  const [count, setCount] = useState(10);
  const [similar, setSimilar] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Rehearsal | null>(null);
  const revalidate = useApiRevalidate();

  const publish = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await api.call(calls.publishRehearsal, {
        body: { classId, studentIds: picked, similar, count, ...scope },
      });
      setDone(res.data);
      void revalidate(HOMEWORK_LIST);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : s.failed);
    } finally {
      setBusy(false);
    }
  };

  const q = done ? { homeworkId: done.homeworkId } : {};
  return (
    <section aria-label={s.title} className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 className="text-base font-semibold text-slate-900">{s.title}</h2>
      <p className="mt-1 text-sm leading-6 text-slate-600">
        {picked.length > 0 ? s.pickedHint(picked.length) : s.classHint(count)}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-4 text-sm text-slate-700">
        {picked.length === 0 && (
          <label htmlFor={countId} className="flex items-center gap-2">
            {s.count}
            <input
              id={countId}
              type="number"
              min={1}
              max={50}
              value={count}
              onChange={(e) => setCount(Math.min(50, Math.max(1, Number(e.target.value) || 1)))}
              className="h-9 w-20 rounded-md border border-slate-300 px-2"
            />
          </label>
        )}
        <label className="flex items-center gap-2" title={s.similarHint}>
          <input
            type="checkbox"
            className="size-4 accent-blue-600"
            checked={similar}
            onChange={(e) => setSimilar(e.target.checked)}
          />
          {s.similar}
        </label>
        <Button loading={busy} onClick={() => void publish()}>
          {s.button}
        </Button>
      </div>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {error}
        </p>
      )}
      {done && (
        <div role="status" className="mt-4 rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          <p className="font-medium">{s.done(done.title, done.questions.length)}</p>
          <p className="mt-1 text-emerald-800">{s.doneHint}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <ButtonLink to={withQuery(paths.answerCard, q)}>{s.designCard}</ButtonLink>
            <ButtonLink variant="secondary" to={withQuery(paths.print.printing, q)}>
              {s.printPaper}
            </ButtonLink>
            <ButtonLink variant="secondary" to={paths.paperlist}>
              {s.printCards}
            </ButtonLink>
          </div>
        </div>
      )}
    </section>
  );
}
