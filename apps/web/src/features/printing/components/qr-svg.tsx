import { useMemo, type CSSProperties } from 'react';
import QRCode from 'qrcode';

/** A QR code as one SVG path in a `size`-unit square (crisp at any print size, unlike a raster image). */
export function QrSvg({
  value,
  className,
  title,
  style,
}: {
  value: string;
  className?: string;
  title?: string;
  style?: CSSProperties;
}) {
  const { d, n } = useMemo(() => {
    const qr = QRCode.create(value, { errorCorrectionLevel: 'M' });
    const size = qr.modules.size;
    let path = '';
    for (let row = 0; row < size; row++) {
      let col = 0;
      while (col < size) {
        if (!qr.modules.data[row * size + col]) {
          col++;
          continue;
        }
        const start = col;
        while (col < size && qr.modules.data[row * size + col]) col++;
        path += `M${start} ${row}h${col - start}v1h${start - col}z`;
      }
    }
    return { d: path, n: size };
  }, [value]);
  return (
    <svg
      viewBox={`-1 -1 ${n + 2} ${n + 2}`}
      className={className}
      style={style}
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      shapeRendering="crispEdges"
    >
      <rect x={-1} y={-1} width={n + 2} height={n + 2} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
