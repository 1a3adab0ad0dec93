import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  CRITICAL_MODE_NAMES,
  type GradeTrend,
  type HomeworkAnalysis,
  type StudentResult,
} from '@zhzy/contracts';
import { Chart } from '../../../components/charts/chart';
import { pct } from '../../../components/charts/option';
import { Button } from '../../../components/ui/button';
import { ReportTable } from '../../../components/ui/report-table';
import { paths, withQuery } from '../../../config/paths';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { downloadAnalysisExport, useGradeTrend, useHomeworkAnalysis } from '../api/analysis';
import { bandsOption, classCompareOption, trendOption } from '../utils/chart-options';
import { bandColumns, classColumns, criticalColumns, studentColumns } from './columns';
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

/** The full score list from the host, with ranks where the school allows them and Z / T scores. */
export function FullExportButton({
  homeworkId,
  classId,
  title,
}: {
  homeworkId: string;
  classId: string | null;
  title: string;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      loading={busy}
      onClick={() => {
        setBusy(true);
        downloadAnalysisExport(
          { table: 'scores', homeworkId, ...(classId ? { classId } : {}) },
          `${title}-${ta.tables.students}.xlsx`,
        )
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
    >
      {ta.tables.fullExport}
    </Button>
  );
}

export function useOpenStudent() {
  const navigate = useNavigate();
  return (s: Pick<StudentResult, 'studentId' | 'classId'>, subjectId?: string) =>
    void navigate(
      withQuery(paths.analysis.person, { classId: s.classId, studentId: s.studentId, subjectId }),
    );
}

/**
 * 分数段, 临界生 and 学生成绩: the tables the grade's report and one class's share. `classId` is the scope of the full
 * export, `withClass` adds the class column to the students, `empty` is what an empty band or student table says.
 */
export function ScorePanels({
  a,
  classId,
  file,
  compare,
  withClass,
  empty,
}: {
  a: Pick<HomeworkAnalysis, 'homework' | 'settings' | 'bands' | 'criticalStudents' | 'students'>;
  classId: string | null;
  file: string[];
  compare: boolean;
  withClass: boolean;
  empty?: string;
}) {
  const openStudent = useOpenStudent();
  return (
    <>
      <Panel>
        <ReportTable
          title={ta.tables.bands}
          columns={bandColumns(compare)}
          rows={a.bands}
          rowKey={(b) => b.label}
          fileName={file}
          empty={empty}
        />
      </Panel>
      <Panel>
        <ReportTable
          title={ta.tables.critical}
          description={ta.tables.criticalNote(CRITICAL_MODE_NAMES[a.settings.criticalMode])}
          columns={criticalColumns(a.settings.showRank)}
          rows={a.criticalStudents}
          rowKey={(s) => `${s.studentId}-${s.line}`}
          fileName={file}
          empty={ta.tables.noCritical}
        />
      </Panel>
      <Panel>
        <ReportTable
          title={ta.tables.students}
          description={a.settings.showRank ? undefined : ta.tables.rankHidden}
          columns={studentColumns(a.settings.showRank, withClass, (s) =>
            openStudent(s, a.homework.subjectId),
          )}
          rows={a.students}
          rowKey={(s) => s.studentId}
          fileName={file}
          empty={empty}
          actions={<FullExportButton homeworkId={a.homework.id} classId={classId} title={a.homework.title} />}
        />
      </Panel>
    </>
  );
}

/** The sections shared by the grade analysis and the report: bands, classes, critical students, students. */
export function GradeSections({ a }: { a: HomeworkAnalysis }) {
  const file = [a.homework.title, a.scope.name];
  const compare = a.scope.classId !== null;
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartPanel
          title={ta.charts.bands}
          label={ta.charts.bandsLabel(a.bands.length)}
          option={bandsOption(a.bands, compare)}
        />
        <ChartPanel
          title={ta.charts.classCompare}
          label={ta.charts.classCompareLabel}
          option={classCompareOption(a.classes, a.gradeSummary.average, a.scope.classId ?? undefined)}
        />
      </div>
      <Panel>
        <ReportTable
          title={ta.tables.classes}
          description={ta.tables.classesNote}
          columns={classColumns(a.scope.classId)}
          rows={a.classes}
          rowKey={(k) => k.classId}
          fileName={file}
          empty={ta.tables.none}
        />
      </Panel>
      <ScorePanels
        a={a}
        classId={a.scope.classId}
        file={file}
        compare={compare}
        withClass
        empty={ta.tables.none}
      />
    </>
  );
}

/** The subject's homework over time: the grade's score, pass and excellent rates, and each class's score rate. */
export function TrendPanel({ trend, currentId }: { trend: GradeTrend; currentId: string }) {
  const option = useMemo(
    () =>
      trendOption(
        trend.points.map((p) => `${p.title}`),
        [
          { name: ta.charts.series.rate, data: trend.points.map((p) => pct(p.scoreRate)) },
          { name: ta.charts.series.passRate, data: trend.points.map((p) => pct(p.passRate)), dashed: true },
          {
            name: ta.charts.series.excellentRate,
            data: trend.points.map((p) => pct(p.excellentRate)),
            dashed: true,
          },
          ...trend.classes.map((k) => ({
            name: k.name,
            data: trend.points.map((p) => pct(p.classes.find((c) => c.classId === k.id)?.scoreRate)),
            pending: trend.points.map(
              (p) => p.classes.find((c) => c.classId === k.id)?.markingComplete === false,
            ),
          })),
        ],
        true,
        trend.points.map((p) => !p.markingComplete),
      ),
    [trend],
  );
  const col = ta.tables.col;
  return (
    <Panel title={ta.grade.trendTitle(trend.subjectName)}>
      {trend.points.length < 2 ? (
        <p className="py-6 text-center text-sm text-slate-500">{ta.grade.trendEmpty}</p>
      ) : (
        <Chart option={option} label={ta.charts.trendLabel} height={320} />
      )}
      <ReportTable
        className="mt-4"
        title={ta.tables.trend}
        columns={[
          {
            key: 'title',
            header: col.homework,
            value: (p) => p.title,
            cell: (p) => (p.homeworkId === currentId ? <strong>{p.title}</strong> : p.title),
          },
          { key: 'type', header: col.type2, value: (p) => p.typeName },
          { key: 'date', header: col.date, value: (p) => p.date },
          { key: 'scored', header: col.scored, value: (p) => p.scoredCount, align: 'right' },
          { key: 'avg', header: col.average, value: (p) => Math.round(p.average * 10) / 10, align: 'right' },
          { key: 'full', header: col.fullScore, value: (p) => p.fullScore, align: 'right' },
          {
            key: 'rate',
            header: col.scoreRate,
            value: (p) => pct(p.scoreRate),
            cell: (p) => (p.markingComplete ? fmt.pct(p.scoreRate) : ta.charts.series.marking),
            align: 'right',
          },
          {
            key: 'pass',
            header: col.passRate,
            value: (p) => pct(p.passRate),
            cell: (p) => (p.markingComplete ? fmt.pct(p.passRate) : ta.charts.series.marking),
            align: 'right',
          },
          {
            key: 'exc',
            header: col.excellentRate,
            value: (p) => pct(p.excellentRate),
            cell: (p) => (p.markingComplete ? fmt.pct(p.excellentRate) : ta.charts.series.marking),
            align: 'right',
          },
          {
            key: 'sd',
            header: col.sd,
            value: (p) => Math.round(p.standardDeviation * 100) / 100,
            align: 'right',
          },
        ]}
        rows={trend.points}
        rowKey={(p) => p.homeworkId}
        fileName={[trend.subjectName]}
        empty={ta.tables.none}
      />
    </Panel>
  );
}

function GradeBody({ a }: { a: HomeworkAnalysis }) {
  const trend = useGradeTrend(a.homework.subjectId);
  return (
    <div className="space-y-4">
      <HomeworkHeader
        homework={a.homework}
        summary={a.summary}
        scopeName={a.scope.name}
        generatedAt={a.generatedAt}
        links={<HomeworkLinks homeworkId={a.homework.id} classId={null} except="grade" />}
      />
      {a.summary.scoredCount === 0 ? (
        <NoResults homework={a.homework} summary={a.summary} />
      ) : (
        <>
          <StatTiles tiles={summaryTiles(a.summary, undefined, a.cronbachAlpha)} />
          <p className="text-xs text-slate-500">
            {ta.stats.lines(a.settings.passRate, a.settings.goodRate, a.settings.excellentRate)}
          </p>
          <GradeSections a={a} />
          {trend.data && <TrendPanel trend={trend.data} currentId={a.homework.id} />}
        </>
      )}
    </div>
  );
}

/** /analysis/grade: a homework across all its classes, and the subject's trend. */
export function GradeAnalysisScreen() {
  const sel = useAnalysisSelection();
  const none = useNoHomework();
  const analysis = useHomeworkAnalysis(sel.homeworkId, null);
  return (
    <div className="space-y-4">
      <HomeworkToolbar classMode="none" />
      {none.empty ? (
        <NoHomework />
      ) : !sel.homeworkId ? (
        <LoadState error={none.error} />
      ) : analysis.data ? (
        <GradeBody a={analysis.data} />
      ) : (
        <LoadState error={analysis.error as unknown} onRetry={() => void analysis.mutate()} />
      )}
    </div>
  );
}
