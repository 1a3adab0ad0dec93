import { useEffect, useState } from 'react';
import { t } from '../../i18n/zh-CN';
import { fetchCrop } from '../../lib/crops';
import { cn } from '../../lib/utils';

/** An answer's crop, fetched with the session's token (crops are private to the school): analysis, 纸上批阅. */
export function CropImage({ url, alt, className }: { url: string | null; alt: string; className?: string }) {
  const [state, setState] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false });
  useEffect(() => {
    if (!url) return;
    const ctrl = new AbortController();
    let made: string | null = null;
    setState({ src: null, failed: false });
    fetchCrop(url, ctrl.signal)
      .then((src) => {
        made = src;
        setState({ src, failed: false });
      })
      .catch(() => {
        if (!ctrl.signal.aborted) setState({ src: null, failed: true });
      });
    return () => {
      ctrl.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  const box = cn(
    'flex min-h-20 items-center justify-center rounded-md border border-slate-200 bg-slate-50 text-xs text-slate-500',
    className,
  );
  if (!url) return <div className={box}>{t.crop.missing}</div>;
  if (state.failed) return <div className={box}>{t.crop.failed}</div>;
  if (!state.src) return <div className={box}>{t.crop.loading}</div>;
  return (
    <img
      src={state.src}
      alt={alt}
      className={cn('max-w-full rounded-md border border-slate-200 bg-white', className)}
    />
  );
}
