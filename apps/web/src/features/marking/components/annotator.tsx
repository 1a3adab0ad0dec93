import { useRef, useState, type PointerEvent } from 'react';
import type { Annotation } from '@zhzy/contracts';

export type Tool = 'none' | 'check' | 'cross' | 'pen' | 'text';

/** Vector marks over a crop in 0–1 coordinates (so zoom and rotation do not change them). */
export function Annotator({
  annotations,
  onChange,
  tool,
  text,
}: {
  annotations: Annotation[];
  onChange: (next: Annotation[]) => void;
  tool: Tool;
  text: string;
}) {
  const ref = useRef<SVGSVGElement>(null);
  const [stroke, setStroke] = useState<[number, number][] | null>(null);
  const at = (e: PointerEvent): [number, number] => {
    const r = ref.current!.getBoundingClientRect();
    // The crop may be rotated: map through the inverse of the element's transform via its own box.
    const x = (e.clientX - r.left) / r.width;
    const y = (e.clientY - r.top) / r.height;
    return [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000];
  };
  const down = (e: PointerEvent) => {
    if (tool === 'none') return;
    const [x, y] = at(e);
    if (tool === 'pen') {
      ref.current!.setPointerCapture(e.pointerId);
      setStroke([[x, y]]);
    } else if (tool === 'text') {
      if (text.trim()) onChange([...annotations, { type: 'text', x, y, text: text.trim() }]);
    } else onChange([...annotations, { type: tool, x, y }]);
  };
  const move = (e: PointerEvent) => {
    if (stroke) setStroke([...stroke, at(e)]);
  };
  const up = () => {
    if (stroke && stroke.length >= 2) onChange([...annotations, { type: 'pen', points: stroke }]);
    setStroke(null);
  };
  return (
    <svg
      ref={ref}
      viewBox="0 0 1000 1000"
      preserveAspectRatio="none"
      className="absolute inset-0 h-full w-full"
      style={{ cursor: tool === 'none' ? 'default' : 'crosshair', touchAction: 'none' }}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      aria-hidden
    >
      {annotations.map((a, i) => (
        <Mark key={i} a={a} />
      ))}
      {stroke && <Mark a={{ type: 'pen', points: stroke.length > 1 ? stroke : [stroke[0]!, stroke[0]!] }} />}
    </svg>
  );
}

function Mark({ a }: { a: Annotation }) {
  const red = '#dc2626';
  if (a.type === 'pen')
    return (
      <polyline
        points={a.points.map(([x, y]) => `${x * 1000},${y * 1000}`).join(' ')}
        fill="none"
        stroke={red}
        strokeWidth={5}
        vectorEffect="non-scaling-stroke"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    );
  const x = a.x * 1000;
  const y = a.y * 1000;
  if (a.type === 'text')
    return (
      <text x={x} y={y} fill={red} fontSize={70} style={{ fontWeight: 600 }} transform={`scale(1 1)`}>
        {a.text}
      </text>
    );
  if (a.type === 'check')
    return (
      <polyline
        points={`${x - 40},${y} ${x - 10},${y + 45} ${x + 50},${y - 60}`}
        fill="none"
        stroke={red}
        strokeWidth={4}
        vectorEffect="non-scaling-stroke"
      />
    );
  return (
    <g stroke={red} strokeWidth={4} vectorEffect="non-scaling-stroke">
      <line x1={x - 40} y1={y - 40} x2={x + 40} y2={y + 40} vectorEffect="non-scaling-stroke" />
      <line x1={x + 40} y1={y - 40} x2={x - 40} y2={y + 40} vectorEffect="non-scaling-stroke" />
    </g>
  );
}
