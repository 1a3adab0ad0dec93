import { useEffect, useState } from 'react';
import { Skeleton } from './ui/skeleton';

/** A QR code image of `value`, drawn by the `qrcode` package loaded on first use. */
export function QrCode({ value, size = 144, alt }: { value: string; size?: number; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qr) => qr.toDataURL(value, { width: size * 2, margin: 1, errorCorrectionLevel: 'M' }))
      .then((url) => {
        if (live) setSrc(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [value, size]);
  if (!src) return <Skeleton className="rounded-none" />;
  return <img src={src} alt={alt} width={size} height={size} className="block" />;
}
