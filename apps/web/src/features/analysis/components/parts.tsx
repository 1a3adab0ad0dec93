import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AnalysisHomework, ScoreStats } from '@zhzy/contracts';
import { Chart } from '../../../components/charts/chart';
import type { ChartOption } from '../../../components/charts/option';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths, withQuery } from '../../../config/paths';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { cn } from '../../../lib/utils';

/** A white card with a title; the building block of every analysis screen. */
export function Panel({
  title,
  description,
  actions,
  children,
  className,
}: {
  title?: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      className={cn(
        'rounded-xl border border-slate-200 bg-white p-4 sm:p-5 print:break-inside-avoid',
        className,
      )}
      aria-label={title}
    >
      {(title || actions) && (
        <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
          <div>
            {title && <h3 className="text-base font-semibold text-slate-900">{title}</h3>}
            {description && <p className="mt-0.5 text-xs leading-5 text-slate-500">{description}</p>}
          </div>
          {actions && <div className="flex flex-wrap items-center gap-2 print:hidden">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

/** A chart in a panel. */
export function ChartPanel({
  title,
  label,
  option,
  height = 300,
  description,
}: {
  title: string;
  label: string;
  option: ChartOption;
  height?: number;
  description?: ReactNode;
}) {
  return (
    <Panel title={title} description={description}>
      <Chart option={option} label={label} height={height} />
    </Panel>
  );
}

/** Loading and failure of an analysis answer. */
export function LoadState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error) {
    return (
      <div className="rounded-xl border border-slate-200 bg-white">
        <Empty
          title={ta.loadFailed}
          action={
            onRetry && (
              <Button variant="secondary" onClick={onRetry}>
                {ta.picker.retry}
              </Button>
            )
          }
        />
      </div>
    );
  }
  return (
    <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" aria-busy="true">
      <SkeletonLines lines={6} />
    </div>
  );
}

/** Nothing to analyse in the school year yet. */
export function NoHomework() {
  return (
    <div className="rounded-xl border border-slate-200 bg-white">
      <Empty
        title={ta.picker.noHomework}
        description={ta.picker.noHomeworkHint}
        action={<ButtonLink to={paths.paperlist}>{ta.picker.toPaperlist}</ButtonLink>}
      />
    </div>
  );
}

/** A homework without any scored student: where it stands and the way to scanning and marking. */
export function NoResults({ homework, summary }: { homework: AnalysisHomework; summary: ScoreStats }) {
  const q = { homeworkId: homework.id };
  return (
    <div className="rounded-xl border border-slate-200 bg-white">
      <Empty
        title={ta.noResults.title}
        description={ta.noResults.body(summary.pendingCount, summary.absentCount)}
        action={
          <div className="flex gap-2">
            <ButtonLink variant="secondary" to={withQuery(paths.scan, q)}>
              {ta.noResults.scan}
            </ButtonLink>
            <ButtonLink to={withQuery(paths.correct, q)}>{ta.noResults.mark}</ButtonLink>
          </div>
        }
      />
    </div>
  );
}

/** Title, type, classes and dates of a homework, with how many students the figures cover. */
export function HomeworkHeader({
  homework,
  summary,
  scopeName,
  generatedAt,
  links,
}: {
  homework: AnalysisHomework;
  summary: Pick<ScoreStats, 'scoredCount' | 'studentCount' | 'pendingCount' | 'absentCount'>;
  scopeName?: string;
  generatedAt?: string;
  links?: ReactNode;
}) {
  const h = ta.header;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
      <div className="min-w-0 space-y-1">
        <h2 className="text-lg font-semibold text-slate-900">
          {homework.title}
          <span className="ml-2 rounded bg-blue-50 px-1.5 py-0.5 align-middle text-xs font-medium text-blue-700">
            {homework.typeName}
          </span>
          {scopeName && (
            <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 align-middle text-xs font-medium text-slate-600">
              {scopeName}
            </span>
          )}
        </h2>
        <p className="text-sm text-slate-500">
          {[
            `${homework.stageName}${homework.subjectName}`,
            h.fullScore(homework.fullScore),
            h.questions(homework.questionCount),
            h.dates(homework.startDate, homework.dueDate),
            h.by(homework.createdByName),
          ].join(' · ')}
        </p>
        <p className="text-sm text-slate-500">
          {homework.classes.map((k) => k.name).join('、')} ·{' '}
          {h.counts(summary.scoredCount, summary.studentCount, summary.pendingCount, summary.absentCount)}
          {generatedAt && (
            <span className="ml-2 text-xs text-slate-500">{h.generated(fmt.dateTime(generatedAt))}</span>
          )}
        </p>
      </div>
      {links && <div className="flex flex-wrap gap-2 print:hidden">{links}</div>}
    </div>
  );
}

export interface Tile {
  label: string;
  value: string;
  /** A second line: the grade's figure, a difference. */
  hint?: ReactNode;
  tone?: 'default' | 'good' | 'bad';
}

/** A row of figures (平均分, 最高分, …) that wraps on small screens. */
export function StatTiles({ tiles, className }: { tiles: Tile[]; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5', className)}>
      {tiles.map((t) => (
        <div key={t.label} className="rounded-xl border border-slate-200 bg-white px-4 py-3">
          <dt className="text-xs text-slate-500">{t.label}</dt>
          <dd
            className={cn(
              'mt-1 text-xl font-semibold tabular-nums',
              t.tone === 'good' ? 'text-emerald-700' : t.tone === 'bad' ? 'text-rose-600' : 'text-slate-900',
            )}
          >
            {t.value}
          </dd>
          {t.hint && <dd className="mt-0.5 text-xs text-slate-500">{t.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}

/** The figures of a score summary; `grade` adds the grade's figure under each. */
export function summaryTiles(s: ScoreStats, grade?: ScoreStats, alpha?: number | null): Tile[] {
  const st = ta.stats;
  const g = (v: string) => (grade ? st.gradeAverage(v) : undefined);
  const tiles: Tile[] = [
    { label: st.average, value: fmt.num(s.average), hint: g(fmt.num(grade?.average)) },
    { label: st.scoreRate, value: fmt.pct(s.scoreRate), hint: g(fmt.pct(grade?.scoreRate)) },
    { label: st.max, value: fmt.num(s.max), hint: g(fmt.num(grade?.max)) },
    { label: st.min, value: fmt.num(s.min), hint: g(fmt.num(grade?.min)) },
    { label: st.median, value: fmt.num(s.median), hint: g(fmt.num(grade?.median)) },
    { label: st.sd, value: fmt.num(s.standardDeviation, 2), hint: g(fmt.num(grade?.standardDeviation, 2)) },
    { label: st.passRate, value: fmt.pct(s.passRate), hint: g(fmt.pct(grade?.passRate)) },
    { label: st.goodRate, value: fmt.pct(s.goodRate), hint: g(fmt.pct(grade?.goodRate)) },
    { label: st.excellentRate, value: fmt.pct(s.excellentRate), hint: g(fmt.pct(grade?.excellentRate)) },
  ];
  if (alpha !== undefined) {
    tiles.push({
      label: st.alpha,
      value: alpha === null ? '—' : fmt.num(alpha, 2),
      hint: st.alphaNote(alpha),
    });
  } else {
    tiles.push({ label: st.scored, value: `${s.scoredCount}/${s.studentCount}` });
  }
  return tiles;
}

/** Links from one homework screen to the others, keeping the homework and class. */
export function HomeworkLinks({
  homeworkId,
  classId,
  except,
}: {
  homeworkId: string;
  classId: string | null;
  except: 'grade' | 'class' | 'commentary' | 'details' | 'report' | 'analysis';
}) {
  const q = { homeworkId, classId };
  const all = [
    { key: 'grade', to: withQuery(paths.analysis.grade, { homeworkId }), label: ta.links.grade },
    { key: 'class', to: withQuery(paths.analysis.class, q), label: ta.links.class },
    { key: 'commentary', to: withQuery(paths.assistant.commentary, q), label: ta.links.commentary },
    { key: 'details', to: withQuery(paths.assistant.details, q), label: ta.links.details },
    { key: 'report', to: withQuery(paths.assistant.report, q), label: ta.links.report },
    { key: 'print', to: withQuery(paths.print.grade, q), label: ta.links.printGrade },
  ].filter((l) => l.key !== except);
  return (
    <>
      {all.map((l) => (
        <Link key={l.key} to={l.to} className="text-sm text-blue-600 hover:underline">
          {l.label}
        </Link>
      ))}
    </>
  );
}
