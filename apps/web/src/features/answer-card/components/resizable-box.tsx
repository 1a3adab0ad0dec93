import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import type { CardElementOf } from '@zhzy/contracts';
import { zhCNCards as tc } from '../../../i18n/zh-CN';
import { boxKey, boxNumber, KEY_STEP_MM } from '../utils/settings';
import { CARD_COLOR, CardText, WrittenBoxShape } from './card-page-svg';

/** Millimetres of the handle's grab area around the box's bottom edge. */
const HANDLE_MM = 5;

/**
 * A written-answer box whose bottom edge can be dragged (mouse, pen or touch) or moved with the arrow keys, 2 mm a
 * press. The edge is a focusable separator (the ARIA window-splitter pattern) whose value is the box's height.
 */
export function ResizableBox({
  e,
  pageWidthMm,
  warn,
  active,
  onResize,
  onActive,
}: {
  e: CardElementOf<'writtenBox'>;
  pageWidthMm: number;
  warn: boolean;
  active: boolean;
  onResize: (key: string, mm: number) => void;
  onActive: (key: string | null) => void;
}) {
  const key = boxKey(e);
  const r = e.rect;
  const drag = useRef<{ startY: number; startH: number; mmPerPx: number } | null>(null);

  const onPointerDown = (ev: PointerEvent<SVGGElement>) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    const svg = ev.currentTarget.ownerSVGElement;
    const width = svg?.getBoundingClientRect().width ?? 0;
    drag.current = { startY: ev.clientY, startH: r.h, mmPerPx: width > 0 ? pageWidthMm / width : 1 };
    ev.currentTarget.setPointerCapture?.(ev.pointerId);
    ev.currentTarget.focus();
    onActive(key);
  };
  const onPointerMove = (ev: PointerEvent<SVGGElement>) => {
    const d = drag.current;
    if (!d) return;
    onResize(key, d.startH + (ev.clientY - d.startY) * d.mmPerPx);
  };
  const endDrag = (ev: PointerEvent<SVGGElement>) => {
    if (!drag.current) return;
    drag.current = null;
    if (ev.currentTarget.hasPointerCapture?.(ev.pointerId))
      ev.currentTarget.releasePointerCapture(ev.pointerId);
  };
  const onKeyDown = (ev: KeyboardEvent<SVGGElement>) => {
    const step = ev.key === 'ArrowDown' ? KEY_STEP_MM : ev.key === 'ArrowUp' ? -KEY_STEP_MM : 0;
    if (!step) return;
    ev.preventDefault();
    onResize(key, r.h + step);
  };

  const stroke = warn ? CARD_COLOR.warn : CARD_COLOR.line;
  const bottom = r.y + r.h;
  const height = Math.round(r.h);
  return (
    <g data-testid="written-box" data-box-key={key} data-height-mm={r.h}>
      <WrittenBoxShape e={e} stroke={stroke} />
      {warn && <rect x={r.x} y={r.y} width={r.w} height={r.h} fill={CARD_COLOR.warn} fillOpacity={0.05} />}
      {active && (
        <>
          <rect
            x={r.x - 0.6}
            y={r.y - 0.6}
            width={r.w + 1.2}
            height={r.h + 1.2}
            fill="none"
            stroke={CARD_COLOR.focus}
            strokeWidth={0.6}
            rx={0.8}
          />
          <CardText
            text={tc.boxes.height(height)}
            r={{ x: r.x + r.w - 32, y: bottom - 7, w: 30, h: 5 }}
            size={9}
            bold
            color={CARD_COLOR.focus}
            align="right"
          />
        </>
      )}
      <g
        role="separator"
        aria-orientation="horizontal"
        aria-label={tc.boxes.resizeLabel(boxNumber(e))}
        aria-valuemin={10}
        aria-valuemax={400}
        aria-valuenow={height}
        aria-valuetext={tc.boxes.height(height)}
        tabIndex={0}
        className="cursor-row-resize outline-none"
        style={{ touchAction: 'none' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onKeyDown={onKeyDown}
        onFocus={() => onActive(key)}
        onBlur={() => {
          if (!drag.current) onActive(null);
        }}
      >
        <rect x={r.x} y={bottom - HANDLE_MM / 2} width={r.w} height={HANDLE_MM} fill="transparent" />
        <rect
          x={r.x + r.w / 2 - 8}
          y={bottom - 0.9}
          width={16}
          height={1.8}
          rx={0.9}
          fill={active ? CARD_COLOR.focus : CARD_COLOR.light}
        />
      </g>
    </g>
  );
}
