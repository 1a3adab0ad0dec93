import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { SheetReview } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { zhCNRecognition as r } from '../../../i18n/recognition';
import { cn } from '../../../lib/utils';
import { fetchPageImage } from '../api/recognition';

type Overlay = SheetReview['pages'][number]['overlay'];
type Shape = Overlay[number];

const STROKES = { filled: '#16a34a', uncertain: '#f97316', empty: '#64748b', crop: '#2563eb' } as const;
const MIN_SCALE = 1;
const MAX_SCALE = 10;
const STEP = 1.25;

interface View {
  /** 1 = the whole page fits the frame. */
  scale: number;
  /** The page point (in page pixels) at the frame's centre. */
  cx: number;
  cy: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The box around the shapes of the questions in focus, in page pixels (null when none is on this page). */
export function focusBox(
  overlay: Overlay,
  questionIds: readonly string[],
): { x: number; y: number; w: number; h: number } | null {
  const wanted = new Set(questionIds);
  const pts = overlay
    .filter((o) => o.questionId !== undefined && wanted.has(o.questionId))
    .flatMap((o) => o.quad);
  if (pts.length === 0) return null;
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

const centre = (q: Shape['quad']) => ({
  x: q.reduce((s, p) => s + p.x, 0) / q.length,
  y: q.reduce((s, p) => s + p.y, 0) / q.length,
});

/**
 * A scanned page a teacher can look into: the wheel zooms where the pointer is, a drag pans, and the keys do both
 * (+ − zoom, arrows pan, 0 whole page). Opened on the questions in focus (an exception's), it starts enlarged on
 * their region with every bubble outlined and labelled: green read as filled, orange uncertain, grey empty.
 */
export function ZoomablePage({
  pageId,
  width: givenWidth,
  height: givenHeight,
  overlay = [],
  focus = [],
  alt,
  className,
  frameClassName = 'h-[70vh]',
}: {
  pageId: string;
  /** The page's pixel size (the overlay's coordinates); without it, the image's own size. */
  width?: number;
  height?: number;
  overlay?: Overlay;
  /** The questions to open on and outline with every option. */
  focus?: readonly string[];
  alt: string;
  className?: string;
  frameClassName?: string;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [frameSize, setFrameSize] = useState({ w: 0, h: 0 });
  const [view, setView] = useState<View | null>(null);
  const drag = useRef<{ x: number; y: number; cx: number; cy: number } | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    let made: string | null = null;
    setUrl(null);
    setView(null);
    fetchPageImage(pageId, abort.signal).then(
      (u) => {
        made = u;
        setUrl(u);
      },
      () => {},
    );
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [pageId]);

  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const measure = () => setFrameSize({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const width = givenWidth ?? natural?.w ?? 0;
  const height = givenHeight ?? natural?.h ?? 0;
  const ready = url !== null && width > 0 && height > 0 && frameSize.w > 0;
  /** Screen pixels per page pixel at scale 1 (the whole page fits). */
  const fit = ready ? Math.min(frameSize.w / width, frameSize.h / height) : 1;
  const focusKey = focus.join(',');

  // Open on the questions in focus (their region with a margin), else on the whole page.
  useEffect(() => {
    if (!ready || view) return;
    const box = focusBox(overlay, focusKey ? focusKey.split(',') : []);
    if (!box) {
      setView({ scale: 1, cx: width / 2, cy: height / 2 });
      return;
    }
    const pad = Math.max(box.w, box.h) * 0.35 + width * 0.02;
    const w = box.w + 2 * pad;
    const h = box.h + 2 * pad;
    const scale = clamp(Math.min(frameSize.w / (w * fit), frameSize.h / (h * fit)), MIN_SCALE, MAX_SCALE);
    setView({ scale, cx: box.x + box.w / 2, cy: box.y + box.h / 2 });
  }, [ready, view, overlay, focusKey, width, height, frameSize, fit]);

  /** Keeps the page inside the frame: no panning past its edges. */
  const bounded = useCallback(
    (v: View): View => {
      const px = fit * v.scale;
      const halfW = frameSize.w / 2 / px;
      const halfH = frameSize.h / 2 / px;
      const cx = width / 2 <= halfW ? width / 2 : clamp(v.cx, halfW, width - halfW);
      const cy = height / 2 <= halfH ? height / 2 : clamp(v.cy, halfH, height - halfH);
      return { scale: v.scale, cx, cy };
    },
    [fit, frameSize, width, height],
  );

  /** Zooms by `factor`, keeping the page point under (fx, fy) (frame pixels) where it is. */
  const zoom = useCallback(
    (factor: number, fx = frameSize.w / 2, fy = frameSize.h / 2) =>
      setView((v) => {
        if (!v) return v;
        const scale = clamp(v.scale * factor, MIN_SCALE, MAX_SCALE);
        const before = fit * v.scale;
        const after = fit * scale;
        const px = v.cx + (fx - frameSize.w / 2) / before;
        const py = v.cy + (fy - frameSize.h / 2) / before;
        return bounded({
          scale,
          cx: px - (fx - frameSize.w / 2) / after,
          cy: py - (fy - frameSize.h / 2) / after,
        });
      }),
    [bounded, fit, frameSize],
  );
  const pan = (dx: number, dy: number) =>
    setView((v) =>
      v ? bounded({ ...v, cx: v.cx + dx / (fit * v.scale), cy: v.cy + dy / (fit * v.scale) }) : v,
    );
  const whole = () => setView({ scale: 1, cx: width / 2, cy: height / 2 });

  // The wheel zooms the page, not the dialog: a non-passive listener so the page does not scroll.
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = el.getBoundingClientRect();
      zoom(e.deltaY < 0 ? STEP : 1 / STEP, e.clientX - rect.left, e.clientY - rect.top);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoom]);

  const onKey = (e: KeyboardEvent) => {
    const stepPx = 80;
    const keys: Record<string, () => void> = {
      '+': () => zoom(STEP),
      '=': () => zoom(STEP),
      '-': () => zoom(1 / STEP),
      _: () => zoom(1 / STEP),
      '0': whole,
      ArrowLeft: () => pan(-stepPx, 0),
      ArrowRight: () => pan(stepPx, 0),
      ArrowUp: () => pan(0, -stepPx),
      ArrowDown: () => pan(0, stepPx),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    e.stopPropagation();
    act();
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!view || e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, cx: view.cx, cy: view.cy };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || !view) return;
    const px = fit * view.scale;
    setView(
      bounded({ scale: view.scale, cx: d.cx - (e.clientX - d.x) / px, cy: d.cy - (e.clientY - d.y) / px }),
    );
  };
  const endDrag = () => {
    drag.current = null;
  };

  const wanted = new Set(focus);
  const shapes = overlay.filter(
    (o) =>
      o.kind === 'crop' ||
      o.state === 'filled' ||
      o.state === 'uncertain' ||
      (o.kind === 'bubble' && o.questionId !== undefined && wanted.has(o.questionId)),
  );
  const px = view ? fit * view.scale : fit;
  const left = view ? frameSize.w / 2 - view.cx * px : 0;
  const top = view ? frameSize.h / 2 - view.cy * px : 0;
  const stroke = Math.max(2, width / 700);

  return (
    <div className={cn('space-y-2', className)}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Button
          size="sm"
          variant="secondary"
          onClick={() => zoom(STEP)}
          disabled={!view}
          aria-label={r.zoom.in}
        >
          +
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => zoom(1 / STEP)}
          disabled={!view}
          aria-label={r.zoom.out}
        >
          −
        </Button>
        <Button size="sm" variant="ghost" onClick={whole} disabled={!view}>
          {r.zoom.whole}
        </Button>
        <span className="tabular-nums text-slate-600" data-testid="zoom-level">
          {view ? `${Math.round(view.scale * 100)}%` : ''}
        </span>
        <span className="text-xs text-slate-400">{r.zoom.hint}</span>
      </div>
      <div
        ref={frame}
        role="img"
        aria-label={alt}
        tabIndex={0}
        onKeyDown={onKey}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        className={cn(
          'relative w-full touch-none select-none overflow-hidden rounded-lg border border-slate-200 bg-slate-100 outline-none focus-visible:ring-2 focus-visible:ring-sky-400',
          view && view.scale > 1 ? 'cursor-grab active:cursor-grabbing' : '',
          frameClassName,
        )}
        data-testid="zoomable-page"
        data-scale={view ? view.scale.toFixed(2) : ''}
      >
        {!url && <Skeleton className="size-full" />}
        {url && (
          <div
            className="absolute origin-top-left"
            style={{ left, top, width: width * px || undefined, height: height * px || undefined }}
          >
            <img
              src={url}
              alt=""
              draggable={false}
              onLoad={(e) =>
                setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })
              }
              className="size-full bg-white"
            />
            {width > 0 && (
              <svg
                viewBox={`0 0 ${width} ${height}`}
                className="pointer-events-none absolute inset-0 size-full"
                aria-hidden="true"
                data-testid="overlay"
              >
                {shapes.map((s, i) => {
                  const tone = s.kind === 'crop' ? 'crop' : (s.state ?? 'empty');
                  const c = centre(s.quad);
                  const focused = s.questionId !== undefined && wanted.has(s.questionId);
                  const size = Math.abs(s.quad[2]!.y - s.quad[0]!.y) || 20;
                  return (
                    <g key={i} data-state={tone} data-focus={focused ? 'true' : undefined}>
                      <polygon
                        points={s.quad.map((p) => `${p.x},${p.y}`).join(' ')}
                        fill={s.kind === 'crop' || tone === 'empty' ? 'none' : `${STROKES[tone]}33`}
                        stroke={STROKES[tone]}
                        strokeWidth={focused ? stroke * 1.5 : stroke}
                      />
                      {focused && s.option && (
                        <text
                          x={c.x}
                          y={s.quad[0]!.y - size * 0.25}
                          textAnchor="middle"
                          fontSize={size * 0.9}
                          fontWeight={700}
                          fill={STROKES[tone]}
                        >
                          {s.option}
                        </text>
                      )}
                    </g>
                  );
                })}
              </svg>
            )}
          </div>
        )}
      </div>
      {focus.length > 0 && (
        <p className="flex flex-wrap gap-3 text-xs text-slate-500">
          <span className="flex items-center gap-1">
            <i className="inline-block size-3 rounded-sm border-2" style={{ borderColor: STROKES.filled }} />
            {r.zoom.legend.filled}
          </span>
          <span className="flex items-center gap-1">
            <i
              className="inline-block size-3 rounded-sm border-2"
              style={{ borderColor: STROKES.uncertain }}
            />
            {r.zoom.legend.uncertain}
          </span>
          <span className="flex items-center gap-1">
            <i className="inline-block size-3 rounded-sm border-2" style={{ borderColor: STROKES.empty }} />
            {r.zoom.legend.empty}
          </span>
        </p>
      )}
    </div>
  );
}
