import { useEffect, useRef, useState } from 'react';
import { zhReportKit as tk } from '../../i18n/report-kit';
import { cn } from '../../lib/utils';
import type * as EChartsCore from './echarts-core';
import { CHART_COLORS, type ChartOption } from './option';

type Core = typeof EChartsCore;
type Instance = ReturnType<Core['echarts']['init']>;

let core: Promise<Core> | null = null;
/** ECharts, loaded the first time a chart is drawn (its own chunk). */
export const loadECharts = (): Promise<Core> => (core ??= import('./echarts-core'));

/**
 * A chart drawn with ECharts on a canvas: loads ECharts on first use, follows its box's size, redraws when the
 * option changes, and carries `label` for screen readers (the figures are also in the table next to every chart).
 * Drawn at twice the pixel density at least, so a printed report stays sharp.
 */
export function Chart({
  option,
  label,
  height = 320,
  className,
  dark = false,
}: {
  option: ChartOption;
  label: string;
  height?: number | string;
  className?: string;
  /** The large screens' dark theme. */
  dark?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<Instance | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let alive = true;
    let observer: ResizeObserver | null = null;
    loadECharts()
      .then(({ echarts }) => {
        if (!alive || !box.current) return;
        chart.current = echarts.init(box.current, dark ? 'dark' : undefined, {
          renderer: 'canvas',
          devicePixelRatio: Math.max(2, window.devicePixelRatio || 1),
        });
        setState('ready');
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => chart.current?.resize());
          observer.observe(box.current);
        }
      })
      .catch(() => {
        if (alive) setState('failed');
      });
    return () => {
      alive = false;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [dark]);

  useEffect(() => {
    if (state !== 'ready' || !chart.current) return;
    try {
      chart.current.setOption(
        {
          color: CHART_COLORS,
          backgroundColor: 'transparent',
          textStyle: { fontFamily: 'inherit' },
          aria: { enabled: true },
          animationDuration: 400,
          ...option,
        },
        { notMerge: true },
      );
    } catch {
      setState('failed');
    }
  }, [option, state]);

  return (
    <div className={cn('relative w-full', className)} style={{ height }}>
      <div ref={box} role="img" aria-label={label} className="absolute inset-0" />
      {state !== 'ready' && (
        <p
          className={cn(
            'absolute inset-0 flex items-center justify-center text-sm',
            dark ? 'text-slate-500' : 'text-slate-500',
          )}
        >
          {state === 'loading' ? tk.chart.loading : tk.chart.failed}
        </p>
      )}
    </div>
  );
}
