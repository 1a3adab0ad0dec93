import type {
  ClassQuestion,
  ClassScoreBand,
  ClassStats,
  CriticalStudent,
  KnowledgePointStats,
  QuestionStats,
  StudentResult,
} from '@zhzy/contracts';
import type { ReportColumn } from '../../../components/ui/report-table';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { cn } from '../../../lib/utils';

// The columns of every analysis table: what the screen shows and what goes to Excel (figures as numbers, rates as
// percentages with one decimal so the sheet reads like the screen).

const col = ta.tables.col;
const r1 = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 10) / 10);
const r2 = (v: number | null | undefined) =>
  v === null || v === undefined ? null : Math.round(v * 100) / 100;
/** A rate as a percentage number for Excel (0.853 → 85.3). */
const p1 = (v: number | null | undefined) =>
  v === null || v === undefined ? null : Math.round(v * 1000) / 10;

function Signed({ value, text }: { value: number; text: string }) {
  return (
    <span className={cn('tabular-nums', value > 0 ? 'text-emerald-700' : value < 0 ? 'text-rose-600' : '')}>
      {text}
    </span>
  );
}

/** A thin bar behind a rate, so a long table reads at a glance. */
export function RateBar({
  rate,
  tone = 'blue',
}: {
  rate: number;
  tone?: 'blue' | 'green' | 'red' | 'amber';
}) {
  const colors = { blue: 'bg-blue-500', green: 'bg-emerald-500', red: 'bg-rose-500', amber: 'bg-amber-500' };
  return (
    <span className="inline-flex items-center gap-2">
      <span className="h-1.5 w-16 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <span
          className={cn('block h-full rounded-full', colors[tone])}
          style={{ width: `${Math.max(0, Math.min(1, rate)) * 100}%` }}
        />
      </span>
      <span className="tabular-nums">{fmt.pct(rate)}</span>
    </span>
  );
}

const rateTone = (rate: number) => (rate >= 0.7 ? 'green' : rate >= 0.4 ? 'blue' : 'red');

/** A class with nobody scored yet has no figures to show (not zeros). */
const hasScores = (k: ClassStats) => k.stats.scoredCount > 0;

export function classColumns(highlight?: string | null): ReportColumn<ClassStats>[] {
  return [
    { key: 'rank', header: col.rank, value: (k) => k.rank, align: 'center' },
    {
      key: 'name',
      header: col.className,
      value: (k) => k.className,
      cell: (k) => (
        <span className={cn(k.classId === highlight && 'font-semibold text-amber-700')}>{k.className}</span>
      ),
    },
    { key: 'teacher', header: col.teacher, value: (k) => k.teacherNames || null },
    { key: 'scored', header: col.scored, value: (k) => k.stats.scoredCount, align: 'right' },
    {
      key: 'average',
      header: col.average,
      value: (k) => (!hasScores(k) ? null : r1(k.stats.average)),
      align: 'right',
    },
    {
      key: 'diff',
      header: col.averageDiff,
      value: (k) => (!hasScores(k) ? null : r1(k.averageDiff)),
      cell: (k) => (!hasScores(k) ? '—' : <Signed value={k.averageDiff} text={fmt.diff(k.averageDiff)} />),
      align: 'right',
    },
    {
      key: 'over',
      header: col.overAverage,
      value: (k) => (!hasScores(k) ? null : p1(k.overAverageRate)),
      cell: (k) =>
        !hasScores(k) ? '—' : <Signed value={k.overAverageRate} text={fmt.pctDiff(k.overAverageRate)} />,
      align: 'right',
    },
    { key: 'max', header: col.max, value: (k) => (!hasScores(k) ? null : r1(k.stats.max)), align: 'right' },
    { key: 'min', header: col.min, value: (k) => (!hasScores(k) ? null : r1(k.stats.min)), align: 'right' },
    {
      key: 'sd',
      header: col.sd,
      value: (k) => (!hasScores(k) ? null : r2(k.stats.standardDeviation)),
      align: 'right',
    },
    {
      key: 'pass',
      header: col.passRate,
      value: (k) => (!hasScores(k) ? null : p1(k.stats.passRate)),
      cell: (k) => (!hasScores(k) ? '—' : fmt.pct(k.stats.passRate)),
      align: 'right',
    },
    {
      key: 'good',
      header: col.goodRate,
      value: (k) => (!hasScores(k) ? null : p1(k.stats.goodRate)),
      cell: (k) => (!hasScores(k) ? '—' : fmt.pct(k.stats.goodRate)),
      align: 'right',
    },
    {
      key: 'excellent',
      header: col.excellentRate,
      value: (k) => (!hasScores(k) ? null : p1(k.stats.excellentRate)),
      cell: (k) => (!hasScores(k) ? '—' : fmt.pct(k.stats.excellentRate)),
      align: 'right',
    },
  ];
}

export function bandColumns(compare: boolean): ReportColumn<ClassScoreBand>[] {
  const cols: ReportColumn<ClassScoreBand>[] = [
    { key: 'label', header: col.band, value: (b) => b.label },
    { key: 'count', header: col.count, value: (b) => b.count, align: 'right' },
    { key: 'rate', header: col.rate, value: (b) => p1(b.rate), cell: (b) => fmt.pct(b.rate), align: 'right' },
  ];
  if (compare) {
    cols.push(
      { key: 'gcount', header: col.gradeCount, value: (b) => b.gradeCount, align: 'right' },
      {
        key: 'grate',
        header: col.gradeRate,
        value: (b) => p1(b.gradeRate),
        cell: (b) => fmt.pct(b.gradeRate),
        align: 'right',
      },
    );
  }
  return cols;
}

export function questionColumns(onOpen?: (q: QuestionStats) => void): ReportColumn<QuestionStats>[] {
  return [
    {
      key: 'no',
      header: col.no,
      value: (q) => q.no,
      cell: (q) =>
        onOpen ? (
          <button
            type="button"
            className="font-medium text-blue-600 hover:underline"
            onClick={() => onOpen(q)}
          >
            {q.no}
          </button>
        ) : (
          q.no
        ),
      align: 'center',
    },
    { key: 'type', header: col.type, value: (q) => q.typeName },
    { key: 'full', header: col.fullScore, value: (q) => q.fullScore, align: 'right' },
    { key: 'avg', header: col.average, value: (q) => r2(q.average), align: 'right' },
    {
      key: 'rate',
      header: col.scoreRate,
      value: (q) => p1(q.scoreRate),
      cell: (q) => <RateBar rate={q.scoreRate} tone={rateTone(q.scoreRate)} />,
    },
    { key: 'difficulty', header: col.difficulty, value: (q) => q.difficultyName },
    { key: 'disc', header: col.discrimination, value: (q) => r2(q.discrimination), align: 'right' },
    { key: 'discBand', header: col.discriminationBand, value: (q) => q.discriminationName || null },
    { key: 'fullCount', header: col.fullCount, value: (q) => q.fullCount, align: 'right' },
    { key: 'zero', header: col.zeroCount, value: (q) => q.zeroCount, align: 'right' },
    { key: 'blank', header: col.blankCount, value: (q) => q.blankCount, align: 'right' },
    { key: 'answer', header: col.answer, value: (q) => (q.objective ? q.correctAnswer : null) },
    {
      key: 'typical',
      header: col.typical,
      value: (q) =>
        q.typicalWrong.map((w) => `${w.response || '—'} ${fmt.pct(w.rate, 0)}`).join('，') || null,
    },
  ];
}

export function classQuestionColumns(): ReportColumn<ClassQuestion>[] {
  return [
    { key: 'no', header: col.no, value: (q) => q.no, align: 'center' },
    { key: 'type', header: col.type, value: (q) => q.typeName },
    { key: 'full', header: col.fullScore, value: (q) => q.fullScore, align: 'right' },
    { key: 'avg', header: col.average, value: (q) => r2(q.average), align: 'right' },
    {
      key: 'rate',
      header: col.classScoreRate,
      value: (q) => p1(q.scoreRate),
      cell: (q) => <RateBar rate={q.scoreRate} tone={rateTone(q.scoreRate)} />,
    },
    {
      key: 'grade',
      header: col.gradeScoreRate,
      value: (q) => p1(q.gradeScoreRate),
      cell: (q) => fmt.pct(q.gradeScoreRate),
      align: 'right',
    },
    {
      key: 'diff',
      header: col.rateDiff,
      value: (q) => p1(q.rateDiff),
      cell: (q) => <Signed value={q.rateDiff} text={fmt.pctDiff(q.rateDiff)} />,
      align: 'right',
    },
    { key: 'difficulty', header: col.difficulty, value: (q) => q.difficultyName },
    { key: 'disc', header: col.discrimination, value: (q) => r2(q.discrimination), align: 'right' },
    { key: 'wrong', header: col.wrongCount, value: (q) => q.wrongCount, align: 'right' },
  ];
}

export function knowledgeColumns(compare: boolean): ReportColumn<KnowledgePointStats>[] {
  const cols: ReportColumn<KnowledgePointStats>[] = [
    { key: 'name', header: col.knowledge, value: (k) => k.name },
    { key: 'nos', header: col.questionNos, value: (k) => k.questionNos.join('、') },
    { key: 'full', header: col.fullScore, value: (k) => k.fullScore, align: 'right' },
    {
      key: 'rate',
      header: compare ? col.classScoreRate : col.scoreRate,
      value: (k) => p1(k.scoreRate),
      cell: (k) => <RateBar rate={k.scoreRate} tone={rateTone(k.scoreRate)} />,
    },
  ];
  if (compare) {
    cols.push({
      key: 'grade',
      header: col.gradeScoreRate,
      value: (k) => p1(k.gradeScoreRate),
      cell: (k) => fmt.pct(k.gradeScoreRate),
      align: 'right',
    });
  }
  cols.push({
    key: 'mastery',
    header: col.mastery,
    value: (k) => k.masteryName,
    cell: (k) => <MasteryTag level={k.mastery} name={k.masteryName} />,
  });
  return cols;
}

export function MasteryTag({ level, name }: { level: string; name: string }) {
  return (
    <span
      className={cn(
        'rounded px-1.5 py-0.5 text-xs font-medium',
        level === 'mastered'
          ? 'bg-emerald-50 text-emerald-700'
          : level === 'partial'
            ? 'bg-amber-50 text-amber-700'
            : 'bg-rose-50 text-rose-700',
      )}
    >
      {name}
    </span>
  );
}

export function criticalColumns(showRank: boolean): ReportColumn<CriticalStudent>[] {
  const cols: ReportColumn<CriticalStudent>[] = [
    { key: 'name', header: col.name, value: (s) => s.name },
    { key: 'no', header: col.studentNo, value: (s) => s.studentNo },
    { key: 'class', header: col.className, value: (s) => s.className },
    { key: 'total', header: col.total, value: (s) => r1(s.total), align: 'right' },
    {
      key: 'rate',
      header: col.scoreRate,
      value: (s) => p1(s.scoreRate),
      cell: (s) => fmt.pct(s.scoreRate),
      align: 'right',
    },
  ];
  if (showRank) cols.push({ key: 'rank', header: col.gradeRank, value: (s) => s.gradeRank, align: 'right' });
  cols.push(
    { key: 'line', header: col.line, value: (s) => s.line },
    {
      key: 'gap',
      header: col.gap,
      value: (s) => r1(s.gap),
      cell: (s) => <Signed value={s.gap} text={fmt.diff(s.gap)} />,
      align: 'right',
    },
  );
  return cols;
}

export function studentColumns(
  showRank: boolean,
  withClass: boolean,
  onOpen?: (s: StudentResult) => void,
): ReportColumn<StudentResult>[] {
  const cols: ReportColumn<StudentResult>[] = [
    {
      key: 'name',
      header: col.name,
      value: (s) => s.name,
      cell: (s) =>
        onOpen ? (
          <button type="button" className="text-blue-600 hover:underline" onClick={() => onOpen(s)}>
            {s.name}
          </button>
        ) : (
          s.name
        ),
    },
    { key: 'no', header: col.studentNo, value: (s) => s.studentNo },
  ];
  if (withClass) cols.push({ key: 'class', header: col.className, value: (s) => s.className });
  cols.push(
    {
      key: 'total',
      header: col.total,
      value: (s) => r1(s.total),
      cell: (s) => <span className="font-medium tabular-nums">{fmt.num(s.total)}</span>,
      align: 'right',
    },
    { key: 'objective', header: col.objective, value: (s) => r1(s.objective), align: 'right' },
    { key: 'subjective', header: col.subjective, value: (s) => r1(s.subjective), align: 'right' },
    {
      key: 'rate',
      header: col.scoreRate,
      value: (s) => p1(s.scoreRate),
      cell: (s) => fmt.pct(s.scoreRate),
      align: 'right',
    },
  );
  if (showRank) {
    cols.push(
      { key: 'classRank', header: col.classRank, value: (s) => s.classRank, align: 'right' },
      { key: 'gradeRank', header: col.gradeRank, value: (s) => s.gradeRank, align: 'right' },
    );
  }
  cols.push(
    { key: 'z', header: col.z, value: (s) => r2(s.zScore), align: 'right' },
    { key: 't', header: col.t, value: (s) => r1(s.tScore), align: 'right' },
    { key: 'wrong', header: col.wrongCount, value: (s) => s.wrongCount, align: 'right' },
    {
      key: 'change',
      header: col.rateChange,
      value: (s) => p1(s.rateChange),
      cell: (s) =>
        s.rateChange === null ? '—' : <Signed value={s.rateChange} text={fmt.pctDiff(s.rateChange)} />,
      align: 'right',
    },
    {
      key: 'status',
      header: col.status,
      value: (s) => (s.critical ? `${s.statusName}·${col.critical}` : s.statusName),
      cell: (s) => (
        <span className="inline-flex items-center gap-1">
          <span className={cn(s.status === 'scored' ? 'text-slate-600' : 'text-amber-700')}>
            {s.statusName}
          </span>
          {s.critical && (
            <span className="rounded bg-amber-50 px-1 text-xs font-medium text-amber-700">
              {col.critical}
            </span>
          )}
        </span>
      ),
    },
  );
  return cols;
}
