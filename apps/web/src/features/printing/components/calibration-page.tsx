import { CARD_METRICS, wrapText } from '@zhzy/answer-card';
import { CARD_PAGE_MM, CARD_SIZES, type CardSize } from '@zhzy/contracts';
import { Segmented } from '../../../components/ui/segmented';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import { FitWidth, PrintFrame, ScreenNote } from './print-frame';

const PX_PER_MM = 96 / 25.4;
const RULER_MM = 100;

/** A ruler of `RULER_MM` millimetres with a tick every millimetre, longer every 5 and numbered every 10. */
function Ruler({ x, y, vertical = false }: { x: number; y: number; vertical?: boolean }) {
  const ticks = [];
  for (let mm = 0; mm <= RULER_MM; mm++) {
    const len = mm % 10 === 0 ? 5 : mm % 5 === 0 ? 3.5 : 2;
    ticks.push(
      vertical ? (
        <line key={mm} x1={x} x2={x + len} y1={y + mm} y2={y + mm} stroke="#000" strokeWidth={0.15} />
      ) : (
        <line key={mm} x1={x + mm} x2={x + mm} y1={y} y2={y + len} stroke="#000" strokeWidth={0.15} />
      ),
    );
    if (mm % 10 === 0) {
      ticks.push(
        <text
          key={`n${mm}`}
          x={vertical ? x + 6.5 : x + mm}
          y={vertical ? y + mm : y + 9}
          fontSize={2.6}
          textAnchor={vertical ? 'start' : 'middle'}
          dominantBaseline="central"
        >
          {mm}
        </text>,
      );
    }
  }
  return (
    <g>
      {vertical ? (
        <line x1={x} x2={x} y1={y} y2={y + RULER_MM} stroke="#000" strokeWidth={0.3} />
      ) : (
        <line x1={x} x2={x + RULER_MM} y1={y} y2={y} stroke="#000" strokeWidth={0.3} />
      )}
      {ticks}
    </g>
  );
}

/**
 * /pringtingtest: a calibration sheet of an answer-card paper size. Two 100 mm rulers and the four anchors exactly
 * where the card's anchors print show at a glance whether the printer scales (it must print at 100 %).
 */
export function CalibrationPage({ size, onSize }: { size: CardSize; onSize: (s: CardSize) => void }) {
  const { width: w, height: h } = CARD_PAGE_MM[size];
  const a = CARD_METRICS.anchorSize;
  const inset = CARD_METRICS.anchorInset;
  const anchors = [
    [inset, inset],
    [w - inset - a, inset],
    [inset, h - inset - a],
    [w - inset - a, h - inset - a],
  ] as const;
  const hx = (w - RULER_MM) / 2;
  const hy = 52;
  const vx = 28;
  const vy = hy + 22;
  const textX = vx + 30;
  const stepSizeMm = 3.4;
  const steps = tp.test
    .steps(a, inset)
    .flatMap((line) => wrapText(line, (stepSizeMm * 72) / 25.4, w - textX - 14));
  return (
    <PrintFrame
      title={tp.test.title}
      subtitle={tp.test.subtitle}
      page={{ size: `${w}mm ${h}mm`, margin: '0' }}
      options={
        <div className="flex items-center gap-2">
          <span className="text-slate-500">{tp.test.size}</span>
          <Segmented
            label={tp.test.size}
            value={size}
            options={CARD_SIZES.map((s) => ({ value: s, label: tp.sizes[s] }))}
            onChange={onSize}
          />
        </div>
      }
    >
      <ScreenNote tone="warn">{tp.test.scaleNote}</ScreenNote>
      <FitWidth widthPx={w * PX_PER_MM}>
        <svg
          className="print-sheet block bg-white shadow-lg"
          width={`${w}mm`}
          height={`${h}mm`}
          viewBox={`0 0 ${w} ${h}`}
          role="img"
          aria-label={tp.test.sheetLabel(tp.sizes[size], w, h)}
          fontFamily="'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
        >
          <rect width={w} height={h} fill="#fff" />
          {anchors.map(([x, y]) => (
            <rect
              key={`${x}-${y}`}
              data-testid="calibration-anchor"
              x={x}
              y={y}
              width={a}
              height={a}
              fill="#000"
            />
          ))}
          <text x={w / 2} y={26} fontSize={6} fontWeight={700} textAnchor="middle">
            {tp.test.sheetTitle}
          </text>
          <text x={w / 2} y={34} fontSize={3.4} textAnchor="middle" fill="#333">
            {tp.test.sheetSize(tp.sizes[size], w, h)}
          </text>
          <g data-testid="ruler-horizontal">
            <Ruler x={hx} y={hy} />
          </g>
          <text x={hx + RULER_MM / 2} y={hy - 4} fontSize={3.2} textAnchor="middle">
            {tp.test.rulerH}
          </text>
          <g data-testid="ruler-vertical">
            <Ruler x={vx} y={vy} vertical />
          </g>
          <text
            x={vx - 4}
            y={vy + RULER_MM / 2}
            fontSize={3.2}
            textAnchor="middle"
            transform={`rotate(-90 ${vx - 4} ${vy + RULER_MM / 2})`}
          >
            {tp.test.rulerV}
          </text>
          <rect x={textX} y={vy} width={50} height={50} fill="none" stroke="#000" strokeWidth={0.3} />
          <text x={textX + 25} y={vy + 25} fontSize={3.2} textAnchor="middle" dominantBaseline="central">
            {tp.test.square}
          </text>
          {steps.map((line, i) => (
            <text key={i} x={textX} y={vy + 62 + i * 6} fontSize={stepSizeMm} fill="#1a1a1a">
              {line}
            </text>
          ))}
          <text x={w / 2} y={h - inset - a - 6} fontSize={3} textAnchor="middle" fill="#555">
            {tp.test.footer}
          </text>
        </svg>
      </FitWidth>
    </PrintFrame>
  );
}
