import { memo, useMemo, type ReactNode } from 'react';
import QRCode from 'qrcode';
import { CARD_FONT_SIZES as FONT, estimateTextWidthMm } from '@zhzy/answer-card';
import {
  encodeCardQr,
  type CardElement,
  type CardElementOf,
  type CardPage,
  type Rect,
} from '@zhzy/contracts';

/*
 * One answer-card page drawn in SVG from the very layout the PDF renderer and the recogniser use: every element at
 * its rectangle in millimetres (the viewBox is the page in millimetres), styled like packages/answer-card's
 * render/draw.ts so the preview looks like the printed card.
 */

const MM_PER_PT = 25.4 / 72;
const pt = (v: number) => v * MM_PER_PT;

export const CARD_COLOR = {
  ink: '#000000',
  text: '#1a1a1a',
  muted: '#5c5c5c',
  line: '#4d4d4d',
  light: '#a6a6a6',
  cell: '#b3b3b3',
  cellText: '#c4c4c4',
  warn: '#dc2626',
  focus: '#2563eb',
} as const;

interface TextProps {
  text: string;
  r: Rect;
  size: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'center' | 'right';
}

/** One line of text vertically centred in `r`, shrunk to fit its width (as the renderer does). */
export function CardText({
  text,
  r,
  size,
  bold = false,
  color = CARD_COLOR.text,
  align = 'left',
}: TextProps) {
  if (!text) return null;
  const width = estimateTextWidthMm(text, size);
  const fitted = width > r.w && width > 0 ? Math.max(4, (size * r.w) / width) : size;
  const x = align === 'left' ? r.x : align === 'right' ? r.x + r.w : r.x + r.w / 2;
  return (
    <text
      x={x}
      y={r.y + r.h / 2}
      fontSize={pt(fitted)}
      fontWeight={bold ? 700 : 400}
      fill={color}
      textAnchor={align === 'left' ? 'start' : align === 'right' ? 'end' : 'middle'}
      dominantBaseline="central"
    >
      {text}
    </text>
  );
}

function inner(r: Rect, fraction: number): Rect {
  const side = r.h * (1 - 2 * fraction) * 1.25;
  return { x: r.x + r.w / 2 - side / 2, y: r.y + r.h / 2 - side / 2, w: side, h: side };
}

const tickPath = (r: Rect) =>
  `M${r.x} ${r.y + r.h * 0.55}L${r.x + r.w * 0.38} ${r.y + r.h}L${r.x + r.w} ${r.y}`;
const crossPath = (r: Rect) =>
  `M${r.x} ${r.y}L${r.x + r.w} ${r.y + r.h}M${r.x + r.w} ${r.y}L${r.x} ${r.y + r.h}`;

const BRACKET_PT = 0.55;

/** A bubble as printed: [A] — two brackets and the option inside; T and F are ✓ and ✗. */
function Bubble({ r, label }: { r: Rect; label: string }) {
  const inset = pt(BRACKET_PT) / 2;
  const x1 = r.x + inset;
  const x2 = r.x + r.w - inset;
  const y1 = r.y + inset;
  const y2 = r.y + r.h - inset;
  const serif = Math.min(1, r.w * 0.22);
  const d = `M${x1 + serif} ${y1}H${x1}V${y2}H${x1 + serif}M${x2 - serif} ${y1}H${x2}V${y2}H${x2 - serif}`;
  return (
    <g>
      <path d={d} fill="none" stroke={CARD_COLOR.line} strokeWidth={pt(BRACKET_PT)} />
      {label === 'T' ? (
        <path
          d={tickPath(inner(r, 0.28))}
          fill="none"
          stroke={CARD_COLOR.line}
          strokeWidth={pt(0.6)}
          strokeLinecap="round"
        />
      ) : label === 'F' ? (
        <path
          d={crossPath(inner(r, 0.3))}
          fill="none"
          stroke={CARD_COLOR.line}
          strokeWidth={pt(0.6)}
          strokeLinecap="round"
        />
      ) : (
        <CardText text={label} r={r} size={FONT.bubble} color={CARD_COLOR.line} align="center" />
      )}
    </g>
  );
}

function StrokeRect({
  r,
  color,
  widthPt,
  radius = 0,
  dash,
}: {
  r: Rect;
  color: string;
  widthPt: number;
  radius?: number;
  dash?: string;
}) {
  const s = pt(widthPt);
  return (
    <rect
      x={r.x + s / 2}
      y={r.y + s / 2}
      width={Math.max(0, r.w - s)}
      height={Math.max(0, r.h - s)}
      rx={radius}
      fill="none"
      stroke={color}
      strokeWidth={s}
      strokeDasharray={dash}
    />
  );
}

/** The page's QR code: module runs as one path (the generic code; personalised copies add the student at print). */
function CardQr({ e }: { e: CardElementOf<'qr'> }) {
  const d = useMemo(() => {
    const qr = QRCode.create(encodeCardQr(e.payload), { errorCorrectionLevel: 'M' });
    const n = qr.modules.size;
    const m = e.rect.w / n;
    let path = '';
    for (let row = 0; row < n; row++) {
      let col = 0;
      while (col < n) {
        if (!qr.modules.data[row * n + col]) {
          col++;
          continue;
        }
        const start = col;
        while (col < n && qr.modules.data[row * n + col]) col++;
        path += `M${(e.rect.x + start * m).toFixed(3)} ${(e.rect.y + row * m).toFixed(3)}h${((col - start) * m).toFixed(3)}v${m.toFixed(3)}h${(-(col - start) * m).toFixed(3)}z`;
      }
    }
    return path;
  }, [e.payload, e.rect.x, e.rect.y, e.rect.w]);
  return <path d={d} fill={CARD_COLOR.ink} data-element="qr" />;
}

function Title({ e }: { e: CardElementOf<'title'> }) {
  const r = e.rect;
  if (!e.subtitle) return <CardText text={e.text} r={r} size={FONT.title} bold align="center" />;
  return (
    <g>
      <CardText
        text={e.text}
        r={{ ...r, y: r.y + r.h * 0.2, h: r.h * 0.4 }}
        size={FONT.title}
        bold
        align="center"
      />
      <CardText
        text={e.subtitle}
        r={{ ...r, y: r.y + r.h * 0.62, h: r.h * 0.25 }}
        size={FONT.subtitle}
        color={CARD_COLOR.muted}
        align="center"
      />
    </g>
  );
}

function StudentInfo({ e }: { e: CardElementOf<'studentInfo'> }) {
  return (
    <g>
      {e.fields.map((f) => {
        const v = f.valueRect;
        const y = v.y + v.h - 0.8;
        return (
          <g key={f.key}>
            <CardText
              text={`${f.label}：`}
              r={{ ...f.labelRect, w: f.labelRect.w + 3 }}
              size={FONT.info}
              bold
            />
            <line x1={v.x + 2} x2={v.x + v.w} y1={y} y2={y} stroke={CARD_COLOR.line} strokeWidth={pt(0.6)} />
          </g>
        );
      })}
    </g>
  );
}

function NumberGrid({ e, gridLabel }: { e: CardElementOf<'studentNumberGrid'>; gridLabel: string }) {
  return (
    <g>
      <StrokeRect r={e.rect} color={CARD_COLOR.light} widthPt={0.6} radius={1} />
      <CardText
        text={gridLabel}
        r={{ x: e.rect.x, y: e.rect.y + 1.5, w: e.rect.w, h: 5 }}
        size={7.5}
        bold
        align="center"
      />
      {e.boxes.map((b, i) => (
        <StrokeRect key={i} r={b} color={CARD_COLOR.line} widthPt={0.5} />
      ))}
      {e.bubbles.map((b) => (
        <Bubble key={`${b.digit}-${b.value}`} r={b.rect} label={String(b.value)} />
      ))}
    </g>
  );
}

function BarcodeZone({ e, hint }: { e: CardElementOf<'barcodeZone'>; hint: string }) {
  const r = e.rect;
  return (
    <g>
      <StrokeRect r={r} color={CARD_COLOR.light} widthPt={0.8} radius={1.5} dash={`${pt(1.6)} ${pt(1.2)}`} />
      <CardText
        text={e.label}
        r={{ ...r, y: r.y + r.h * 0.3, h: r.h * 0.25 }}
        size={12}
        color={CARD_COLOR.muted}
        align="center"
      />
      <CardText
        text={hint}
        r={{ ...r, y: r.y + r.h * 0.58, h: r.h * 0.18 }}
        size={7.5}
        color={CARD_COLOR.muted}
        align="center"
      />
    </g>
  );
}

function Example({ kind, r }: { kind: CardElementOf<'instructions'>['examples'][number]['kind']; r: Rect }) {
  if (kind === 'correct') return <rect x={r.x} y={r.y} width={r.w} height={r.h} fill={CARD_COLOR.ink} />;
  const c = { x: r.x + r.w / 2, y: r.y + r.h / 2 };
  return (
    <g>
      <Bubble r={r} label="" />
      {kind === 'tick' && (
        <path d={tickPath(inner(r, 0.2))} fill="none" stroke={CARD_COLOR.ink} strokeWidth={pt(0.9)} />
      )}
      {kind === 'cross' && (
        <path d={crossPath(inner(r, 0.22))} fill="none" stroke={CARD_COLOR.ink} strokeWidth={pt(0.9)} />
      )}
      {kind === 'dot' && <circle cx={c.x} cy={c.y} r={0.75} fill={CARD_COLOR.ink} />}
      {kind === 'line' && (
        <line
          x1={r.x + 1}
          x2={r.x + r.w - 1}
          y1={c.y}
          y2={c.y}
          stroke={CARD_COLOR.ink}
          strokeWidth={pt(1.1)}
        />
      )}
    </g>
  );
}

function Instructions({ e }: { e: CardElementOf<'instructions'> }) {
  return (
    <g>
      <StrokeRect r={e.rect} color={CARD_COLOR.light} widthPt={0.6} radius={1} />
      <CardText
        text={e.heading}
        r={{ x: e.textRect.x, y: e.rect.y + 1.5, w: e.textRect.w, h: 4.5 }}
        size={FONT.instructionsHeading}
        bold
      />
      {e.lines.map((line, i) => (
        <CardText
          key={i}
          text={line}
          r={{ x: e.textRect.x, y: e.textRect.y + i * e.lineHeightMm, w: e.textRect.w, h: e.lineHeightMm }}
          size={e.fontSizePt}
        />
      ))}
      <CardText text={e.correctLabel} r={e.correctLabelRect} size={e.fontSizePt} bold />
      <CardText text={e.wrongLabel} r={e.wrongLabelRect} size={e.fontSizePt} bold />
      {e.examples.map((x, i) => (
        <Example key={i} kind={x.kind} r={x.rect} />
      ))}
    </g>
  );
}

function ObjectiveBlock({ e }: { e: CardElementOf<'objectiveBlock'> }) {
  return (
    <g data-element="objective">
      <StrokeRect r={e.rect} color={CARD_COLOR.light} widthPt={0.5} radius={1} />
      {e.rows.map((row) => (
        <g key={row.questionId}>
          <CardText text={row.number} r={row.numberRect} size={FONT.number} align="right" />
          {row.bubbles.map((b) => (
            <Bubble key={b.option} r={b.rect} label={b.option} />
          ))}
        </g>
      ))}
    </g>
  );
}

function Blank({ e }: { e: CardElementOf<'blank'> }) {
  return (
    <g data-element="blank">
      <CardText
        text={`${e.number}.`}
        r={{ ...e.numberRect, h: e.numberRect.h + 1.2 }}
        size={9}
        align="right"
      />
      {e.lines.map((l, i) => {
        const y = l.y + l.h - 0.4;
        return (
          <line
            key={i}
            x1={l.x}
            x2={l.x + l.w}
            y1={y}
            y2={y}
            stroke={CARD_COLOR.line}
            strokeWidth={pt(0.6)}
          />
        );
      })}
    </g>
  );
}

function OptionalChoice({ e, chosenLabel }: { e: CardElementOf<'optionalChoice'>; chosenLabel: string }) {
  const first = e.bubbles[0];
  return (
    <g>
      <CardText text={e.text} r={e.textRect} size={7.5} />
      {first && (
        <CardText
          text={chosenLabel}
          r={{ x: e.rect.x + 1, y: first.rect.y, w: 10, h: first.rect.h }}
          size={7.5}
          bold
        />
      )}
      {e.bubbles.map((b) => (
        <Bubble key={b.questionId} r={b.rect} label={b.number} />
      ))}
    </g>
  );
}

function SealingLine({ e }: { e: CardElementOf<'sealingLine'> }) {
  const r = e.rect;
  const cx = r.x + r.w / 2;
  const cy = r.y + r.h / 2;
  const textLen = 60;
  const dash = `${pt(1.5)} ${pt(1.2)}`;
  return (
    <g>
      {(
        [
          [r.y, cy - textLen / 2 - 2],
          [cy + textLen / 2 + 2, r.y + r.h],
        ] as const
      ).map(([a, b]) => (
        <line
          key={a}
          x1={cx}
          x2={cx}
          y1={a}
          y2={b}
          stroke={CARD_COLOR.light}
          strokeWidth={pt(0.6)}
          strokeDasharray={dash}
        />
      ))}
      <g transform={`rotate(-90 ${cx} ${cy})`}>
        <CardText
          text={[...e.text].join(' ')}
          r={{ x: cx - textLen / 2, y: cy - 2.5, w: textLen, h: 5 }}
          size={8}
          color={CARD_COLOR.muted}
          align="center"
        />
      </g>
    </g>
  );
}

/** The fixed words the renderer prints that the layout does not carry (from the catalogue, via the caller). */
export interface CardPrintedWords {
  /** 考号（用2B铅笔填涂） */
  gridLabel: (label: string) => string;
  /** （请将条形码横贴在此框内） */
  barcodeHint: string;
  /** 所选题号 */
  chosenNumber: string;
}

/** A written-answer box; the designer draws its own interactive version over it. */
export function WrittenBoxShape({
  e,
  stroke = CARD_COLOR.line,
}: {
  e: CardElementOf<'writtenBox'>;
  stroke?: string;
}) {
  return (
    <g>
      <StrokeRect r={e.rect} color={stroke} widthPt={0.7} />
      <CardText
        text={e.label}
        r={{ x: e.rect.x + 2, y: e.rect.y + 1.2, w: e.rect.w - 4, h: 5 }}
        size={9}
        bold
      />
    </g>
  );
}

/** A score box (打分框, ADR 0065): light grey cells the teacher ticks in red. */
function ScoreBox({ e }: { e: CardElementOf<'scoreBox'> }) {
  return (
    <g data-element="scoreBox">
      <StrokeRect r={e.rect} color={CARD_COLOR.light} widthPt={0.4} />
      <CardText text={e.label} r={e.labelRect} size={7.5} color={CARD_COLOR.muted} />
      {e.rows.map((row) => (
        <g key={row.role}>
          <CardText text={row.label} r={row.labelRect} size={7} color={CARD_COLOR.muted} align="right" />
          {row.cells.map((c) => (
            <g key={c.value}>
              <StrokeRect r={c.rect} color={CARD_COLOR.cell} widthPt={0.5} />
              <CardText text={c.label} r={c.rect} size={6.5} color={CARD_COLOR.cellText} align="center" />
            </g>
          ))}
        </g>
      ))}
    </g>
  );
}

function StaticElement({ e, words }: { e: CardElement; words: CardPrintedWords }): ReactNode {
  switch (e.type) {
    case 'anchor':
      return (
        <rect
          x={e.rect.x}
          y={e.rect.y}
          width={e.rect.w}
          height={e.rect.h}
          fill={CARD_COLOR.ink}
          data-element="anchor"
        />
      );
    case 'qr':
      return <CardQr e={e} />;
    case 'title':
      return <Title e={e} />;
    case 'studentInfo':
      return <StudentInfo e={e} />;
    case 'studentNumberGrid':
      return <NumberGrid e={e} gridLabel={words.gridLabel(e.label)} />;
    case 'barcodeZone':
      return <BarcodeZone e={e} hint={words.barcodeHint} />;
    case 'instructions':
      return <Instructions e={e} />;
    case 'sectionHeader':
      return <CardText text={e.text} r={e.rect} size={FONT.section} bold />;
    case 'objectiveBlock':
      return <ObjectiveBlock e={e} />;
    case 'blank':
      return <Blank e={e} />;
    case 'writtenBox':
      return <WrittenBoxShape e={e} />;
    case 'optionalChoice':
      return <OptionalChoice e={e} chosenLabel={words.chosenNumber} />;
    case 'scoreBox':
      return <ScoreBox e={e} />;
    case 'sealingLine':
      return <SealingLine e={e} />;
    case 'footer':
      return <CardText text={e.text} r={e.rect} size={FONT.footer} color={CARD_COLOR.muted} align="center" />;
  }
}

/**
 * A card page as SVG. `renderWritten` replaces the drawing of written boxes (the designer's resizable boxes); every
 * other element is drawn as printed.
 */
export const CardPageSvg = memo(function CardPageSvg({
  page,
  words,
  label,
  renderWritten,
  className,
  svgRef,
  interactive = false,
}: {
  page: CardPage;
  words: CardPrintedWords;
  label: string;
  renderWritten?: (e: CardElementOf<'writtenBox'>) => ReactNode;
  className?: string;
  svgRef?: React.Ref<SVGSVGElement>;
  /** A group of focusable boxes rather than a picture. */
  interactive?: boolean;
}) {
  return (
    <svg
      ref={svgRef}
      role={interactive ? 'group' : 'img'}
      aria-label={label}
      viewBox={`0 0 ${page.widthMm} ${page.heightMm}`}
      className={className}
      fontFamily="'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
      data-width-mm={page.widthMm}
      data-height-mm={page.heightMm}
    >
      <rect x={0} y={0} width={page.widthMm} height={page.heightMm} fill="#fff" />
      {page.elements.map((e) =>
        e.type === 'writtenBox' && renderWritten ? (
          <g key={e.id}>{renderWritten(e)}</g>
        ) : (
          <g key={e.id}>{StaticElement({ e, words })}</g>
        ),
      )}
    </svg>
  );
});
