import type { ClassScoreBand, ClassStats, DifficultyBand, OptionStat, QuestionStats } from '@zhzy/contracts';
import { pct, type ChartOption } from '../../../components/charts/option';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';

// ECharts options of the analysis screens, built from the contracts' answers (pure: tested without a canvas).
// Rates arrive as 0–1 fractions and are drawn as percentages with one decimal.

const c = ta.charts;
const GRID = { left: 48, right: 24, top: 40, bottom: 40, containLabel: true };
const AXIS_LABEL = { color: '#475569' };
const SPLIT = { lineStyle: { color: '#e2e8f0' } };

/** Bar colours of 难度 bands: easy green, medium blue, hard red. */
export const DIFFICULTY_COLORS: Record<DifficultyBand, string> = {
  easy: '#10b981',
  medium: '#2563eb',
  hard: '#f43f5e',
};

const percentAxis = (name?: string) => ({
  type: 'value',
  min: 0,
  max: 100,
  ...(name ? { name } : {}),
  axisLabel: { ...AXIS_LABEL, formatter: '{value}%' },
  splitLine: SPLIT,
});

/** Students per score band; with `compare`, the scope's share next to the grade's share. */
export function bandsOption(bands: ClassScoreBand[], compare: boolean): ChartOption {
  const labels = bands.map((b) => b.label);
  if (!compare) {
    return {
      tooltip: { trigger: 'axis' },
      grid: GRID,
      xAxis: { type: 'category', data: labels, axisLabel: { ...AXIS_LABEL, interval: 0, rotate: 30 } },
      yAxis: { type: 'value', name: c.axis.people, minInterval: 1, axisLabel: AXIS_LABEL, splitLine: SPLIT },
      series: [
        {
          name: c.series.count,
          type: 'bar',
          data: bands.map((b) => b.count),
          barMaxWidth: 36,
          label: { show: true, position: 'top' },
        },
      ],
    };
  }
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${String(v)}%` },
    legend: { top: 0 },
    grid: GRID,
    xAxis: { type: 'category', data: labels, axisLabel: { ...AXIS_LABEL, interval: 0, rotate: 30 } },
    yAxis: percentAxis(),
    series: [
      { name: c.series.thisClass, type: 'bar', data: bands.map((b) => pct(b.rate)), barMaxWidth: 28 },
      { name: c.series.grade, type: 'bar', data: bands.map((b) => pct(b.gradeRate)), barMaxWidth: 28 },
    ],
  };
}

/** Every class's mean (bars) with the grade mean as a line, and pass / excellent rates on a second axis. */
export function classCompareOption(
  classes: ClassStats[],
  gradeAverage: number,
  highlight?: string,
): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { ...GRID, right: 48 },
    xAxis: {
      type: 'category',
      data: classes.map((k) => k.className),
      axisLabel: { ...AXIS_LABEL, interval: 0 },
    },
    yAxis: [
      { type: 'value', name: c.axis.score, axisLabel: AXIS_LABEL, splitLine: SPLIT },
      { ...percentAxis(), splitLine: { show: false } },
    ],
    series: [
      {
        name: c.series.average,
        type: 'bar',
        barMaxWidth: 36,
        // A class with nobody scored yet draws nothing (not a zero).
        data: classes.map((k) => ({
          value: k.stats.scoredCount > 0 ? Math.round(k.stats.average * 10) / 10 : null,
          ...(highlight && k.classId === highlight ? { itemStyle: { color: '#f59e0b' } } : {}),
        })),
        label: { show: true, position: 'top' },
        markLine: {
          symbol: 'none',
          data: [{ yAxis: Math.round(gradeAverage * 10) / 10, name: c.series.gradeAverage }],
          // Inside the plot, so it never runs over the right-hand axis.
          label: { formatter: `${c.series.gradeAverage} {c}`, position: 'insideEndTop' },
          lineStyle: { type: 'dashed', color: '#64748b' },
        },
      },
      {
        name: c.series.passRate,
        type: 'line',
        yAxisIndex: 1,
        data: classes.map((k) => (k.stats.scoredCount > 0 ? pct(k.stats.passRate) : null)),
      },
      {
        name: c.series.excellentRate,
        type: 'line',
        yAxisIndex: 1,
        data: classes.map((k) => (k.stats.scoredCount > 0 ? pct(k.stats.excellentRate) : null)),
      },
    ],
  };
}

/** Score rate per question, coloured by 难度; with `gradeRates`, the grade's rate beside it. */
export function questionRatesOption(
  questions: Pick<QuestionStats, 'no' | 'scoreRate' | 'difficulty'>[],
  gradeRates?: number[],
): ChartOption {
  const cats = questions.map((q) => q.no);
  const series: unknown[] = [
    {
      name: gradeRates ? c.series.thisClass : c.series.rate,
      type: 'bar',
      barMaxWidth: 24,
      data: questions.map((q) => ({
        value: pct(q.scoreRate),
        itemStyle: gradeRates ? undefined : { color: DIFFICULTY_COLORS[q.difficulty] },
      })),
    },
  ];
  if (gradeRates) {
    series.push({ name: c.series.grade, type: 'bar', barMaxWidth: 24, data: gradeRates.map((r) => pct(r)) });
  }
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${String(v)}%` },
    ...(gradeRates ? { legend: { top: 0 } } : {}),
    grid: GRID,
    xAxis: {
      type: 'category',
      data: cats,
      name: ta.tables.col.no,
      axisLabel: { ...AXIS_LABEL, interval: 0 },
    },
    yAxis: percentAxis(c.axis.scoreRate),
    series,
  };
}

/** 难度 (x) against 区分度 (y) per question: the lower right is easy and discriminating, the bottom needs review. */
export function scatterOption(questions: QuestionStats[]): ChartOption {
  const points = questions
    .filter((q) => q.discrimination !== null)
    .map((q) => ({
      name: c.question(q.no),
      value: [pct(q.scoreRate), Math.round((q.discrimination ?? 0) * 100) / 100],
      itemStyle: { color: DIFFICULTY_COLORS[q.difficulty] },
    }));
  return {
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value: [number, number] }) =>
        `${p.name}<br/>${c.series.rate} ${p.value[0]}%<br/>${c.series.discrimination} ${p.value[1]}`,
    },
    grid: GRID,
    xAxis: { ...percentAxis(c.axis.scoreRate), nameLocation: 'middle', nameGap: 28 },
    yAxis: {
      type: 'value',
      min: -0.2,
      max: 1,
      name: c.axis.discrimination,
      axisLabel: AXIS_LABEL,
      splitLine: SPLIT,
    },
    series: [
      {
        type: 'scatter',
        symbolSize: 14,
        data: points,
        label: { show: true, formatter: (p: { name: string }) => p.name, position: 'top', fontSize: 10 },
        markLine: {
          symbol: 'none',
          lineStyle: { type: 'dashed', color: '#94a3b8' },
          data: [{ yAxis: 0.4 }, { yAxis: 0.2 }],
        },
      },
    ],
  };
}

/** Score rate per knowledge point (horizontal bars), the grade's beside it when it differs. */
export function knowledgeOption(
  points: { name: string; scoreRate: number; gradeScoreRate: number }[],
  compareLabel?: string,
): ChartOption {
  const names = points.map((p) => p.name);
  const series: unknown[] = [
    {
      name: compareLabel ?? c.series.rate,
      type: 'bar',
      barMaxWidth: 16,
      data: points.map((p) => pct(p.scoreRate)),
    },
  ];
  if (compareLabel) {
    series.push({
      name: c.series.grade,
      type: 'bar',
      barMaxWidth: 16,
      data: points.map((p) => pct(p.gradeScoreRate)),
    });
  }
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${String(v)}%` },
    ...(compareLabel ? { legend: { top: 0 } } : {}),
    grid: { ...GRID, left: 8 },
    yAxis: {
      type: 'category',
      data: names,
      inverse: true,
      axisLabel: { ...AXIS_LABEL, width: 140, overflow: 'truncate' },
    },
    xAxis: percentAxis(),
    series,
  };
}

/**
 * Lines over homework (oldest first); values already in the unit of the axis (percent or points). A homework still
 * being marked (`pending[i]`) is no value of any line: its figures are not final, so the lines skip it and a
 * hollow 「阅卷中」 point marks it (level with the first line's nearest final value: partial figures are not shown)
 * — never a collapse to 0 (issue #22 point 7, ADR 0049).
 */
export function trendOption(
  categories: string[],
  series: { name: string; data: (number | null)[]; dashed?: boolean; pending?: boolean[] }[],
  percent: boolean,
  pending: boolean[] = [],
): ChartOption {
  const isPending = (s: { pending?: boolean[] }, i: number) => pending[i] === true || s.pending?.[i] === true;
  // Where the hollow point sits: level with the first line's nearest final value (before it, else after it), so an
  // unfinished homework never reads as a fall; on the axis's middle when no homework is final yet.
  const first = series[0]?.data ?? [];
  const level = (i: number): number => {
    const final = (j: number) => !pending[j] && first[j] !== null && first[j] !== undefined;
    for (let j = i - 1; j >= 0; j--) if (final(j)) return first[j]!;
    for (let j = i + 1; j < first.length; j++) if (final(j)) return first[j]!;
    return percent ? 50 : 0;
  };
  const hollow = categories.flatMap((_, i) =>
    pending[i] ? [{ value: [i, level(i)], label: c.series.marking }] : [],
  );
  const lines = series.map((s) => ({
    name: s.name,
    type: 'line',
    smooth: true,
    connectNulls: true,
    symbolSize: 8,
    data: s.data.map((v, i) => (isPending(s, i) ? null : v)),
    ...(s.dashed ? { lineStyle: { type: 'dashed' } } : {}),
  }));
  return {
    tooltip: { trigger: 'axis', ...(percent ? { valueFormatter: (v: unknown) => `${String(v)}%` } : {}) },
    legend: { top: 0, type: 'scroll' },
    grid: { ...GRID, top: 48 },
    xAxis: {
      type: 'category',
      data: categories,
      axisLabel: {
        ...AXIS_LABEL,
        interval: 0,
        rotate: categories.length > 6 ? 30 : 0,
        width: 96,
        overflow: 'truncate',
      },
    },
    yAxis: percent
      ? percentAxis()
      : { type: 'value', name: c.axis.score, axisLabel: AXIS_LABEL, splitLine: SPLIT },
    series: [
      ...lines,
      ...(hollow.length > 0
        ? [
            {
              name: c.series.marking,
              type: 'scatter',
              symbol: 'emptyCircle',
              symbolSize: 12,
              itemStyle: { color: '#94a3b8', borderWidth: 2 },
              data: hollow.map((h) => h.value),
              label: { show: true, position: 'top', formatter: c.series.marking, color: '#64748b' },
              tooltip: { valueFormatter: () => c.series.marking },
            },
          ]
        : []),
    ],
  };
}

/** How many students chose each option; the correct options in green. */
export function optionsOption(options: OptionStat[]): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { ...GRID, top: 24 },
    xAxis: { type: 'category', data: options.map((o) => o.option), axisLabel: AXIS_LABEL },
    yAxis: { type: 'value', minInterval: 1, name: c.axis.people, axisLabel: AXIS_LABEL, splitLine: SPLIT },
    series: [
      {
        name: c.series.count,
        type: 'bar',
        barMaxWidth: 32,
        data: options.map((o) => ({
          value: o.count,
          itemStyle: { color: o.correct ? '#10b981' : '#f43f5e' },
        })),
        label: {
          show: true,
          position: 'top',
          formatter: (p: { dataIndex: number }) => fmt.pct(options[p.dataIndex]?.rate ?? 0, 0),
        },
      },
    ],
  };
}

/** Students per score of a written question. */
export function scoreDistributionOption(dist: { score: number; count: number }[]): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { ...GRID, top: 24 },
    xAxis: {
      type: 'category',
      data: dist.map((d) => String(d.score)),
      name: c.axis.score,
      axisLabel: AXIS_LABEL,
    },
    yAxis: { type: 'value', minInterval: 1, name: c.axis.people, axisLabel: AXIS_LABEL, splitLine: SPLIT },
    series: [{ name: c.series.count, type: 'bar', barMaxWidth: 28, data: dist.map((d) => d.count) }],
  };
}
