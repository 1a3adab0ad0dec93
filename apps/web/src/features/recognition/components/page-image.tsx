import { useEffect, useState } from 'react';
import type { SheetReview } from '@zhzy/contracts';
import { Skeleton } from '../../../components/ui/skeleton';
import { fetchPageImage } from '../api/recognition';

type Overlay = SheetReview['pages'][number]['overlay'];

const STROKES: Record<string, string> = {
  filled: '#16a34a',
  uncertain: '#f97316',
  crop: '#2563eb',
};

/** The scanned page with what was read where: filled bubbles green, uncertain orange, written-answer crops blue. */
export function PageImage({
  pageId,
  width,
  height,
  overlay = [],
  alt,
  className,
}: {
  pageId: string;
  width: number;
  height: number;
  overlay?: Overlay;
  alt: string;
  className?: string;
}) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    let made: string | null = null;
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
  const shapes = overlay.filter((o) => o.kind === 'crop' || o.state === 'filled' || o.state === 'uncertain');
  return (
    <div className={className} style={{ aspectRatio: `${width} / ${height}` }}>
      {url ? (
        <div className="relative size-full">
          <img
            src={url}
            alt={alt}
            className="size-full rounded border border-slate-200 bg-white object-contain"
          />
          <svg
            viewBox={`0 0 ${width} ${height}`}
            className="pointer-events-none absolute inset-0 size-full"
            aria-hidden="true"
            data-testid="overlay"
          >
            {shapes.map((s, i) => (
              <polygon
                key={i}
                points={s.quad.map((p) => `${p.x},${p.y}`).join(' ')}
                fill={s.kind === 'crop' ? 'none' : `${STROKES[s.state ?? 'filled']}33`}
                stroke={STROKES[s.kind === 'crop' ? 'crop' : (s.state ?? 'filled')]}
                strokeWidth={Math.max(2, width / 600)}
              />
            ))}
          </svg>
        </div>
      ) : (
        <Skeleton className="size-full" />
      )}
    </div>
  );
}
