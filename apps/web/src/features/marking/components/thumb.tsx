import { useEffect, useState } from 'react';
import { loadCrop } from '../api/marking';

/** A crop fetched with the bearer header and shown small (grouped marking, 回评). */
export function Thumb({ url, alt = '', className }: { url: string; alt?: string; className?: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    loadCrop(url)
      .then((u) => {
        made = u;
        if (live) setSrc(u);
        else URL.revokeObjectURL(u);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return src ? (
    <img src={src} alt={alt} className={className ?? 'block w-full'} />
  ) : (
    <div className="h-16 w-full rounded bg-slate-100" />
  );
}
