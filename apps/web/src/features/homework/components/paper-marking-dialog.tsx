import { useState } from 'react';
import { Switch } from '@headlessui/react';
import { PAPER_SCORE_STATE_NAMES, type HomeworkSummary, type PaperScore } from '@zhzy/contracts';
import { PaperScoreEntry } from '../../../components/paper-score-entry';
import { ButtonLink } from '../../../components/ui/button';
import { CropImage } from '../../../components/ui/crop-image';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { Segmented } from '../../../components/ui/segmented';
import { Skeleton } from '../../../components/ui/skeleton';
import { paths, withQuery } from '../../../config/paths';
import { zhCNHomework as th } from '../../../i18n/zh-CN';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { usePaperScores } from '../../../api/homework';
import { resolvePaperScore, setPaperMarking, usePaperMarking } from '../api/paper-marking';

const T = th.paperMarking;

const STATE_TONES: Record<PaperScore['state'], string> = {
  scored: 'bg-emerald-50 text-emerald-700',
  doubtful: 'bg-amber-50 text-amber-800',
  resolved: 'bg-blue-50 text-blue-700',
  onScreen: 'bg-slate-100 text-slate-600',
};

/**
 * 纸上批阅 (先阅后扫, ADR 0065) of one homework: the switch, the questions whose card prints score boxes, and the
 * boxes read on its sheets — the doubtful ones first, each with the crop of the answer and the box as the teacher
 * marked them, to type the score read by eye or send the question back to on-screen marking.
 */
export function PaperMarkingDialog({
  homework,
  onClose,
}: {
  homework: HomeworkSummary;
  onClose: () => void;
}) {
  const { data: setting, mutate } = usePaperMarking(homework.id);
  const [view, setView] = useState<'doubtful' | 'all'>('doubtful');
  const [busy, setBusy] = useState(false);
  const toggle = async (enabled: boolean) => {
    setBusy(true);
    try {
      await mutate(await setPaperMarking(homework.id, enabled), { revalidate: false });
      toast.success(enabled ? T.turnedOn : T.turnedOff);
    } catch {
      // The client showed the host's reason (not the publisher, no score boxes …).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} title={T.title(homework.title)} className="sm:max-w-4xl">
      <p className="mb-4 text-sm text-slate-600">{T.lead}</p>
      {!setting ? (
        <Skeleton className="h-40 w-full" />
      ) : setting.questions.length === 0 ? (
        <Empty
          title={T.noBoxes}
          description={T.noBoxesHint}
          action={
            <ButtonLink to={withQuery(paths.answerCard, { homeworkId: homework.id })}>{T.design}</ButtonLink>
          }
        />
      ) : (
        <div className="space-y-4">
          <div className="flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-2">
            <Switch
              checked={setting.enabled}
              disabled={busy}
              onChange={(on: boolean) => void toggle(on)}
              aria-label={T.switchLabel}
              className={cn(
                'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-60',
                setting.enabled ? 'bg-blue-600' : 'bg-slate-300',
              )}
            >
              <span
                className={cn(
                  'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
                  setting.enabled ? 'translate-x-5' : 'translate-x-0.5',
                )}
              />
            </Switch>
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900">{T.switchLabel}</p>
              <p className="text-xs text-slate-600">{setting.enabled ? T.on : T.off}</p>
            </div>
          </div>
          <p className="text-sm text-slate-600">
            {T.boxes(
              setting.questions
                .map((q) => T.box(q.number, q.fullScore, T.kinds[q.kind] ?? q.kind, q.half))
                .join('、'),
            )}
          </p>
          <Segmented
            label={T.viewLabel}
            value={view}
            options={[
              { value: 'doubtful', label: T.views.doubtful },
              { value: 'all', label: T.views.all },
            ]}
            onChange={setView}
          />
          <ScoreList key={view} homeworkId={homework.id} view={view} />
        </div>
      )}
    </Dialog>
  );
}

function ScoreList({ homeworkId, view }: { homeworkId: string; view: 'doubtful' | 'all' }) {
  const { data, mutate } = usePaperScores(homeworkId, view);
  if (!data) return <Skeleton className="h-32 w-full" />;
  if (data.length === 0) return <Empty title={view === 'doubtful' ? T.emptyDoubtful : T.emptyAll} />;
  return (
    <ul className="max-h-[55vh] space-y-3 overflow-auto pr-1">
      {data.map((s) => (
        <ScoreRow key={s.id} score={s} onChanged={() => void mutate()} />
      ))}
    </ul>
  );
}

function ScoreRow({ score: s, onChanged }: { score: PaperScore; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const decide = async (body: Parameters<typeof resolvePaperScore>[1]) => {
    setBusy(true);
    try {
      const done = await resolvePaperScore(s.id, body);
      toast.success(
        body.action === 'enterScore'
          ? T.entered(s.studentName, done.score ?? 0)
          : T.sentOnScreen(s.studentName),
      );
      onChanged();
    } catch {
      // The client showed the host's reason (over the full score, not a half point …).
    } finally {
      setBusy(false);
    }
  };
  return (
    <li
      data-testid="paper-score"
      className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[minmax(0,1fr)_16rem]"
    >
      <CropImage url={s.cropUrl} alt={T.cropAlt(s.number, s.studentName)} className="max-h-64" />
      <div className="space-y-2 text-sm">
        <p className="font-medium text-slate-900">
          {T.row(s.studentName, s.className, s.number, s.fullScore)}
        </p>
        <p>
          <span className={cn('rounded px-1.5 py-0.5 text-xs', STATE_TONES[s.state])}>
            {PAPER_SCORE_STATE_NAMES[s.state]}
          </span>
          {s.score !== null && <span className="ml-2 text-slate-900">{T.score(s.score)}</span>}
        </p>
        {s.reasonText && <p className="text-amber-800">{s.reasonText}</p>}
        {s.state === 'doubtful' && (
          <PaperScoreEntry
            label={T.scoreInput(s.number, s.studentName)}
            busy={busy}
            onEnter={(score) => void decide({ action: 'enterScore', score })}
            onMarkOnScreen={() => void decide({ action: 'markOnScreen' })}
          />
        )}
      </div>
    </li>
  );
}
