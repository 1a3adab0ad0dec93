import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { BigData } from '@zhzy/contracts';
import { Chart } from '../../../components/charts/chart';
import type { ChartOption } from '../../../components/charts/option';
import { paths } from '../../../config/paths';
import { zhBigData as tb } from '../../../i18n/big-data';
import { remFontSize, useRemLayout } from '../../../lib/use-rem-layout';
import { useSchoolToday } from '../../../lib/school-day';
import { cn } from '../../../lib/utils';
import { useBigData } from '../api/big-data';
import { bandsOption, classesOption, subjectsOption, trendOption, type ScreenLook } from '../utils/options';

// /bigData (the school's data overview, light, scrolls) and /largescreen (a wall display, dark, one screen high).
// Both use SPEC §9's rem layout: every size below is in rem, and the root font size is min(width, 540) / 10, so the
// screens scale down on a phone and keep their proportions on a wall. Neither carries the app's nav (SPEC §2).

export type BigDataVariant = 'overview' | 'display';

interface Theme {
  page: string;
  card: string;
  muted: string;
  strong: string;
  track: string;
  link: string;
  /** The figures' colours, dark enough for AA contrast on the theme's cards. */
  accent: Record<Accent, string>;
  /** The marking states' chips. */
  state: Record<BigData['marking'][number]['state'], string>;
}

type Accent = 'sky' | 'violet' | 'emerald' | 'amber';

const THEMES: Record<BigDataVariant, Theme> = {
  overview: {
    page: 'min-h-screen bg-slate-50 text-slate-800',
    card: 'border-slate-200 bg-white',
    muted: 'text-slate-500',
    strong: 'text-slate-900',
    track: 'bg-slate-100',
    link: 'border-slate-300 bg-white text-slate-700 hover:border-blue-400 hover:text-blue-700',
    accent: {
      sky: 'text-sky-700',
      violet: 'text-violet-600',
      emerald: 'text-emerald-700',
      amber: 'text-amber-700',
    },
    state: {
      toScan: 'bg-slate-500/15 text-slate-600',
      scanning: 'bg-amber-500/15 text-amber-700',
      marking: 'bg-sky-500/15 text-sky-700',
      done: 'bg-emerald-500/15 text-emerald-700',
    },
  },
  display: {
    page: 'min-h-screen bg-slate-950 text-slate-100 lg:h-screen lg:min-h-0',
    card: 'border-slate-700/70 bg-slate-900/80',
    muted: 'text-slate-400',
    strong: 'text-white',
    track: 'bg-slate-800',
    link: 'border-slate-600 bg-slate-900 text-slate-200 hover:border-sky-400 hover:text-sky-300',
    accent: {
      sky: 'text-sky-500',
      violet: 'text-violet-500',
      emerald: 'text-emerald-500',
      amber: 'text-amber-500',
    },
    state: {
      toScan: 'bg-slate-500/15 text-slate-400',
      scanning: 'bg-amber-500/15 text-amber-500',
      marking: 'bg-sky-500/15 text-sky-500',
      done: 'bg-emerald-500/15 text-emerald-500',
    },
  },
};

/** The rem layout's root font size in pixels, kept in step with resizes (for the charts' label sizes). */
function useRemPixels(): number {
  const [px, setPx] = useState(() => remFontSize(window.innerWidth));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setPx(remFontSize(window.innerWidth)), 300);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return px;
}

/** The wall clock of the large screen, ticking every second. */
function useNow(enabled: boolean): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!enabled) return;
    const id = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(id);
  }, [enabled]);
  return now;
}

/** A time of day as the school reads it: its own time zone (Asia/Shanghai unless it sets another), not the browser's. */
const timeOf = (d: Date, timeZone: string) => d.toLocaleTimeString('zh-CN', { hour12: false, timeZone });
const dateOf = (d: Date, timeZone: string) =>
  d.toLocaleDateString('zh-CN', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    weekday: 'long',
    timeZone,
  });

function Card({
  theme,
  title,
  aside,
  children,
  className,
}: {
  theme: Theme;
  title: string;
  aside?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-label={title}
      className={cn('flex min-w-0 flex-col rounded-[0.14rem] border p-[0.26rem]', theme.card, className)}
    >
      <div className="mb-[0.14rem] flex items-baseline justify-between gap-[0.2rem]">
        <h2 className={cn('text-[0.3rem] font-semibold', theme.strong)}>{title}</h2>
        {aside && <span className={cn('text-[0.22rem]', theme.muted)}>{aside}</span>}
      </div>
      {children}
    </section>
  );
}

interface FigureSpec {
  label: string;
  value: string;
  unit?: string;
  accent: Accent;
}

/** Headline figures, one tile each (the `<dl>` around them is the caller's). */
function Figures({ theme, items }: { theme: Theme; items: FigureSpec[] }) {
  return items.map(({ label, value, unit, accent }) => (
    <div key={label} className={cn('min-w-0 rounded-[0.14rem] border px-[0.26rem] py-[0.2rem]', theme.card)}>
      <dt className={cn('truncate text-[0.24rem]', theme.muted)}>{label}</dt>
      <dd className="mt-[0.06rem] flex items-baseline gap-[0.06rem]">
        <span className={cn('text-[0.56rem] leading-none font-semibold tabular-nums', theme.accent[accent])}>
          {value}
        </span>
        {unit && <span className={cn('text-[0.22rem]', theme.muted)}>{unit}</span>}
      </dd>
    </div>
  ));
}

function ChartOrEmpty({
  theme,
  empty,
  option,
  label,
  height,
  dark,
}: {
  theme: Theme;
  empty: string | null;
  option: ChartOption;
  label: string;
  height: string;
  dark: boolean;
}) {
  if (empty) {
    return (
      <p
        className={cn('flex flex-1 items-center justify-center text-[0.26rem]', theme.muted)}
        style={{ minHeight: height }}
      >
        {empty}
      </p>
    );
  }
  // The chart fills what its card leaves (the wall display fits one screen), never less than `height`.
  return (
    <div className="relative flex-1" style={{ minHeight: height }}>
      <div className="absolute inset-0">
        <Chart option={option} label={label} height="100%" dark={dark} />
      </div>
    </div>
  );
}

function Bar({ theme, label, rate, color }: { theme: Theme; label: string; rate: number; color: string }) {
  const value = tb.pct(rate);
  return (
    <div className="flex items-center gap-[0.12rem] text-[0.22rem]">
      <span className={cn('w-[0.56rem] shrink-0', theme.muted)}>{label}</span>
      <span
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(rate * 1000) / 10}
        className={cn('h-[0.14rem] flex-1 overflow-hidden rounded-full', theme.track)}
      >
        <span className={cn('block h-full rounded-full', color)} style={{ width: value }} />
      </span>
      <span className={cn('w-[0.9rem] shrink-0 text-right tabular-nums', theme.strong)}>{value}</span>
    </div>
  );
}

function MarkingList({ theme, rows }: { theme: Theme; rows: BigData['marking'] }) {
  if (rows.length === 0) {
    return <p className={cn('py-[0.4rem] text-center text-[0.26rem]', theme.muted)}>{tb.marking.empty}</p>;
  }
  return (
    <ul className="flex flex-col gap-[0.2rem]">
      {rows.map((h) => (
        <li key={h.homeworkId} aria-label={tb.marking.label(h.title, h.classNames)} className="min-w-0">
          <div className="mb-[0.06rem] flex items-center gap-[0.12rem]">
            <span className={cn('truncate text-[0.26rem] font-medium', theme.strong)} title={h.title}>
              {h.title}
            </span>
            <span
              className={cn(
                'shrink-0 rounded-[0.06rem] px-[0.08rem] py-[0.02rem] text-[0.2rem]',
                theme.state[h.state],
              )}
            >
              {h.stateName}
            </span>
          </div>
          <p className={cn('mb-[0.06rem] truncate text-[0.2rem]', theme.muted)}>
            {h.subjectName} · {h.classNames}
          </p>
          <div className="flex flex-col gap-[0.04rem]">
            <Bar theme={theme} label={tb.marking.scan} rate={h.scanRate} color="bg-sky-500" />
            <Bar theme={theme} label={tb.marking.mark} rate={h.markingRate} color="bg-emerald-500" />
          </div>
        </li>
      ))}
    </ul>
  );
}

function ClassTable({ theme, rows }: { theme: Theme; rows: BigData['classes'] }) {
  const col = tb.classes.col;
  return (
    <table className="mt-[0.16rem] w-full text-[0.24rem]">
      <thead className={theme.muted}>
        <tr className="text-left">
          <th className="py-[0.06rem] font-normal">{col.rank}</th>
          <th className="py-[0.06rem] font-normal">{col.className}</th>
          <th className="py-[0.06rem] text-right font-normal">{col.homework}</th>
          <th className="py-[0.06rem] text-right font-normal">{col.scoreRate}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c, i) => (
          <tr key={c.classId} className="border-t border-slate-500/20">
            <td className="py-[0.06rem] tabular-nums">{i + 1}</td>
            <td className={cn('py-[0.06rem]', theme.strong)}>{c.className}</td>
            <td className="py-[0.06rem] text-right tabular-nums">{c.homeworkCount}</td>
            <td className="py-[0.06rem] text-right tabular-nums">{tb.pct(c.scoreRate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Header({
  variant,
  theme,
  data,
  now,
  timeZone,
}: {
  variant: BigDataVariant;
  theme: Theme;
  data: BigData | undefined;
  now: Date;
  timeZone: string;
}) {
  const display = variant === 'display';
  const school = data?.school.name ?? '';
  const linkClass = cn('rounded-[0.1rem] border px-[0.2rem] py-[0.08rem] text-[0.24rem]', theme.link);
  const [full, setFull] = useState(false);
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  return (
    <header className="flex flex-wrap items-end justify-between gap-[0.2rem]">
      <div className="min-w-0">
        <h1 className={cn('text-[0.5rem] leading-tight font-bold', theme.strong)}>
          {display ? tb.display.title(school) : tb.overview.title(school)}
        </h1>
        <p className={cn('mt-[0.06rem] text-[0.24rem]', theme.muted)}>
          {data ? tb.year(data.schoolYearName) : tb.loading}
          {data && (
            <>
              {' · '}
              {tb.updatedAt(timeOf(new Date(data.generatedAt), timeZone), data.refreshSeconds)}
            </>
          )}
        </p>
        {!display && <p className={cn('mt-[0.04rem] text-[0.24rem]', theme.muted)}>{tb.overview.lead}</p>}
      </div>
      <div className="flex flex-wrap items-center gap-[0.14rem]">
        {display && (
          <p className="mr-[0.1rem] text-right text-[0.22rem] leading-tight" aria-live="off">
            <span
              className={cn('block text-[0.46rem] leading-none font-semibold tabular-nums', theme.strong)}
            >
              {timeOf(now, timeZone)}
            </span>
            <span className={theme.muted}>{dateOf(now, timeZone)}</span>
          </p>
        )}
        {display ? (
          <>
            {document.fullscreenEnabled && (
              <button
                type="button"
                className={linkClass}
                onClick={() =>
                  void (full ? document.exitFullscreen() : document.documentElement.requestFullscreen())
                }
              >
                {full ? tb.display.exitFullscreen : tb.display.fullscreen}
              </button>
            )}
            <Link to={paths.bigData} className={linkClass}>
              {tb.display.back}
            </Link>
          </>
        ) : (
          <>
            <Link to={paths.largescreen} className={linkClass}>
              {tb.overview.toLargescreen}
            </Link>
            <Link to={paths.analysis.grade} className={linkClass}>
              {tb.overview.toAnalysis}
            </Link>
            <Link to={paths.paperlist} className={linkClass}>
              {tb.overview.back}
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

/** The school's data overview (`overview`, /bigData) or its wall display (`display`, /largescreen). */
export function BigDataScreen({ variant }: { variant: BigDataVariant }) {
  useRemLayout();
  const rem = useRemPixels();
  const display = variant === 'display';
  const theme = THEMES[variant];
  const now = useNow(display);
  const bigData = useBigData();
  const { data, isLoading, mutate } = bigData;
  const { timeZone } = useSchoolToday(data?.school.id ?? null);
  const error = bigData.error as unknown;
  const look: ScreenLook = useMemo(() => ({ dark: display, font: Math.round(rem * 0.24) }), [display, rem]);
  const options = useMemo(
    () =>
      data && {
        trend: trendOption(data.scoreTrend, look),
        subjects: subjectsOption(data.subjects, look),
        classes: classesOption(data.classes, look),
        bands: bandsOption(data.bands, look),
      },
    [data, look],
  );
  const chartHeight = display ? '3rem' : '5rem';
  // On the wall display the cards share one screen's height; on the overview they keep their content's.
  const fill = display ? 'flex-1 lg:min-h-0' : 'flex-1';

  let body: ReactNode;
  if (!data || !options) {
    body = (
      <div
        role={error ? 'alert' : 'status'}
        className={cn('rounded-[0.14rem] border p-[0.6rem] text-center text-[0.28rem]', theme.card)}
      >
        {error && !isLoading ? (
          <>
            <p className={theme.strong}>{tb.failed}</p>
            <button
              type="button"
              onClick={() => void mutate()}
              className={cn('mt-[0.2rem] rounded-[0.1rem] border px-[0.24rem] py-[0.08rem]', theme.link)}
            >
              {tb.retry}
            </button>
          </>
        ) : (
          <p className={theme.muted}>{tb.loading}</p>
        )}
      </div>
    );
  } else {
    const t = data.totals;
    const d = data.today;
    const hasScores = t.sheets > 0;
    const totals: FigureSpec[] = [
      { label: tb.totals.students, value: String(t.students), unit: tb.units.people, accent: 'sky' },
      { label: tb.totals.classes, value: String(t.classes), unit: tb.units.classes, accent: 'sky' },
      { label: tb.totals.teachers, value: String(t.teachers), unit: tb.units.people, accent: 'sky' },
      { label: tb.totals.homework, value: String(t.homework), unit: tb.units.homework, accent: 'violet' },
      { label: tb.totals.sheets, value: String(t.sheets), unit: tb.units.sheets, accent: 'violet' },
      { label: tb.totals.scoreRate, value: hasScores ? tb.pct(t.scoreRate) : '—', accent: 'emerald' },
    ];
    const today: FigureSpec[] = [
      { label: tb.today.active, value: String(d.active), unit: tb.units.homework, accent: 'amber' },
      { label: tb.today.published, value: String(d.published), unit: tb.units.homework, accent: 'amber' },
      { label: tb.today.sheets, value: String(d.sheets), unit: tb.units.sheets, accent: 'amber' },
      {
        label: tb.today.answersScored,
        value: String(d.answersScored),
        unit: tb.units.answers,
        accent: 'amber',
      },
      { label: tb.today.completed, value: String(d.completed), unit: tb.units.homework, accent: 'emerald' },
    ];
    /** A chart in its card (`empty`, the reason there is nothing to draw, replaces it), then `extra`. */
    const chartCard = (
      title: string,
      empty: string | null,
      option: ChartOption,
      label: string,
      extra?: ReactNode,
    ) => (
      <Card theme={theme} title={title} className={fill}>
        <ChartOrEmpty
          theme={theme}
          dark={display}
          empty={empty}
          option={option}
          label={label}
          height={chartHeight}
        />
        {extra}
      </Card>
    );
    body = (
      <>
        <dl
          className="grid grid-cols-2 gap-[0.2rem] sm:grid-cols-3 lg:grid-cols-6"
          aria-label={tb.totals.title}
        >
          <Figures theme={theme} items={totals} />
        </dl>
        <Card theme={theme} title={tb.today.title(d.date)}>
          <dl className="grid grid-cols-2 gap-[0.2rem] sm:grid-cols-3 lg:grid-cols-5">
            <Figures theme={theme} items={today} />
          </dl>
        </Card>
        <div className="grid min-h-0 flex-1 gap-[0.2rem] lg:grid-cols-3">
          <div className="flex min-w-0 flex-col gap-[0.2rem]">
            {chartCard(
              tb.trend.title,
              data.scoreTrend.length === 0 ? tb.trend.empty : null,
              options.trend,
              tb.trend.label,
            )}
            {chartCard(tb.bands.title, hasScores ? null : tb.bands.empty, options.bands, tb.bands.label)}
          </div>
          <Card
            theme={theme}
            title={tb.marking.title}
            className={display ? 'lg:min-h-0 lg:overflow-hidden' : undefined}
          >
            <MarkingList theme={theme} rows={data.marking} />
          </Card>
          <div className="flex min-w-0 flex-col gap-[0.2rem]">
            {chartCard(
              tb.subjects.title,
              data.subjects.length === 0 ? tb.subjects.empty : null,
              options.subjects,
              tb.subjects.label,
            )}
            {chartCard(
              tb.classes.title,
              data.classes.length === 0 ? tb.classes.empty : null,
              options.classes,
              tb.classes.label,
              !display && data.classes.length > 0 && <ClassTable theme={theme} rows={data.classes} />,
            )}
          </div>
        </div>
      </>
    );
  }

  return (
    <div className={theme.page} data-variant={variant}>
      <div className="mx-auto flex h-full max-w-[40rem] flex-col gap-[0.2rem] p-[0.3rem]">
        <Header variant={variant} theme={theme} data={data} now={now} timeZone={timeZone} />
        {body}
      </div>
    </div>
  );
}
