import type { CardElement, CardElementOf, CardIdentity, Rect } from '@zhzy/contracts';
import { FONT, M, ptToMm, r2 } from './metrics.js';
import { estimateTextWidthMm, wrapText } from './text.js';

/** A rectangle with its edges rounded to 0.01 mm (edges, not sizes, so neighbours that touch never overlap). */
export function rect(x: number, y: number, w: number, h: number): Rect {
  const left = r2(x);
  const top = r2(y);
  return { x: left, y: top, w: r2(r2(x + w) - left), h: r2(r2(y + h) - top) };
}

/** The QR cell at the top right of column one: the code with its quiet zone. */
export function qrRect(columnX: number, columnW: number): Rect {
  return rect(columnX + columnW - M.qrSize - M.qrQuiet, M.contentTop + M.qrQuiet, M.qrSize, M.qrSize);
}

type Field = CardElementOf<'studentInfo'>['fields'][number];

const FIELD_LABELS = { name: '姓名', className: '班级', number: '考号' } as const;

function field(key: Field['key'], x: number, y: number, w: number): Field {
  const labelW = estimateTextWidthMm(FIELD_LABELS[key], FONT.info) + 1.5;
  return {
    key,
    label: FIELD_LABELS[key],
    labelRect: rect(x, y, labelW, M.infoRowH),
    valueRect: rect(x + labelW, y, w - labelW, M.infoRowH),
  };
}

/** 姓名, 班级, 考号 in one row when the column is wide enough, else two rows. */
function studentInfo(
  id: string,
  x: number,
  y: number,
  w: number,
  keys: Field['key'][],
  stacked = false,
): CardElementOf<'studentInfo'> {
  const gap = 5;
  const fields: Field[] = [];
  const oneRow = w >= 150 || keys.length < 3;
  if (stacked) {
    keys.forEach((k, i) => fields.push(field(k, x, y + i * (M.infoRowH + 1.5), w)));
  } else if (oneRow) {
    const weights = keys.map((k) => (k === 'number' ? 1.3 : 1));
    const total = weights.reduce((a, b) => a + b, 0);
    const free = w - gap * (keys.length - 1);
    let cx = x;
    keys.forEach((k, i) => {
      const fw = (free * weights[i]!) / total;
      fields.push(field(k, cx, y, fw));
      cx += fw + gap;
    });
  } else {
    const half = (w - gap) / 2;
    fields.push(field('name', x, y, half), field('className', x + half + gap, y, half));
    fields.push(field('number', x, y + M.infoRowH + 1, half));
  }
  const bottom = Math.max(...fields.map((f) => f.valueRect.y + f.valueRect.h));
  return { id, type: 'studentInfo', rect: rect(x, y, w, bottom - y), fields };
}

function numberGrid(x: number, y: number, digits: number): CardElementOf<'studentNumberGrid'> {
  const w = M.gridPad * 2 + digits * M.gridPitchX - (M.gridPitchX - M.bubbleW);
  const boxesY = y + M.gridPad + M.gridLabelH;
  const bubblesY = boxesY + M.gridBoxH + 1.5;
  const h = bubblesY - y + 10 * M.gridPitchY - (M.gridPitchY - M.bubbleH) + M.gridPad;
  const boxes: Rect[] = [];
  const bubbles: CardElementOf<'studentNumberGrid'>['bubbles'] = [];
  for (let d = 0; d < digits; d++) {
    const bx = x + M.gridPad + d * M.gridPitchX;
    boxes.push(rect(bx, boxesY, M.bubbleW, M.gridBoxH));
    for (let v = 0; v < 10; v++) {
      bubbles.push({ digit: d, value: v, rect: rect(bx, bubblesY + v * M.gridPitchY, M.bubbleW, M.bubbleH) });
    }
  }
  return {
    id: 'student-number',
    type: 'studentNumberGrid',
    rect: rect(x, y, w, h),
    label: '考号',
    digits,
    boxes,
    bubbles,
  };
}

function instructionLines(identity: CardIdentity): string[] {
  const first = {
    qr: '1. 答题前，请核对答题卡上打印的姓名、班级和考号，如有错误请立即报告老师。',
    bubbles: '1. 答题前，考生务必将姓名、班级、考号填写清楚，并用2B铅笔将考号对应的数字涂黑。',
    barcode: '1. 答题前，考生务必将姓名、班级、考号填写清楚，并将条形码横贴在条形码粘贴区内。',
  }[identity];
  return [
    first,
    '2. 选择题须用2B铅笔填涂；非选择题须用0.5毫米黑色签字笔书写，字迹工整、清楚。',
    '3. 请按题号在各题目的答题区域内作答，超出答题区域书写的答案无效。',
    '4. 修改时用橡皮擦干净后重新填涂。保持卡面清洁，不要折叠、不要弄破。',
  ];
}

/** 注意事项 with the fill examples, wrapped to `w`; its height follows from the text (at least `minH`). */
function instructions(
  x: number,
  y: number,
  w: number,
  identity: CardIdentity,
  minH = 0,
): CardElementOf<'instructions'> {
  const pad = 2;
  const lineHeightMm = r2(ptToMm(FONT.instructions) * 1.45);
  const headingH = 5;
  const textW = w - pad * 2;
  const lines = instructionLines(identity).flatMap((t) => wrapText(t, FONT.instructions, textW));
  const textRect = rect(x + pad, y + pad + headingH, textW, lines.length * lineHeightMm);
  const correctLabel = '正确填涂';
  const wrongLabel = '错误填涂';
  const labelW = estimateTextWidthMm(correctLabel, FONT.instructions) + 1;
  const correctW = labelW + 1 + M.bubbleW + 5;
  const wrongW = labelW + 1 + 4 * (M.bubbleW + 2);
  // The examples go on one row when they fit, else the wrong ones on a second row.
  const twoRows = correctW + wrongW > textW;
  const examplesH = twoRows ? M.bubbleH * 2 + 1.5 : M.bubbleH;
  const natural = textRect.y + textRect.h + 1.5 + examplesH + pad - y;
  const h = Math.max(minH, natural);
  // In a box taller than its text, the examples sit at the bottom.
  const exY = y + h - pad - examplesH;
  let cx = x + pad;
  const correctLabelRect = rect(cx, exY, labelW, M.bubbleH);
  cx += labelW + 1;
  const examples: CardElementOf<'instructions'>['examples'] = [
    { kind: 'correct', rect: rect(cx, exY, M.bubbleW, M.bubbleH) },
  ];
  let wy = exY;
  if (twoRows) {
    cx = x + pad;
    wy = exY + M.bubbleH + 1.5;
  } else {
    cx += M.bubbleW + 5;
  }
  const wrongLabelRect = rect(cx, wy, labelW, M.bubbleH);
  cx += labelW + 1;
  for (const kind of ['tick', 'cross', 'dot', 'line'] as const) {
    examples.push({ kind, rect: rect(cx, wy, M.bubbleW, M.bubbleH) });
    cx += M.bubbleW + 2;
  }
  return {
    id: 'instructions',
    type: 'instructions',
    rect: rect(x, y, w, h),
    heading: '注意事项',
    lines,
    textRect,
    fontSizePt: FONT.instructions,
    lineHeightMm,
    correctLabel,
    correctLabelRect,
    wrongLabel,
    wrongLabelRect,
    examples,
  };
}

/** Width the fill examples row needs, so instructions are never narrower. */
const INSTRUCTIONS_MIN_W = 55;

export interface HeaderOptions {
  title: string;
  subtitle?: string | undefined;
  identity: CardIdentity;
  digits: number;
}

/** The first page's header in column one: title, student information, identity and instructions. Returns its bottom. */
export function firstPageHeader(
  x: number,
  w: number,
  o: HeaderOptions,
): { elements: CardElement[]; bottom: number } {
  const elements: CardElement[] = [];
  const side = M.qrSize + M.qrQuiet * 2;
  // Centred over the column when the title fits between the margins kept symmetric to the QR, else left of the QR.
  const centred = w - side * 2;
  const titleRect =
    estimateTextWidthMm(o.title, FONT.title) <= centred
      ? rect(x + side, M.contentTop, centred, M.bandHeight)
      : rect(x, M.contentTop, w - side - 2, M.bandHeight);
  elements.push({
    id: 'title',
    type: 'title',
    rect: titleRect,
    text: o.title,
    ...(o.subtitle ? { subtitle: o.subtitle } : {}),
  });
  let y = M.contentTop + M.bandHeight + 1;
  if (o.identity === 'barcode') {
    // The classic arrangement: 姓名, 班级, 考号 one above the other, the sticker zone beside them.
    const infoW = w - M.barcodeW - 6;
    const info = studentInfo('p1-student', x, y + 1, infoW, ['name', 'className', 'number'], true);
    const zone: CardElement = {
      id: 'barcode',
      type: 'barcodeZone',
      rect: rect(x + w - M.barcodeW, y, M.barcodeW, M.barcodeH),
      label: '条形码粘贴区',
    };
    const ins = instructions(x, y + M.barcodeH + 3, w, o.identity);
    elements.push(info, zone, ins);
    return { elements, bottom: ins.rect.y + ins.rect.h };
  }
  const info = studentInfo('p1-student', x, y, w, ['name', 'className', 'number']);
  elements.push(info);
  y = info.rect.y + info.rect.h + 3;
  const left = o.identity === 'bubbles' ? numberGrid(x, y, o.digits) : undefined;
  if (!left) {
    const ins = instructions(x, y, w, o.identity);
    elements.push(ins);
    return { elements, bottom: ins.rect.y + ins.rect.h };
  }
  elements.push(left);
  const gap = 4;
  const restW = w - left.rect.w - gap;
  if (restW >= INSTRUCTIONS_MIN_W) {
    const ins = instructions(x + left.rect.w + gap, y, restW, o.identity, left.rect.h);
    elements.push(ins);
    return { elements, bottom: Math.max(left.rect.y + left.rect.h, ins.rect.y + ins.rect.h) };
  }
  const ins = instructions(x, left.rect.y + left.rect.h + 3, w, o.identity);
  elements.push(ins);
  return { elements, bottom: ins.rect.y + ins.rect.h };
}

/** The band of later pages in column one: the student's name and number beside the page's QR. */
export function laterPageBand(page: number, x: number, w: number): CardElement {
  const side = M.qrSize + M.qrQuiet * 2;
  const infoW = Math.min(w - side - 4, 120);
  const y = M.contentTop + (M.bandHeight - M.infoRowH) / 2;
  return studentInfo(`p${page}-student`, x, y, infoW, ['name', 'number']);
}
