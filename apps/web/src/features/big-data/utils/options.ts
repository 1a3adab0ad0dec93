import type { BigData } from '@zhzy/contracts';
import { pct, type ChartOption } from '../../../components/charts/option';
import { zhBigData as tb } from '../../../i18n/big-data';

// ECharts options of /bigData and /largescreen, built from the bigData answer (pure: tested without a canvas).
// Rates arrive as 0–1 fractions and are drawn as percentages with one decimal; `font` is the label size in pixels,
// derived from the rem layout so the large screen's labels grow with it.

export interface ScreenLook {
  /** The large screen's dark theme. */
  dark: boolean;
  /** Axis and label font size, pixels. */
  font: number;
}

const axisColor = (look: ScreenLook) => (look.dark ? '#cbd5e1' : '#475569');
const splitColor = (look: ScreenLook) => (look.dark ? 'rgba(148,163,184,0.2)' : '#e2e8f0');

function base(look: ScreenLook) {
  const label = { color: axisColor(look), fontSize: look.font };
  return {
    label,
    grid: {
      left: look.font,
      right: look.font * 1.5,
      top: look.font * 2.5,
      bottom: look.font,
      containLabel: true,
    },
    percentAxis: {
      type: 'value',
      min: 0,
      max: 100,
      axisLabel: { ...label, formatter: '{value}%' },
      splitLine: { lineStyle: { color: splitColor(look) } },
    },
    tooltip: { textStyle: { fontSize: look.font } },
  };
}

/** Daily mean score rate (line) with the day's scored sheets (bars, second axis). */
export function trendOption(trend: BigData['scoreTrend'], look: ScreenLook): ChartOption {
  const b = base(look);
  return {
    tooltip: { ...b.tooltip, trigger: 'axis' },
    legend: { top: 0, textStyle: b.label },
    grid: b.grid,
    xAxis: { type: 'category', data: trend.map((d) => d.date.slice(5)), axisLabel: b.label },
    yAxis: [
      { ...b.percentAxis, name: '' },
      {
        type: 'value',
        minInterval: 1,
        axisLabel: b.label,
        splitLine: { show: false },
      },
    ],
    series: [
      {
        name: tb.trend.series,
        type: 'line',
        smooth: true,
        symbolSize: look.font * 0.6,
        data: trend.map((d) => pct(d.scoreRate)),
        label: { show: trend.length <= 12, position: 'top', formatter: '{c}%', ...b.label },
        areaStyle: { opacity: 0.15 },
        z: 3,
      },
      {
        name: tb.trend.sheets,
        type: 'bar',
        yAxisIndex: 1,
        barMaxWidth: look.font * 1.2,
        itemStyle: { color: look.dark ? 'rgba(148,163,184,0.3)' : '#e2e8f0' },
        data: trend.map((d) => d.sheets),
      },
    ],
  };
}

/** Mean score rate per subject, bars labelled with the rate. */
export function subjectsOption(subjects: BigData['subjects'], look: ScreenLook): ChartOption {
  const b = base(look);
  return {
    tooltip: { ...b.tooltip, trigger: 'axis', valueFormatter: (v: unknown) => `${String(v)}%` },
    grid: b.grid,
    xAxis: {
      type: 'category',
      data: subjects.map((s) => s.subjectName),
      axisLabel: { ...b.label, interval: 0 },
    },
    yAxis: b.percentAxis,
    series: [
      {
        name: tb.subjects.series,
        type: 'bar',
        barMaxWidth: look.font * 3,
        data: subjects.map((s) => pct(s.scoreRate)),
        label: { show: true, position: 'top', formatter: '{c}%', ...b.label },
      },
    ],
  };
}

/** Classes by mean score rate, highest on top (horizontal bars). */
export function classesOption(classes: BigData['classes'], look: ScreenLook): ChartOption {
  const b = base(look);
  // ECharts draws a category axis from the bottom up: reverse so the best class is at the top.
  const rows = [...classes].reverse();
  return {
    tooltip: { ...b.tooltip, trigger: 'axis', valueFormatter: (v: unknown) => `${String(v)}%` },
    grid: { ...b.grid, top: look.font, right: look.font * 4 },
    xAxis: b.percentAxis,
    yAxis: { type: 'category', data: rows.map((c) => c.className), axisLabel: b.label },
    series: [
      {
        name: tb.classes.series,
        type: 'bar',
        barMaxWidth: look.font * 1.6,
        data: rows.map((c) => pct(c.scoreRate)),
        label: { show: true, position: 'right', formatter: '{c}%', ...b.label },
        itemStyle: { color: '#10b981' },
      },
    ],
  };
}

/** Scored sheets per score band. */
export function bandsOption(bands: BigData['bands'], look: ScreenLook): ChartOption {
  const b = base(look);
  return {
    tooltip: { ...b.tooltip, trigger: 'axis' },
    grid: b.grid,
    xAxis: {
      type: 'category',
      data: bands.map((x) => x.label),
      axisLabel: { ...b.label, interval: 0, rotate: 30 },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: b.label,
      splitLine: { lineStyle: { color: splitColor(look) } },
    },
    series: [
      {
        name: tb.bands.series,
        type: 'bar',
        barMaxWidth: look.font * 2.4,
        data: bands.map((x) => x.count),
        label: { show: true, position: 'top', ...b.label },
        itemStyle: { color: '#f59e0b' },
      },
    ],
  };
}
