import type { EChartsCoreOption } from 'echarts/core';

/** An ECharts option as the report components build it (type only: importing it costs no JavaScript). */
export type ChartOption = EChartsCoreOption;

/** The report palette, from the app's Tailwind colours (blue, emerald, amber, rose, violet, cyan, slate). */
export const CHART_COLORS = ['#2563eb', '#10b981', '#f59e0b', '#f43f5e', '#8b5cf6', '#06b6d4', '#64748b'];

/** Rounds a ratio (0–1) to a percentage with one decimal: 0.8567 → 85.7. */
export const pct = (ratio: number | null | undefined): number | null =>
  ratio === null || ratio === undefined || !Number.isFinite(ratio) ? null : Math.round(ratio * 1000) / 10;
