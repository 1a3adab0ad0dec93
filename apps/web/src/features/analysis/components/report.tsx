import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { SCREENS } from '../../../i18n/zh-CN';
import { downloadReportPdf, useHomeworkAnalysis } from '../api/analysis';
import { QuestionSections } from './assistant-analysis';
import { GradeSections } from './grade-analysis';
import { HomeworkHeader, LoadState, NoHomework, NoResults, StatTiles, summaryTiles } from './parts';
import { HomeworkToolbar, useNoHomework, useAnalysisSelection } from './selection';

const PRINT_CSS = `
@page { size: A4 portrait; margin: 12mm; }
@media print {
  html, body { background: #fff !important; }
  header, footer, nav, [data-testid="side-bar"], #main h1 { display: none !important; }
  #main > div { padding: 0 !important; max-width: none !important; }
}`;

/** papaerReport: the whole analysis of a homework on printable pages, also as a PDF from the host. */
export function ReportScreen() {
  const sel = useAnalysisSelection();
  const none = useNoHomework();
  const analysis = useHomeworkAnalysis(sel.homeworkId, sel.classId);
  const [busy, setBusy] = useState(false);
  const a = analysis.data;
  const tr = ta.report;
  return (
    <div className="space-y-4">
      <style>{PRINT_CSS}</style>
      <h2 className="sr-only">{SCREENS.assistantReport.title}</h2>
      <HomeworkToolbar
        classMode="optional"
        actions={
          a && (
            <>
              <Button
                variant="secondary"
                loading={busy}
                onClick={() => {
                  setBusy(true);
                  downloadReportPdf(
                    a.homework.id,
                    a.scope.classId,
                    tr.pdfName(a.homework.title, a.scope.name),
                  )
                    .catch(() => undefined)
                    .finally(() => setBusy(false));
                }}
              >
                {tr.pdf}
              </Button>
              <Button onClick={() => window.print()}>{tr.print}</Button>
            </>
          )
        }
      />
      {none.empty ? (
        <NoHomework />
      ) : !a ? (
        <LoadState error={analysis.error as unknown} onRetry={() => void analysis.mutate()} />
      ) : (
        <article className="space-y-4">
          <h2 className="text-center text-2xl font-bold text-slate-900">
            {a.homework.title} · {tr.title}
          </h2>
          <HomeworkHeader
            homework={a.homework}
            summary={a.summary}
            scopeName={a.scope.name}
            generatedAt={a.generatedAt}
          />
          {a.summary.scoredCount === 0 ? (
            <NoResults homework={a.homework} summary={a.summary} />
          ) : (
            <>
              <h3 className="text-lg font-semibold text-slate-900">{tr.overview}</h3>
              <p className="text-sm leading-6 text-slate-700">
                {tr.summaryLine(
                  fmt.num(a.summary.average),
                  fmt.pct(a.summary.scoreRate),
                  fmt.pct(a.summary.passRate),
                  fmt.pct(a.summary.excellentRate),
                )}
                {tr.hardest(
                  [...a.questions]
                    .sort((x, y) => x.scoreRate - y.scoreRate)
                    .slice(0, 3)
                    .map((q) => `${ta.charts.question(q.no)}（${fmt.pct(q.scoreRate)}）`)
                    .join('、'),
                )}
                {a.knowledgePoints.length > 0 &&
                  tr.weakest(
                    [...a.knowledgePoints]
                      .sort((x, y) => x.scoreRate - y.scoreRate)
                      .slice(0, 3)
                      .map((k) => k.name)
                      .join('、'),
                  )}
              </p>
              <StatTiles
                tiles={summaryTiles(a.summary, a.scope.classId ? a.gradeSummary : undefined, a.cronbachAlpha)}
              />
              <GradeSections a={a} />
              <QuestionSections a={a} />
            </>
          )}
        </article>
      )}
    </div>
  );
}
