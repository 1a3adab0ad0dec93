import { useMemo } from 'react';
import type { ClassAnalysis } from '@zhzy/contracts';
import { Chart } from '../../../components/charts/chart';
import { pct } from '../../../components/charts/option';
import { ReportTable } from '../../../components/ui/report-table';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { useClassAnalysis } from '../api/analysis';
import {
  bandsOption,
  classCompareOption,
  knowledgeOption,
  questionRatesOption,
  trendOption,
} from '../utils/chart-options';
import { classQuestionColumns, knowledgeColumns } from './columns';
import { ScorePanels } from './grade-analysis';
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
  type Tile,
} from './parts';
import { HomeworkToolbar, useNoHomework, useAnalysisSelection } from './selection';

function ClassBody({ a }: { a: ClassAnalysis }) {
  const file = [a.homework.title, a.class.name];
  const trend = useMemo(
    () =>
      trendOption(
        a.trend.map((p) => p.title),
        [
          { name: ta.charts.series.thisClass, data: a.trend.map((p) => pct(p.classScoreRate)) },
          { name: ta.charts.series.grade, data: a.trend.map((p) => pct(p.gradeScoreRate)), dashed: true },
        ],
        true,
        a.trend.map((p) => !p.markingComplete),
      ),
    [a.trend],
  );
  const over: Tile[] = [
    {
      label: ta.stats.overAverage,
      value: fmt.pctDiff(a.overAverageRate),
      tone: a.overAverageRate > 0 ? 'good' : a.overAverageRate < 0 ? 'bad' : 'default',
      hint:
        a.averageDiff >= 0
          ? ta.klass.ahead(fmt.num(a.averageDiff))
          : ta.klass.behind(fmt.num(-a.averageDiff)),
    },
    { label: ta.stats.classRank, value: ta.klass.rankOf(a.classRank, a.classCount) },
  ];
  const col = ta.tables.col;
  return (
    <div className="space-y-4">
      <HomeworkHeader
        homework={a.homework}
        summary={a.summary}
        scopeName={a.class.name}
        generatedAt={a.generatedAt}
        links={<HomeworkLinks homeworkId={a.homework.id} classId={a.class.id} except="class" />}
      />
      {a.summary.scoredCount === 0 ? (
        <NoResults homework={a.homework} summary={a.summary} />
      ) : (
        <>
          <StatTiles tiles={[...over, ...summaryTiles(a.summary, a.gradeSummary).slice(0, 8)]} />
          <div className="grid gap-4 lg:grid-cols-2">
            <ChartPanel
              title={ta.charts.classCompare}
              label={ta.charts.classCompareLabel}
              option={classCompareOption(a.classes, a.gradeSummary.average, a.class.id)}
            />
            <ChartPanel
              title={`${ta.charts.bands} · ${ta.klass.vsGrade}`}
              label={ta.charts.bandsLabel(a.bands.length)}
              option={bandsOption(a.bands, true)}
            />
          </div>
          <ChartPanel
            title={ta.charts.questionCompare}
            label={ta.charts.questionCompareLabel}
            option={questionRatesOption(
              a.questions,
              a.questions.map((q) => q.gradeScoreRate),
            )}
          />
          <Panel>
            <ReportTable
              title={ta.tables.questions}
              description={ta.tables.questionsNote}
              columns={classQuestionColumns()}
              rows={a.questions}
              rowKey={(q) => q.questionId}
              fileName={file}
            />
          </Panel>
          {a.knowledgePoints.length > 0 && (
            <Panel title={ta.tables.knowledge}>
              <Chart
                option={knowledgeOption(a.knowledgePoints, ta.charts.series.thisClass)}
                label={ta.charts.knowledgeLabel}
                height={Math.max(200, a.knowledgePoints.length * 36)}
              />
              <ReportTable
                className="mt-4"
                title={ta.tables.knowledge}
                columns={knowledgeColumns(true)}
                rows={a.knowledgePoints}
                rowKey={(k) => k.id}
                fileName={file}
              />
            </Panel>
          )}
          <ScorePanels a={a} classId={a.class.id} file={file} compare withClass={false} />
          {a.trend.length > 0 && (
            <Panel title={ta.klass.trendTitle}>
              {a.trend.length > 1 && <Chart option={trend} label={ta.charts.trendLabel} height={300} />}
              <ReportTable
                className="mt-4"
                title={ta.tables.trend}
                columns={[
                  { key: 'title', header: col.homework, value: (p) => p.title },
                  { key: 'date', header: col.date, value: (p) => p.date },
                  { key: 'full', header: col.fullScore, value: (p) => p.fullScore, align: 'right' },
                  {
                    key: 'class',
                    header: col.classAverage,
                    value: (p) => Math.round(p.classAverage * 10) / 10,
                    cell: (p) =>
                      p.markingComplete ? Math.round(p.classAverage * 10) / 10 : ta.charts.series.marking,
                    align: 'right',
                  },
                  {
                    key: 'grade',
                    header: col.gradeAverage,
                    value: (p) => Math.round(p.gradeAverage * 10) / 10,
                    align: 'right',
                  },
                  {
                    key: 'over',
                    header: col.overAverage,
                    value: (p) => pct(p.overAverageRate),
                    cell: (p) => fmt.pctDiff(p.overAverageRate),
                    align: 'right',
                  },
                  {
                    key: 'rank',
                    header: col.rank,
                    value: (p) => `${p.classRank}/${p.classCount}`,
                    align: 'right',
                  },
                ]}
                rows={a.trend}
                rowKey={(p) => p.homeworkId}
                fileName={[a.class.name, ta.klass.trendTitle]}
              />
            </Panel>
          )}
        </>
      )}
    </div>
  );
}

/** /analysis/class: one class of a homework against the grade. */
export function ClassAnalysisScreen() {
  const sel = useAnalysisSelection();
  const none = useNoHomework();
  const analysis = useClassAnalysis(sel.homeworkId, sel.classId);
  return (
    <div className="space-y-4">
      <HomeworkToolbar classMode="required" />
      {none.empty ? (
        <NoHomework />
      ) : analysis.data ? (
        <ClassBody a={analysis.data} />
      ) : (
        <LoadState error={analysis.error as unknown} onRetry={() => void analysis.mutate()} />
      )}
    </div>
  );
}
