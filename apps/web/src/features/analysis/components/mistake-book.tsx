import { useState } from 'react';
import { MESSAGES, TOAST_ADD_SUCCESS_MS, calls } from '@zhzy/contracts';
import { RichText } from '../../../components/rich-text';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Segmented } from '../../../components/ui/segmented';
import { paths } from '../../../config/paths';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { keys } from '../../../api/keys';
import { api } from '../../../lib/api';
import { useApiMutate } from '../../../lib/swr';
import { toast } from '../../../lib/toast';
import { downloadMistakeBookPdf, useMistakeBook } from '../api/analysis';
import { LoadState } from './parts';

const tb = ta.mistakeBook;

/** Print rules while the book is shown: only the book goes to paper (no top bar, tabs, side bar or footer). */
const PRINT_CSS = `
@page { size: A4 portrait; margin: 14mm; }
@media print {
  html, body { background: #fff !important; }
  header, footer, nav, [data-testid="side-bar"], #main h1 { display: none !important; }
  #main > div { padding: 0 !important; max-width: none !important; }
}`;

/**
 * A student's personalised 错题本: every wrong question with the student's answer, the key and analysis, then
 * similar questions (举一反三). Printable, as PDF from the host, and into the basket to compose a redo paper
 * (错题重练).
 */
export function MistakeBookView({
  studentId,
  subjectId,
  homeworkId = null,
  range = null,
  onBack,
}: {
  studentId: string;
  subjectId: string | null;
  /** Only this homework's wrong questions (错题重练 picks one homework). */
  homeworkId?: string | null;
  /** Only the homework of these days (错题重练 by date range). */
  range?: { from: string; to: string } | null;
  /** Without it the book is embedded (错题重练): no back button and no link to 错题重练. */
  onBack?: () => void;
}) {
  const [similar, setSimilar] = useState<'0' | '1' | '2' | '3'>('2');
  const book = useMistakeBook(studentId, {
    subjectId,
    homeworkId,
    from: range?.from ?? null,
    to: range?.to ?? null,
    similar: Number(similar),
  });
  const mutate = useApiMutate();
  const [busy, setBusy] = useState<'pdf' | 'basket' | null>(null);
  const b = book.data;

  const toBasket = async () => {
    if (!b || b.questionIds.length === 0) {
      toast(ta.person.toBasketNone, 'info');
      return;
    }
    setBusy('basket');
    try {
      await api.call(calls.addBasket, { body: { questionIds: b.questionIds.slice(0, 200) } });
      toast.success(MESSAGES.addSuccess, TOAST_ADD_SUCCESS_MS);
      await mutate(keys.basket());
    } catch {
      // The client already showed the host's message.
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-4">
      <style>{PRINT_CSS}</style>
      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 print:hidden">
        {onBack && (
          <Button variant="secondary" onClick={onBack}>
            {tb.back}
          </Button>
        )}
        <Segmented
          label={tb.similar}
          value={similar}
          options={(['0', '1', '2', '3'] as const).map((v) => ({
            value: v,
            label: tb.similarCount(Number(v)),
          }))}
          onChange={setSimilar}
        />
        <span className="text-sm text-slate-500">{tb.similar}</span>
        <div className="ml-auto flex flex-wrap gap-2">
          <Button variant="secondary" loading={busy === 'basket'} onClick={() => void toBasket()}>
            {ta.person.toBasket}
          </Button>
          {onBack ? (
            <ButtonLink variant="secondary" to={paths.rehearse.mistakes}>
              {ta.person.redo}
            </ButtonLink>
          ) : (
            <ButtonLink variant="secondary" to={paths.rehearse.select}>
              {tb.compose}
            </ButtonLink>
          )}
          <Button
            variant="secondary"
            loading={busy === 'pdf'}
            disabled={!b}
            onClick={() => {
              if (!b) return;
              setBusy('pdf');
              downloadMistakeBookPdf(
                {
                  studentIds: [studentId],
                  similar: Number(similar),
                  ...(subjectId ? { subjectId } : {}),
                  ...(homeworkId ? { homeworkId } : {}),
                  ...(range ? { from: range.from, to: range.to } : {}),
                },
                `${b.student.name}-${tb.title}.pdf`,
              )
                .catch(() => undefined)
                .finally(() => setBusy(null));
            }}
          >
            {tb.pdf}
          </Button>
          <Button disabled={!b} onClick={() => window.print()}>
            {tb.print}
          </Button>
        </div>
      </div>
      {!b ? (
        <LoadState error={book.error as unknown} onRetry={() => void book.mutate()} />
      ) : (
        <article className="mx-auto max-w-4xl rounded-xl border border-slate-200 bg-white p-6 sm:p-10 print:border-0 print:p-0">
          <header className="border-b border-slate-200 pb-4 text-center">
            <h2 className="text-2xl font-bold text-slate-900">{tb.title}</h2>
            <p className="mt-1 text-sm text-slate-600">
              {tb.subtitle(b.student.name, b.student.studentNo, b.student.className, b.subjectName)}
            </p>
            <p className="text-xs text-slate-500">{tb.generated(fmt.dateTime(b.generatedAt))}</p>
          </header>
          {b.entries.length === 0 ? (
            <p className="py-10 text-center text-slate-500">{tb.empty}</p>
          ) : (
            <ol className="mt-4 space-y-6">
              {b.entries.map((e, i) => (
                <li key={`${e.homeworkId}-${e.questionId}`} className="break-inside-avoid space-y-2">
                  <p className="text-xs text-slate-500">
                    {i + 1}. {tb.wrongOf(e.homeworkTitle, e.date, e.no)} · {e.typeName} ·{' '}
                    {tb.yourScore(fmt.num(e.score), fmt.num(e.fullScore))}
                  </p>
                  <RichText html={e.stem} className="text-[15px] leading-7 text-slate-800" />
                  {e.options.length > 0 && (
                    <ul className="grid gap-1 text-sm sm:grid-cols-2">
                      {e.options.map((o) => (
                        <li key={o.label} className="flex gap-1">
                          <span>{o.label}.</span>
                          <RichText html={o.content} />
                        </li>
                      ))}
                    </ul>
                  )}
                  <div className="rounded-md bg-slate-50 p-3 text-sm leading-6 text-slate-700">
                    {e.response !== null && (
                      <p className="text-rose-600">
                        {ta.person.yourAnswer}：{e.blank || !e.response ? ta.person.blank : e.response}
                      </p>
                    )}
                    <p>
                      {ta.person.answer}：<RichText html={e.answer} inline />
                    </p>
                    {e.analysis && (
                      <div>
                        {ta.person.analysis}：<RichText html={e.analysis} inline />
                      </div>
                    )}
                  </div>
                  {e.similar.length > 0 && (
                    <div className="space-y-2 border-l-2 border-blue-200 pl-4">
                      <p className="text-sm font-medium text-blue-700">{tb.similarTitle}</p>
                      {e.similar.map((q, j) => (
                        <div key={q.id} className="space-y-1">
                          <div className="flex gap-1 text-[15px] leading-7">
                            <span className="text-slate-500">({j + 1})</span>
                            <RichText html={q.stem} />
                          </div>
                          {q.options.length > 0 && (
                            <ul className="grid gap-1 text-sm sm:grid-cols-2">
                              {q.options.map((o) => (
                                <li key={o.label} className="flex gap-1">
                                  <span>{o.label}.</span>
                                  <RichText html={o.content} />
                                </li>
                              ))}
                            </ul>
                          )}
                        </div>
                      ))}
                    </div>
                  )}
                </li>
              ))}
            </ol>
          )}
        </article>
      )}
    </div>
  );
}
