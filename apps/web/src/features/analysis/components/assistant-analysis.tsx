import { useState } from 'react';
import type { HomeworkAnalysis, QuestionStats } from '@zhzy/contracts';
import { Chart } from '../../../components/charts/chart';
import { Dialog } from '../../../components/ui/dialog';
import { ReportTable } from '../../../components/ui/report-table';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { useHomeworkAnalysis } from '../api/analysis';
import { knowledgeOption, optionsOption, questionRatesOption, scatterOption } from '../utils/chart-options';
import { knowledgeColumns, questionColumns } from './columns';
import {
  ChartPanel,
  HomeworkHeader,
  HomeworkLinks,
  LoadState,
  NoHomework,
  NoResults,
  Panel,
  StatTiles,
  summaryTiles,
} from './parts';
import { HomeworkToolbar, useNoHomework, useAnalysisSelection } from './selection';

/** The questions, knowledge points and reliability of a homework (used by the assistant and the report). */
export function QuestionSections({
  a,
  onOpen,
}: {
  a: HomeworkAnalysis;
  onOpen?: (q: QuestionStats) => void;
}) {
  const file = [a.homework.title, a.scope.name];
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartPanel
          title={ta.charts.questionRates}
          label={ta.charts.questionRatesLabel}
          option={questionRatesOption(a.questions)}
        />
        <ChartPanel
          title={ta.charts.scatter}
          label={ta.charts.scatterLabel}
          option={scatterOption(a.questions)}
        />
      </div>
      <Panel>
        <ReportTable
          title={ta.tables.questions}
          description={
            onOpen ? `${ta.tables.questionsNote}。${ta.assistant.questionsNote}` : ta.tables.questionsNote
          }
          columns={questionColumns(onOpen)}
          rows={a.questions}
          rowKey={(q) => q.questionId}
          fileName={file}
        />
      </Panel>
      <Panel title={ta.tables.knowledge}>
        {a.knowledgePoints.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">{ta.assistant.knowledgeEmpty}</p>
        ) : (
          <>
            <Chart
              option={knowledgeOption(a.knowledgePoints)}
              label={ta.charts.knowledgeLabel}
              height={Math.max(200, Math.min(a.knowledgePoints.length, 15) * 36)}
            />
            <ReportTable
              className="mt-4"
              title={ta.tables.knowledge}
              columns={knowledgeColumns(a.scope.classId !== null)}
              rows={a.knowledgePoints}
              rowKey={(k) => k.id}
              fileName={file}
            />
          </>
        )}
      </Panel>
    </>
  );
}

function QuestionDialog({ q, onClose }: { q: QuestionStats | null; onClose: () => void }) {
  return (
    <Dialog
      open={q !== null}
      onClose={onClose}
      title={q ? ta.assistant.optionTitle(q.no) : ''}
      className="max-w-2xl"
    >
      {q && (
        <div className="mt-3 space-y-3 text-sm text-slate-700">
          <p>
            {q.typeName} ·{' '}
            {ta.commentary.rateLine(fmt.pct(q.scoreRate), q.difficultyName, fmt.num(q.discrimination, 2))}
          </p>
          {q.options.length > 0 ? (
            <>
              <Chart option={optionsOption(q.options)} label={ta.charts.optionsLabel(q.no)} height={220} />
              <p>
                {ta.tables.col.correct}：{q.correctAnswer}
              </p>
              {q.typicalWrong.length > 0 && (
                <p>
                  {ta.tables.col.typical}：
                  {q.typicalWrong
                    .map((w) =>
                      ta.assistant.typicalOf(w.response || ta.person.blank, w.count, fmt.pct(w.rate, 0)),
                    )
                    .join('，')}
                </p>
              )}
            </>
          ) : (
            <p>
              {ta.tables.col.fullCount} {q.fullCount} · {ta.tables.col.zeroCount} {q.zeroCount} ·{' '}
              {ta.tables.col.blankCount} {q.blankCount}
            </p>
          )}
          {q.classes.length > 1 && (
            <ul className="grid grid-cols-2 gap-1 sm:grid-cols-3">
              {q.classes.map((k) => (
                <li key={k.classId}>
                  {k.className}：{fmt.pct(k.scoreRate)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}

/** /assistant/analysis: a homework's questions — 得分率, 难度, 区分度, options, knowledge points, reliability. */
export function AssistantAnalysisScreen() {
  const sel = useAnalysisSelection();
  const none = useNoHomework();
  const analysis = useHomeworkAnalysis(sel.homeworkId, sel.classId);
  const [open, setOpen] = useState<QuestionStats | null>(null);
  const a = analysis.data;
  return (
    <div className="space-y-4">
      <HomeworkToolbar classMode="optional" />
      {none.empty ? (
        <NoHomework />
      ) : !a ? (
        <LoadState error={analysis.error as unknown} onRetry={() => void analysis.mutate()} />
      ) : (
        <div className="space-y-4">
          <HomeworkHeader
            homework={a.homework}
            summary={a.summary}
            scopeName={a.scope.name}
            generatedAt={a.generatedAt}
            links={<HomeworkLinks homeworkId={a.homework.id} classId={a.scope.classId} except="analysis" />}
          />
          {a.summary.scoredCount === 0 ? (
            <NoResults homework={a.homework} summary={a.summary} />
          ) : (
            <>
              <StatTiles
                tiles={[
                  ...summaryTiles(
                    a.summary,
                    a.scope.classId ? a.gradeSummary : undefined,
                    a.cronbachAlpha,
                  ).slice(0, 2),
                  {
                    label: ta.stats.objective,
                    value: fmt.score(a.objective.average, a.objective.fullScore),
                    hint: fmt.pct(a.objective.scoreRate),
                  },
                  {
                    label: ta.stats.subjective,
                    value: fmt.score(a.subjective.average, a.subjective.fullScore),
                    hint: fmt.pct(a.subjective.scoreRate),
                  },
                  summaryTiles(a.summary, undefined, a.cronbachAlpha)[9]!,
                ]}
              />
              <QuestionSections a={a} onOpen={setOpen} />
            </>
          )}
          <QuestionDialog q={open} onClose={() => setOpen(null)} />
        </div>
      )}
    </div>
  );
}
