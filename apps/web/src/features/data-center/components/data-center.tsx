import { useEffect, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isApiError } from '@zhzy/api-client';
import type { AverageScore, MarkingReport, SubjectStats } from '@zhzy/contracts';
import { MESSAGES } from '@zhzy/contracts/messages';
import { Chart } from '../../../components/charts/chart';
import { pct as pct1 } from '../../../components/charts/option';
import { ButtonLink } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { ReportTable, type ReportColumn } from '../../../components/ui/report-table';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { zhDataCenter as td } from '../../../i18n/data-center';
import { useAverageScore, useDoneHomework, useMarkingReport, useSubjectStats } from '../api/data-center';

const col = td.col;
const box = 'rounded-xl border border-slate-200 bg-white p-4 sm:p-5';

type SubjectRow = SubjectStats['subjects'][number];
type SubjectClassRow = SubjectRow['classes'][number];
type MarkerRow = MarkingReport['markers'][number];
type MarkingQuestionRow = MarkingReport['questions'][number];
type AverageClassRow = AverageScore['classes'][number];
type AverageQuestionRow = AverageScore['questions'][number];

/** A right-aligned rate column: the sheet gets the percentage figure (12.3), the screen `12.3%`. */
function rateColumn<T>(key: string, header: string, rate: (row: T) => number): ReportColumn<T> {
  return { key, header, value: (row) => pct1(rate(row)), cell: (row) => td.pct(rate(row)), align: 'right' };
}

/**
 * The host refuses the data centre to anyone who is not a grade director (403), also when the web guard let the
 * page open on a stale user record (the flag changed since sign-in): say so in place of the report.
 */
function Forbidden() {
  return (
    <div className={box} role="alert">
      <p className="text-center text-5xl font-semibold text-slate-200" aria-hidden="true">
        403
      </p>
      <Empty
        className="py-6"
        title={MESSAGES.forbidden}
        description={td.forbidden}
        action={<ButtonLink to={paths.paperlist}>{td.toPaperlist}</ButtonLink>}
      />
    </div>
  );
}

function Loading({ error }: { error: unknown }) {
  if (isApiError(error) && error.status === 403) return <Forbidden />;
  return <div className={box}>{error ? <Empty title={td.failed} /> : <SkeletonLines lines={6} />}</div>;
}

/** /dataCenter/subject: every subject of the school year, its classes and its homework. */
export function SubjectStatsScreen() {
  const stats = useSubjectStats();
  const s = stats.data;
  if (!s) return <Loading error={stats.error as unknown} />;
  if (s.subjects.length === 0)
    return (
      <div className={box}>
        <Empty title={td.subject.empty} />
      </div>
    );
  const option = {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 40, right: 16, top: 36, bottom: 24, containLabel: true },
    xAxis: { type: 'category', data: s.subjects.map((x) => x.subjectName) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      { name: col.scoreRate, type: 'bar', barMaxWidth: 32, data: s.subjects.map((x) => pct1(x.scoreRate)) },
      { name: col.passRate, type: 'bar', barMaxWidth: 32, data: s.subjects.map((x) => pct1(x.passRate)) },
      {
        name: col.excellentRate,
        type: 'bar',
        barMaxWidth: 32,
        data: s.subjects.map((x) => pct1(x.excellentRate)),
      },
    ],
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-500">{td.subject.year(s.schoolYearName)}</p>
      <section className={box} aria-label={td.subject.chart}>
        <h3 className="mb-2 text-base font-semibold text-slate-900">{td.subject.chart}</h3>
        <Chart option={option} label={td.subject.chartLabel} height={300} />
      </section>
      <div className={box}>
        <ReportTable
          title={td.subject.title}
          columns={[
            { key: 'subject', header: col.subject, value: (x) => x.subjectName },
            { key: 'hw', header: col.homework, value: (x) => x.homeworkCount, align: 'right' },
            { key: 'test', header: col.test, value: (x) => x.testCount, align: 'right' },
            { key: 'done', header: col.done, value: (x) => x.doneCount, align: 'right' },
            { key: 'sheets', header: col.sheets, value: (x) => x.sheetCount, align: 'right' },
            rateColumn('rate', col.scoreRate, (x: SubjectRow) => x.scoreRate),
            rateColumn('pass', col.passRate, (x: SubjectRow) => x.passRate),
            rateColumn('good', col.goodRate, (x: SubjectRow) => x.goodRate),
            rateColumn('exc', col.excellentRate, (x: SubjectRow) => x.excellentRate),
          ]}
          rows={s.subjects}
          rowKey={(x) => x.subjectId}
          fileName={[s.schoolYearName]}
        />
      </div>
      {s.subjects.map((x) => (
        <div key={x.subjectId} className={box}>
          <ReportTable
            title={td.subject.classes(x.subjectName)}
            columns={[
              { key: 'class', header: col.className, value: (k) => k.className },
              { key: 'hw', header: col.homework, value: (k) => k.homeworkCount, align: 'right' },
              { key: 'sheets', header: col.sheets, value: (k) => k.sheetCount, align: 'right' },
              rateColumn('rate', col.scoreRate, (k: SubjectClassRow) => k.scoreRate),
              rateColumn('pass', col.passRate, (k: SubjectClassRow) => k.passRate),
              rateColumn('exc', col.excellentRate, (k: SubjectClassRow) => k.excellentRate),
            ]}
            rows={x.classes}
            rowKey={(k) => k.classId}
            fileName={[s.schoolYearName, x.subjectName]}
          />
        </div>
      ))}
    </div>
  );
}

/**
 * The homework picker of the data centre, kept in ?homeworkId; when none is named, opens the newest homework that
 * has sheets (one still waiting for its scan has nothing to report yet).
 */
function HomeworkScreen({ children }: { children: (homeworkId: string) => ReactNode }) {
  const [params, setParams] = useSearchParams();
  const list = useDoneHomework();
  const homeworkId = params.get('homeworkId');
  const records = list.data?.records ?? [];
  useEffect(() => {
    const first = records.find((r) => r.state !== 'toScan') ?? records[0];
    if (!homeworkId && first) setParams({ homeworkId: first.id }, { replace: true });
  }, [homeworkId, records, setParams]);
  if (list.data && records.length === 0)
    return (
      <div className={box}>
        <Empty title={td.noHomework} />
      </div>
    );
  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white p-3">
        <Listbox
          label={td.homework}
          value={homeworkId ?? ''}
          placeholder={list.data ? td.pickHomework : td.loading}
          options={records.map((r) => ({
            value: r.id,
            label: `${r.title}（${r.subjectName} · ${r.startDate}）`,
          }))}
          onChange={(v) => setParams({ homeworkId: v })}
          buttonClassName="w-80"
        />
      </div>
      {homeworkId ? children(homeworkId) : <Loading error={list.error as unknown} />}
    </div>
  );
}

function MarkingBody({ homeworkId }: { homeworkId: string }) {
  const report = useMarkingReport(homeworkId);
  const r = report.data;
  if (!r) return <Loading error={report.error as unknown} />;
  const file = [r.homework.title];
  return (
    <>
      <div className={box}>
        <p className="text-sm text-slate-700">
          {td.marking.progress(r.progress.scored, r.progress.answers, r.progress.sheets, r.progress.students)}
        </p>
        <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
          <div className="h-full bg-blue-500" style={{ width: `${r.progress.progress * 100}%` }} />
        </div>
      </div>
      <div className={box}>
        <ReportTable
          title={td.marking.markers}
          description={td.marking.indicatorNote}
          columns={[
            { key: 'name', header: col.name, value: (m) => m.name },
            { key: 'count', header: col.scored, value: (m) => m.scoredCount, align: 'right' },
            { key: 'qs', header: col.questions, value: (m) => m.questionNos.join('、') },
            rateColumn('rate', col.rate, (m: MarkerRow) => m.scoreRate),
            rateColumn('peer', col.peer, (m: MarkerRow) => m.peerScoreRate),
            rateColumn('dev', col.deviation, (m: MarkerRow) => m.deviation),
            rateColumn('mid', col.middle, (m: MarkerRow) => m.middleShare),
            {
              key: 'ind',
              header: col.indicator,
              value: (m) => m.indicatorName,
              cell: (m) => (
                <span
                  className={
                    m.indicator === 'normal'
                      ? 'text-emerald-700'
                      : m.indicator === 'insufficient'
                        ? 'text-slate-500'
                        : 'font-medium text-rose-600'
                  }
                >
                  {m.indicatorName}
                </span>
              ),
            },
          ]}
          rows={r.markers}
          rowKey={(m) => m.userId}
          fileName={file}
        />
      </div>
      <div className={box}>
        <ReportTable
          title={td.marking.questions}
          columns={[
            { key: 'no', header: col.no, value: (q) => q.no },
            { key: 'type', header: col.type, value: (q) => q.typeName },
            { key: 'full', header: col.fullScore, value: (q) => q.fullScore, align: 'right' },
            { key: 'total', header: col.total, value: (q) => q.total, align: 'right' },
            { key: 'scored', header: col.scored, value: (q) => q.scored, align: 'right' },
            { key: 'rem', header: col.remaining, value: (q) => q.remaining, align: 'right' },
            rateColumn('prog', col.progress, (q: MarkingQuestionRow) => q.progress),
            rateColumn('rate', col.scoreRate, (q: MarkingQuestionRow) => q.scoreRate),
            {
              key: 'markers',
              header: td.marking.markers,
              value: (q) => q.markers.map((m) => `${m.name}(${m.count}, ${m.indicatorName})`).join('；'),
            },
          ]}
          rows={r.questions}
          rowKey={(q) => q.questionId}
          fileName={file}
        />
      </div>
    </>
  );
}

/** /dataCenter/correctScore: marking progress per teacher and question, with lenient / strict / middle flags. */
export function MarkingReportScreen() {
  return <HomeworkScreen>{(id) => <MarkingBody homeworkId={id} />}</HomeworkScreen>;
}

function AverageBody({ homeworkId }: { homeworkId: string }) {
  const avg = useAverageScore(homeworkId);
  const a = avg.data;
  if (!a) return <Loading error={avg.error as unknown} />;
  const file = [a.homework.title];
  const option = {
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 16, top: 24, bottom: 24, containLabel: true },
    xAxis: { type: 'category', data: a.classes.map((k) => k.className) },
    yAxis: { type: 'value' },
    series: [
      {
        name: col.average,
        type: 'bar',
        barMaxWidth: 36,
        data: a.classes.map((k) => Math.round(k.stats.average * 10) / 10),
        label: { show: true, position: 'top' },
        markLine: { symbol: 'none', data: [{ yAxis: Math.round(a.gradeSummary.average * 10) / 10 }] },
      },
    ],
  };
  return (
    <>
      <section className={box} aria-label={td.average.classes}>
        <Chart option={option} label={td.average.classes} height={280} />
        <ReportTable
          className="mt-4"
          title={td.average.classes}
          columns={[
            { key: 'rank', header: col.rank, value: (k) => k.rank, align: 'center' },
            { key: 'class', header: col.className, value: (k) => k.className },
            {
              key: 'avg',
              header: col.average,
              value: (k) => Math.round(k.stats.average * 10) / 10,
              align: 'right',
            },
            rateColumn('over', col.overAverage, (k: AverageClassRow) => k.overAverageRate),
            rateColumn('pass', col.passRate, (k: AverageClassRow) => k.stats.passRate),
            rateColumn('exc', col.excellentRate, (k: AverageClassRow) => k.stats.excellentRate),
          ]}
          rows={a.classes}
          rowKey={(k) => k.classId}
          fileName={file}
        />
      </section>
      <div className={box}>
        <ReportTable
          title={td.average.questions}
          columns={[
            { key: 'no', header: col.no, value: (q) => q.no },
            { key: 'full', header: col.fullScore, value: (q) => q.fullScore, align: 'right' },
            rateColumn('grade', col.grade, (q: AverageQuestionRow) => q.gradeScoreRate),
            ...a.classes.map((k) => ({
              key: k.classId,
              header: k.className,
              value: (q: (typeof a.questions)[number]) =>
                pct1(q.classes.find((c) => c.classId === k.classId)?.scoreRate),
              // A percentage like the grade's column beside it (Excel keeps the number).
              cell: (q: (typeof a.questions)[number]) => {
                const rate = q.classes.find((c) => c.classId === k.classId)?.scoreRate;
                return rate === undefined ? '—' : td.pct(rate);
              },
              align: 'right' as const,
            })),
          ]}
          rows={a.questions}
          rowKey={(q) => q.questionId}
          fileName={file}
        />
      </div>
    </>
  );
}

/** /dataCenter/averageScore: class averages and the question × class score-rate comparison. */
export function AverageScoreScreen() {
  return <HomeworkScreen>{(id) => <AverageBody homeworkId={id} />}</HomeworkScreen>;
}
