import { useState } from 'react';
import type { RecognitionException, RecognitionTally } from '@zhzy/contracts';
import { PaperScoreEntry } from '../../../components/paper-score-entry';
import { Button } from '../../../components/ui/button';
import { CropImage } from '../../../components/ui/crop-image';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { zhCNRecognition as r } from '../../../i18n/recognition';
import { zhCNHomework as th } from '../../../i18n/zh-CN';
import { toast } from '../../../lib/toast';
import { Skeleton } from '../../../components/ui/skeleton';
import { resolveException, useReviewSheet } from '../api/recognition';
import { OptionPicker } from './option-picker';
import { ZoomablePage } from './zoomable-page';

/** A score box's fixes, offered by its own entry (the crop, the score, on-screen marking). */
const PAPER_SCORE_ACTIONS = new Set<string>(['enterScore', 'markOnScreen']);

/** One exception: its reason in a teacher's words, the page, and its one-click fixes. */
function ExceptionItem({
  ex,
  missing,
  onDone,
}: {
  ex: RecognitionException;
  missing: RecognitionTally['homework'][number]['missing'];
  onDone: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [showImage, setShowImage] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [answers, setAnswers] = useState<Record<string, string>>(() =>
    Object.fromEntries(ex.questions.map((q) => [q.questionId, q.chosen])),
  );
  const [studentId, setStudentId] = useState('');
  const [assigning, setAssigning] = useState(false);

  const run = async (body: Parameters<typeof resolveException>[1]) => {
    setBusy(true);
    try {
      await resolveException(ex.id, body);
      toast(r.exceptions.resolved, 'success');
      onDone();
    } catch {
      // The client showed the host's reason.
    } finally {
      setBusy(false);
    }
  };

  const click = (action: string) => {
    if (action === 'chooseMarks') return setChoosing(true);
    if (action === 'assignStudent') return setAssigning(true);
    void run({ action: action as 'ignore' });
  };

  const where = [ex.homeworkTitle, ex.studentName, r.exceptions.page(ex.pageSeq)].filter(Boolean).join(' · ');
  const fixes = (
    <>
      {choosing && (
        <div className="mt-3 space-y-2 rounded-md bg-white p-3">
          <p className="text-xs text-slate-500">{r.exceptions.chooseHint}</p>
          {ex.questions.map((q) => (
            <div key={q.questionId} className="flex items-center gap-3">
              <span className="w-16 shrink-0 text-sm text-slate-600">{r.exceptions.question(q.number)}</span>
              <OptionPicker
                label={r.exceptions.question(q.number)}
                options={q.options}
                multiple={q.kind === 'multiple'}
                value={answers[q.questionId] ?? ''}
                onChange={(v) => setAnswers((a) => ({ ...a, [q.questionId]: v }))}
              />
            </div>
          ))}
          <Button size="sm" loading={busy} onClick={() => void run({ action: 'chooseMarks', answers })}>
            {r.exceptions.confirmChoice}
          </Button>
        </div>
      )}

      {assigning && (
        <div className="mt-3 flex flex-wrap items-end gap-2 rounded-md bg-white p-3">
          {missing.length === 0 ? (
            <p className="text-sm text-slate-500">{r.exceptions.noStudents}</p>
          ) : (
            <>
              <Listbox
                label={r.exceptions.pickStudent}
                value={studentId}
                onChange={setStudentId}
                placeholder={r.exceptions.studentPlaceholder}
                options={missing.map((m) => ({ value: m.id, label: `${m.name}（${m.studentNo}）` }))}
                className="w-64"
              />
              <Button
                size="sm"
                loading={busy}
                disabled={!studentId}
                onClick={() => void run({ action: 'assignStudent', studentId })}
              >
                {r.exceptions.confirmChoice}
              </Button>
            </>
          )}
        </div>
      )}

      {ex.paperScore && (
        <div className="mt-3 grid gap-3 rounded-md bg-white p-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
          <CropImage
            url={ex.paperScore.cropUrl}
            alt={th.paperMarking.cropAlt(ex.paperScore.number, ex.studentName ?? '')}
            className="max-h-64"
          />
          <div className="space-y-2 text-sm">
            <p className="text-slate-700">
              {r.exceptions.paperScore(ex.paperScore.number, ex.paperScore.fullScore)}
            </p>
            <PaperScoreEntry
              label={th.paperMarking.scoreInput(ex.paperScore.number, ex.studentName ?? '')}
              busy={busy}
              onEnter={(score) => void run({ action: 'enterScore', score })}
              onMarkOnScreen={() => void run({ action: 'markOnScreen' })}
            />
          </div>
        </div>
      )}

      <div className="mt-2 flex flex-wrap gap-2">
        {ex.actions
          .filter((a) => !(ex.paperScore && PAPER_SCORE_ACTIONS.has(a)))
          .map((a, i) => (
            <Button
              key={a}
              size="sm"
              variant={i === 0 ? 'primary' : 'secondary'}
              disabled={busy}
              onClick={() => click(a)}
            >
              {r.actions[a]}
            </Button>
          ))}
        {ex.pageId && (
          <Button size="sm" variant="ghost" onClick={() => setShowImage((v) => !v)}>
            {showImage ? r.exceptions.hideImage : r.exceptions.viewImage}
          </Button>
        )}
      </div>
    </>
  );
  return (
    <li className="rounded-lg border border-amber-200 bg-amber-50/60 p-3" data-testid="exception">
      <p className="text-sm font-medium text-slate-800">{ex.message}</p>
      {where && <p className="mt-0.5 text-xs text-slate-500">{where}</p>}
      {showImage && ex.pageId ? (
        <div className="mt-3 grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <ExceptionImage ex={ex} pageId={ex.pageId} />
          <div aria-label={r.zoom.fixes} role="group" data-testid="exception-fixes">
            {fixes}
          </div>
        </div>
      ) : (
        fixes
      )}
    </li>
  );
}

/** The exception's page, opened enlarged on its questions with what was read (the sheet's overlay, when known). */
function ExceptionImage({ ex, pageId }: { ex: RecognitionException; pageId: string }) {
  const { data: review } = useReviewSheet(ex.sheetId);
  const page = review?.pages.find((p) => p.pageId === pageId);
  if (ex.sheetId && !review) return <Skeleton className="h-[60vh] w-full" />;
  return (
    <ZoomablePage
      pageId={pageId}
      {...(page ? { width: page.width, height: page.height, overlay: page.overlay } : {})}
      focus={ex.questionIds}
      alt={ex.message}
      frameClassName="h-[60vh]"
    />
  );
}

/** The open exceptions of a batch, each with its fixes. */
export function ExceptionQueue({
  exceptions,
  tally,
  onChanged,
}: {
  exceptions: RecognitionException[];
  tally: RecognitionTally | undefined;
  onChanged: () => void;
}) {
  return (
    <section aria-label={r.exceptions.title} className="rounded-xl border border-slate-200 bg-white p-4">
      <h3 className="mb-3 text-base font-semibold text-slate-800">
        {r.exceptions.title}
        {exceptions.length > 0 && (
          <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-700">
            {exceptions.length}
          </span>
        )}
      </h3>
      {exceptions.length === 0 ? (
        <Empty title={r.exceptions.none} description={r.exceptions.noneHint} className="py-6" />
      ) : (
        <ul className="space-y-3">
          {exceptions.map((ex) => (
            <ExceptionItem
              key={ex.id}
              ex={ex}
              missing={tally?.homework.find((h) => h.id === ex.homeworkId)?.missing ?? []}
              onDone={onChanged}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
