import { useMemo, useState } from 'react';
import { STUDENT_RESULT_STATUS_NAMES, type StudentAnalysis, type WrongQuestion } from '@zhzy/contracts';
import { Chart } from '../../../components/charts/chart';
import { pct } from '../../../components/charts/option';
import { RichText } from '../../../components/rich-text';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { ReportTable } from '../../../components/ui/report-table';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { useClassStudents } from '../../../api/classes';
import { useAnalysisFilters, useStudentAnalysis } from '../api/analysis';
import { knowledgeOption, trendOption } from '../utils/chart-options';
import { MasteryTag } from './columns';
import { CropImage } from '../../../components/ui/crop-image';
import { MistakeBookView } from './mistake-book';
import { LoadState, Panel, StatTiles } from './parts';
import { useAnalysisSelection } from './selection';

const tp = ta.person;
const col = ta.tables.col;

function WrongItem({ w, onCrop }: { w: WrongQuestion; onCrop: (w: WrongQuestion) => void }) {
  return (
    <li className="space-y-2 py-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
        <span className="font-medium text-slate-700">
          {ta.mistakeBook.wrongOf(w.homeworkTitle, w.date, w.no)}
        </span>
        <span>{w.typeName}</span>
        <span className="text-rose-600">{tp.scoreOf(fmt.num(w.score), fmt.num(w.fullScore))}</span>
        <span>{tp.gradeRate(fmt.pct(w.gradeScoreRate))}</span>
        {w.knowledgePoints.map((k) => (
          <span key={k.id} className="rounded bg-slate-100 px-1.5 py-0.5">
            {k.name}
          </span>
        ))}
      </div>
      <RichText html={w.stem} className="text-sm leading-7 text-slate-800" />
      {w.options.length > 0 && (
        <ul className="grid gap-1 text-sm text-slate-700 sm:grid-cols-2">
          {w.options.map((o) => (
            <li key={o.label} className="flex gap-1">
              <span>{o.label}.</span>
              <RichText html={o.content} />
            </li>
          ))}
        </ul>
      )}
      <p className="flex flex-wrap gap-x-4 text-sm">
        {w.response !== null && (
          <span className="text-rose-600">
            {tp.yourAnswer}：{w.blank || !w.response ? tp.blank : w.response}
          </span>
        )}
        <span className="text-emerald-700">
          {tp.answer}：<RichText html={w.answer} inline />
        </span>
        {w.cropUrl && (
          <button type="button" className="text-blue-600 hover:underline" onClick={() => onCrop(w)}>
            {tp.showCrop}
          </button>
        )}
      </p>
    </li>
  );
}

function StudentBody({ a }: { a: StudentAnalysis }) {
  const [crop, setCrop] = useState<WrongQuestion | null>(null);
  const [book, setBook] = useState(false);
  const trend = useMemo(
    () =>
      trendOption(
        a.trend.map((p) => `${p.title}`),
        [
          { name: ta.charts.series.student, data: a.trend.map((p) => pct(p.scoreRate)) },
          {
            name: ta.charts.series.classAvg,
            // Nobody of the class / grade scored yet: no point (not a zero).
            data: a.trend.map((p) =>
              pct(p.fullScore && p.classSize > 0 ? p.classAverage / p.fullScore : null),
            ),
            dashed: true,
          },
          {
            name: ta.charts.series.gradeAvg,
            data: a.trend.map((p) =>
              pct(p.fullScore && p.gradeSize > 0 ? p.gradeAverage / p.fullScore : null),
            ),
            dashed: true,
          },
        ],
        true,
      ),
    [a.trend],
  );
  if (book) {
    return <MistakeBookView studentId={a.student.id} subjectId={a.subjectId} onBack={() => setBook(false)} />;
  }
  const s = a.summary;
  const file = [a.student.className, a.student.name];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{a.student.name}</h2>
          <p className="text-sm text-slate-500">
            {a.student.className} · {col.studentNo} {a.student.studentNo}
          </p>
        </div>
        <Button onClick={() => setBook(true)}>{tp.mistakeBook}</Button>
      </div>
      <StatTiles
        className="lg:grid-cols-6"
        tiles={[
          { label: tp.summary.homework, value: String(s.homeworkCount) },
          { label: tp.summary.average, value: fmt.pct(s.averageScoreRate) },
          { label: tp.summary.gradeAverage, value: fmt.pct(s.gradeAverageScoreRate) },
          {
            label: tp.summary.change,
            value: fmt.pctDiff(s.rateChange),
            tone:
              s.rateChange === null
                ? 'default'
                : s.rateChange > 0
                  ? 'good'
                  : s.rateChange < 0
                    ? 'bad'
                    : 'default',
          },
          { label: tp.summary.critical, value: String(s.criticalCount) },
          { label: tp.summary.wrong, value: String(s.wrongCount) },
        ]}
      />
      <Panel title={ta.charts.trend}>
        {a.trend.length > 0 && <Chart option={trend} label={ta.charts.trendLabel} height={300} />}
        <ReportTable
          className="mt-4"
          title={ta.tables.trend}
          columns={[
            { key: 'title', header: col.homework, value: (p) => p.title },
            { key: 'subject', header: ta.picker.subject, value: (p) => p.subjectName },
            { key: 'date', header: col.date, value: (p) => p.date },
            {
              key: 'status',
              header: col.status,
              value: (p) => (p.status === 'scored' ? null : STUDENT_RESULT_STATUS_NAMES[p.status]),
            },
            { key: 'total', header: col.total, value: (p) => p.total, align: 'right' },
            { key: 'full', header: col.fullScore, value: (p) => p.fullScore, align: 'right' },
            {
              key: 'rate',
              header: col.scoreRate,
              value: (p) => pct(p.scoreRate),
              cell: (p) => fmt.pct(p.scoreRate),
              align: 'right',
            },
            {
              key: 'class',
              header: col.classAverage,
              value: (p) => (p.classSize > 0 ? Math.round(p.classAverage * 10) / 10 : null),
              align: 'right',
            },
            {
              key: 'grade',
              header: col.gradeAverage,
              value: (p) => (p.gradeSize > 0 ? Math.round(p.gradeAverage * 10) / 10 : null),
              align: 'right',
            },
            ...(a.showRank
              ? [
                  {
                    key: 'crank',
                    header: col.classRank,
                    value: (p: StudentAnalysis['trend'][number]) => p.classRank,
                    cell: (p: StudentAnalysis['trend'][number]) => fmt.rank(p.classRank, p.classSize),
                    align: 'right' as const,
                  },
                  {
                    key: 'grank',
                    header: col.gradeRank,
                    value: (p: StudentAnalysis['trend'][number]) => p.gradeRank,
                    cell: (p: StudentAnalysis['trend'][number]) => fmt.rank(p.gradeRank, p.gradeSize),
                    align: 'right' as const,
                  },
                ]
              : []),
            {
              key: 't',
              header: col.t,
              value: (p) => (p.tScore === null ? null : Math.round(p.tScore * 10) / 10),
              align: 'right',
            },
          ]}
          rows={a.trend}
          rowKey={(p) => p.homeworkId}
          fileName={file}
          empty={ta.tables.none}
        />
      </Panel>
      {a.knowledgePoints.length > 0 && (
        <Panel title={tp.knowledgeTitle}>
          <Chart
            // The chart keeps the weakest 15 (the title says so); the table below lists every one.
            option={knowledgeOption(a.knowledgePoints.slice(0, 15), ta.charts.series.student)}
            label={ta.charts.knowledgeLabel}
            height={Math.max(200, Math.min(a.knowledgePoints.length, 15) * 36)}
          />
          <ReportTable
            className="mt-4"
            title={ta.tables.knowledge}
            columns={[
              { key: 'name', header: col.knowledge, value: (k) => k.name },
              { key: 'count', header: col.questionCount, value: (k) => k.questionCount, align: 'right' },
              {
                key: 'rate',
                header: col.scoreRate,
                value: (k) => pct(k.scoreRate),
                cell: (k) => fmt.pct(k.scoreRate),
                align: 'right',
              },
              {
                key: 'grade',
                header: col.gradeScoreRate,
                value: (k) => pct(k.gradeScoreRate),
                cell: (k) => fmt.pct(k.gradeScoreRate),
                align: 'right',
              },
              {
                key: 'mastery',
                header: col.mastery,
                value: (k) => k.masteryName,
                cell: (k) => <MasteryTag level={k.mastery} name={k.masteryName} />,
              },
            ]}
            rows={a.knowledgePoints}
            rowKey={(k) => k.id}
            fileName={file}
          />
        </Panel>
      )}
      <Panel title={`${tp.wrongTitle}（${a.wrongQuestions.length}）`}>
        {a.wrongQuestions.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">{tp.wrongEmpty}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {a.wrongQuestions.map((w) => (
              <WrongItem key={`${w.homeworkId}-${w.questionId}`} w={w} onCrop={setCrop} />
            ))}
          </ul>
        )}
      </Panel>
      <Dialog
        open={crop !== null}
        onClose={() => setCrop(null)}
        title={crop ? ta.details.crop(a.student.name, crop.no) : ''}
        className="max-w-3xl"
      >
        {crop && (
          <CropImage url={crop.cropUrl} alt={ta.details.crop(a.student.name, crop.no)} className="mt-4" />
        )}
      </Dialog>
    </div>
  );
}

/** /analysis/person: one student over time — trend, knowledge points, wrong questions, 错题本. */
export function PersonAnalysisScreen() {
  const sel = useAnalysisSelection();
  const filters = useAnalysisFilters();
  const students = useClassStudents(sel.classId);
  const analysis = useStudentAnalysis(sel.studentId, sel.subjectId);
  const classes = filters.data?.classes ?? [];
  const subjects = analysis.data?.subjects ?? [];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 print:hidden">
        <Listbox
          label={ta.picker.class}
          value={sel.classId ?? ''}
          placeholder={filters.data ? ta.picker.pickClass : ta.picker.loading}
          options={classes.map((k) => ({ value: k.id, label: k.name }))}
          onChange={(v) => sel.set({ classId: v, studentId: null })}
        />
        <Listbox
          label={ta.picker.student}
          value={sel.studentId ?? ''}
          placeholder={ta.picker.pickStudent}
          disabled={!sel.classId}
          options={(students.data ?? []).map((s) => ({ value: s.id, label: `${s.name}（${s.studentNo}）` }))}
          onChange={(v) => sel.set({ studentId: v })}
          buttonClassName="w-56"
        />
        {analysis.data && (
          <Listbox
            label={ta.picker.subject}
            value={sel.subjectId ?? ''}
            placeholder={ta.picker.allSubjects}
            options={[
              { value: '', label: ta.picker.allSubjects },
              ...subjects.map((s) => ({ value: s.id, label: s.name })),
            ]}
            onChange={(v) => sel.set({ subjectId: v || null })}
          />
        )}
      </div>
      {!sel.studentId ? (
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty
            title={tp.pick}
            description={filters.data && classes.length === 0 ? ta.picker.noClasses : undefined}
          />
        </div>
      ) : analysis.data ? (
        <StudentBody a={analysis.data} />
      ) : (
        <LoadState error={analysis.error as unknown} onRetry={() => void analysis.mutate()} />
      )}
    </div>
  );
}
