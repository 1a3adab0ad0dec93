import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ChevronLeftIcon } from '../../../components/icons';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';

/** The printed page: its CSS size (`A4 portrait`, `210mm 297mm`) and margins. */
export interface PageSpec {
  size: string;
  margin: string;
}

/** Calls the browser's print dialog (a seam for tests). */
export const browserPrint = { run: () => window.print() };

/**
 * Print rules of a print page: `@page` for its paper, and everything that is screen furniture (the app's side bar,
 * this page's toolbar, the sheet's shadow and screen zoom) left out of the print.
 */
export function PageStyle({ page }: { page: PageSpec }) {
  const css = `
@page { size: ${page.size}; margin: ${page.margin}; }
@media print {
  html, body { background: #fff !important; }
  #root > div { padding-bottom: 0 !important; min-height: 0 !important; background: #fff !important; }
  #main { padding: 0 !important; }
  [data-testid="side-bar"], [data-print="hide"] { display: none !important; }
  .print-fit { zoom: 1 !important; }
  .print-sheet { box-shadow: none !important; margin: 0 !important; border: 0 !important; }
  .print-area { padding: 0 !important; background: #fff !important; overflow: visible !important; }
}`;
  return <style data-testid="page-style">{css}</style>;
}

/**
 * Scales its content down on narrow screens so a page of real size fits the window (CSS zoom keeps layout and text
 * crisp); printing resets the zoom to 100 %.
 */
export function FitWidth({ widthPx, children }: { widthPx: number; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  useLayoutEffect(() => {
    const el = outer.current;
    if (!el) return;
    const measure = () => {
      const available = el.clientWidth;
      setZoom(available > 0 ? Math.min(1, available / widthPx) : 1);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [widthPx]);
  return (
    <div ref={outer} className="w-full">
      <div className="print-fit mx-auto" style={{ width: widthPx, zoom }}>
        {children}
      </div>
    </div>
  );
}

/**
 * The frame of every print page (SPEC §2: no top nav): a toolbar with the way back, the options and 打印 — none of
 * which prints — then the sheets.
 */
export function PrintFrame({
  title,
  subtitle,
  page,
  options,
  actions,
  children,
  canPrint = true,
  back,
}: {
  title: string;
  subtitle?: ReactNode;
  page: PageSpec;
  options?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  canPrint?: boolean;
  back?: { to: string; label: string };
}) {
  return (
    <div className="min-h-screen bg-slate-100 print:bg-white">
      <PageStyle page={page} />
      <header data-print="hide" className="border-b border-slate-200 bg-white print:hidden">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <Link
            to={back?.to ?? paths.paperlist}
            className="inline-flex items-center gap-1 text-sm text-blue-600 hover:underline"
          >
            <ChevronLeftIcon className="size-4" />
            {back?.label ?? tp.backToList}
          </Link>
          <div className="min-w-0 flex-1">
            <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
            {subtitle && <p className="text-sm text-slate-500">{subtitle}</p>}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {actions}
            <Button onClick={() => browserPrint.run()} disabled={!canPrint}>
              {tp.print}
            </Button>
          </div>
        </div>
        {options && (
          <div className="mx-auto flex max-w-6xl flex-wrap items-end gap-x-5 gap-y-3 px-4 pb-3 text-sm">
            {options}
          </div>
        )}
      </header>
      <div className={cn('print-area px-3 py-5 sm:px-6')}>{children}</div>
    </div>
  );
}

/** A note on the screen above the sheets (never printed). */
export function ScreenNote({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'warn' }) {
  return (
    <div
      data-print="hide"
      className={cn(
        'mx-auto mb-4 max-w-4xl rounded-lg px-4 py-3 text-sm leading-6 print:hidden',
        tone === 'warn'
          ? 'bg-amber-50 text-amber-900 ring-1 ring-amber-200'
          : 'bg-blue-50 text-blue-900 ring-1 ring-blue-100',
      )}
    >
      {children}
    </div>
  );
}
