import {
  CHOICE_OPTIONS,
  isObjective,
  MIN_WRITTEN_BOX_MM,
  type CardElement,
  type CardElementOf,
  type CardLayoutWarning,
  type CardQuestion,
  type CardSection,
  type CardSettings,
  type ObjectiveKind,
  type ObjectiveOption,
} from '@zhzy/contracts';
import { rect } from './header.js';
import { FONT, M } from './metrics.js';
import { placeScoreBox, planScoreBox } from './score-box.js';
import { estimateTextWidthMm } from './text.js';

/** One unbreakable piece of a column: it knows its height and lays itself out at a position. */
export interface FlowItem {
  height: number;
  /** Section headers stay with the first item of their section. */
  keepWithNext?: boolean;
  place(x: number, y: number, w: number): CardElement[];
}

type ObjectiveQuestion = Extract<CardQuestion, { kind: ObjectiveKind }>;
type WrittenQuestion = Extract<CardQuestion, { kind: 'written' | 'optional' }>;

const isObjectiveQuestion = (q: CardQuestion): q is ObjectiveQuestion => isObjective(q.kind);

const optionsOf = (q: ObjectiveQuestion): ObjectiveOption[] =>
  q.kind === 'truefalse' ? ['T', 'F'] : CHOICE_OPTIONS.slice(0, q.options);

/** Formats a score without trailing zeros (3, 2.5). */
export const formatScore = (score: number): string => String(Math.round(score * 100) / 100);

function blockSize(group: ObjectiveQuestion[]): { w: number; h: number } {
  const options = Math.max(...group.map((q) => optionsOf(q).length));
  return {
    w: M.blockPadX * 2 + M.blockNumberW + (options - 1) * M.bubblePitch + M.bubbleW,
    h: M.blockPadY * 2 + (group.length - 1) * M.rowPitch + M.bubbleH,
  };
}

function objectiveBlock(group: ObjectiveQuestion[], x: number, y: number): CardElementOf<'objectiveBlock'> {
  const size = blockSize(group);
  const rows = group.map((q, i) => {
    const rowY = y + M.blockPadY + i * M.rowPitch;
    const bx = x + M.blockPadX + M.blockNumberW;
    return {
      questionId: q.id,
      number: q.number,
      kind: q.kind,
      numberRect: rect(x + M.blockPadX, rowY, M.blockNumberW - 1.8, M.bubbleH),
      bubbles: optionsOf(q).map((option, j) => ({
        option,
        rect: rect(bx + j * M.bubblePitch, rowY, M.bubbleW, M.bubbleH),
      })),
    };
  });
  return { id: `objective:${group[0]!.id}`, type: 'objectiveBlock', rect: rect(x, y, size.w, size.h), rows };
}

/** Objective questions in blocks of `groupSize`, the blocks on a grid of equal slots across the column. */
function objectiveItems(questions: ObjectiveQuestion[], groupSize: number, columnW: number): FlowItem[] {
  const groups: ObjectiveQuestion[][] = [];
  for (let i = 0; i < questions.length; i += groupSize) groups.push(questions.slice(i, i + groupSize));
  const widest = Math.max(...groups.map((g) => blockSize(g).w));
  const perRow = Math.max(1, Math.floor((columnW + M.blockGapX) / (widest + M.blockGapX)));
  const slot = columnW / perRow;
  const inset = (slot - widest) / 2;
  const items: FlowItem[] = [];
  for (let i = 0; i < groups.length; i += perRow) {
    const row = groups.slice(i, i + perRow);
    items.push({
      height: Math.max(...row.map((g) => blockSize(g).h)),
      place: (x, y) => row.map((g, j) => objectiveBlock(g, x + j * slot + inset, y)),
    });
  }
  return items;
}

/** Fill-in blanks on equal slots across the column; a question starts a new row rather than straddle two. */
function blankItems(questions: Extract<CardQuestion, { kind: 'blank' }>[], columnW: number): FlowItem[] {
  const perRow = Math.min(4, Math.max(1, Math.floor(columnW / M.blankSlotMin)));
  const slotW = columnW / perRow;
  type Entry = { q: (typeof questions)[number]; slot: number };
  const items: FlowItem[] = [];
  const emit = (entries: Entry[]) => {
    const span = Math.max(...entries.map((e) => Math.ceil((e.slot + e.q.blanks) / perRow)));
    items.push({
      height: span * M.blankRowH,
      place: (x, y) =>
        entries.map(({ q, slot }): CardElementOf<'blank'> => {
          const lines = [];
          for (let b = 0; b < q.blanks; b++) {
            const k = slot + b;
            const lx = x + (k % perRow) * slotW + M.blankNumberW;
            const ly = y + Math.floor(k / perRow) * M.blankRowH + 1;
            lines.push(rect(lx, ly, slotW - M.blankNumberW - 3, M.blankRowH - 2));
          }
          const rows = Math.ceil((slot + q.blanks) / perRow);
          const left = x + slot * slotW;
          const right = rows > 1 ? x + columnW : x + (slot + q.blanks) * slotW;
          return {
            id: `blank:${q.id}`,
            type: 'blank',
            questionId: q.id,
            number: q.number,
            score: q.score,
            numberRect: rect(left, y + 1, M.blankNumberW - 1, M.blankRowH - 2),
            lines,
            rect: rect(left, y, right - left, rows * M.blankRowH),
          };
        }),
    });
  };
  let row: Entry[] = [];
  let used = 0;
  for (const q of questions) {
    if (row.length > 0 && used + q.blanks > perRow) {
      emit(row);
      row = [];
      used = 0;
    }
    row.push({ q, slot: used });
    used += q.blanks;
    if (used >= perRow) {
      emit(row);
      row = [];
      used = 0;
    }
  }
  if (row.length > 0) emit(row);
  return items;
}

/** Ruled-line equivalents a written answer gets by its score: what it is given when there is room, and the least. */
export function writtenLines(score: number): { preferred: number; least: number } {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return {
    preferred: clamp(Math.ceil(score / 2) + 1, 3, 14),
    least: clamp(Math.ceil(score / 4) + 1, 3, 8),
  };
}

/**
 * The height of a written box: explicit millimetres, else the lines hint, else whole lines by the score: `scale` 1 gives
 * the preferred lines, 0 the least (the layout shrinks boxes towards the least only to save a page).
 */
function suggestedHeight(q: WrittenQuestion, scale: number): number {
  if (q.heightMm !== undefined) return q.heightMm;
  if (q.lines !== undefined) return M.writtenHeaderH + q.lines * M.writtenLinePitch;
  const { preferred, least } = writtenLines(q.score);
  return M.writtenHeaderH + (least + Math.round((preferred - least) * scale)) * M.writtenLinePitch;
}

export interface ItemContext {
  settings: CardSettings;
  columnW: number;
  /** The tallest a box can be: a whole column without the page header. */
  maxBoxH: number;
  /** How far score-sized boxes stand between their least (0) and preferred (1) lines. */
  scale: number;
  warnings: CardLayoutWarning[];
}

function boxHeight(key: string, suggested: number, label: string, ctx: ItemContext, reserved = 0): number {
  let h = ctx.settings.writtenHeights[key] ?? suggested;
  if (h < MIN_WRITTEN_BOX_MM) {
    ctx.warnings.push({
      code: 'writtenBoxTooSmall',
      questionId: key,
      message: `第${label}题的答题区只有 ${formatScore(h)} 毫米高，不便书写（建议至少 ${MIN_WRITTEN_BOX_MM} 毫米）`,
    });
  }
  if (h + reserved > ctx.maxBoxH) {
    h = ctx.maxBoxH - reserved;
    ctx.warnings.push({
      code: 'writtenBoxTooTall',
      questionId: key,
      message: `第${label}题的答题区高于一栏，已缩为 ${formatScore(Math.floor(h))} 毫米；请减小高度或把题目拆分`,
    });
  }
  return h;
}

function writtenItem(q: Extract<CardQuestion, { kind: 'written' }>, ctx: ItemContext): FlowItem {
  const setting = ctx.settings.scoreBoxes[q.id];
  const plan = setting && planScoreBox(q.id, q.number, q.score, setting, ctx.warnings);
  const strip = plan?.height ?? 0;
  const h = boxHeight(q.id, suggestedHeight(q, ctx.scale), q.number, ctx, strip);
  return {
    height: strip + h,
    place: (x, y, w) => [
      ...(plan ? [placeScoreBox(plan, q, x, y, w)] : []),
      {
        id: `written:${q.id}`,
        type: 'writtenBox',
        rect: rect(x, y + strip, w, h),
        questionIds: [q.id],
        label: `${q.number}. (${formatScore(q.score)}分)`,
        score: q.score,
      },
    ],
  };
}

function optionalItem(
  group: string,
  qs: Extract<CardQuestion, { kind: 'optional' }>[],
  ctx: ItemContext,
): FlowItem {
  const numbers = qs.map((q) => q.number);
  const score = Math.max(...qs.map((q) => q.score));
  const h = boxHeight(
    group,
    Math.max(...qs.map((q) => suggestedHeight(q, ctx.scale))),
    numbers.join('、'),
    ctx,
    M.optionalChoiceH,
  );
  const text = `选做题：请从第${numbers.join('、')}题中任选一题作答，并用2B铅笔将所选题号涂黑。多涂或未涂按所答第一题计分。`;
  return {
    height: M.optionalChoiceH + h,
    place: (x, y, w) => {
      const bubbleW = Math.max(M.bubbleW, ...numbers.map((n) => estimateTextWidthMm(n, FONT.bubble) + 2.4));
      const textH = 6;
      const bubbleY = y + textH + 1.5;
      const choice: CardElementOf<'optionalChoice'> = {
        id: `optional:${group}`,
        type: 'optionalChoice',
        optionalGroup: group,
        rect: rect(x, y, w, M.optionalChoiceH - 1),
        text,
        textRect: rect(x + 1, y, w - 2, textH),
        bubbles: qs.map((q, i) => ({
          questionId: q.id,
          number: q.number,
          rect: rect(x + 12 + i * (bubbleW + 4), bubbleY, bubbleW, M.bubbleH),
        })),
      };
      const box: CardElementOf<'writtenBox'> = {
        id: `written:${group}`,
        type: 'writtenBox',
        rect: rect(x, y + M.optionalChoiceH, w, h),
        questionIds: qs.map((q) => q.id),
        optionalGroup: group,
        label: `选做题 (${formatScore(score)}分)`,
        score,
      };
      return [choice, box];
    },
  };
}

function sectionHeader(index: number, text: string, x: number, y: number, w: number): CardElement {
  return { id: `section:${index}`, type: 'sectionHeader', rect: rect(x, y, w, M.sectionHeaderH), text };
}

/** A section of objective questions only, as a tile: its header over its blocks, all in one row. */
export interface SectionTile {
  w: number;
  h: number;
  place(x: number, y: number): CardElement[];
}

/**
 * The tile of a section whose questions are all objective and whose blocks fit in one row of the column, no wider than
 * its header or its blocks, so that tiles of neighbouring sections can stand side by side; else undefined.
 */
export function objectiveTile(
  section: CardSection,
  index: number,
  ctx: ItemContext,
): SectionTile | undefined {
  const qs = section.questions;
  if (!qs.every(isObjectiveQuestion)) return undefined;
  const size = ctx.settings.objectiveGroupSize;
  const groups: ObjectiveQuestion[][] = [];
  for (let i = 0; i < qs.length; i += size) groups.push(qs.slice(i, i + size));
  const widest = Math.max(...groups.map((g) => blockSize(g).w));
  const inset = M.blockGapX / 2;
  const blocksW = inset + groups.length * widest + (groups.length - 1) * M.blockGapX;
  const w = Math.max(blocksW, estimateTextWidthMm(section.title, FONT.section) + 1);
  if (w > ctx.columnW) return undefined;
  const top = M.sectionHeaderH + M.itemGap;
  return {
    w,
    h: top + Math.max(...groups.map((g) => blockSize(g).h)),
    place: (x, y) => [
      sectionHeader(index, section.title, x, y, w),
      ...groups.map((g, j) => objectiveBlock(g, x + inset + j * (widest + M.blockGapX), y + top)),
    ],
  };
}

/** A section's items in reading order: its header, then its questions (consecutive objective ones in blocks). */
export function sectionItems(section: CardSection, index: number, ctx: ItemContext): FlowItem[] {
  const items: FlowItem[] = [
    {
      height: M.sectionHeaderH,
      keepWithNext: true,
      place: (x, y, w) => [sectionHeader(index, section.title, x, y, w)],
    },
  ];
  const qs = section.questions;
  const doneGroups = new Set<string>();
  let i = 0;
  while (i < qs.length) {
    const q = qs[i]!;
    if (isObjectiveQuestion(q)) {
      let j = i;
      while (j < qs.length && isObjectiveQuestion(qs[j]!)) j++;
      items.push(
        ...objectiveItems(
          qs.slice(i, j) as ObjectiveQuestion[],
          ctx.settings.objectiveGroupSize,
          ctx.columnW,
        ),
      );
      i = j;
    } else if (q.kind === 'blank') {
      let j = i;
      while (j < qs.length && qs[j]!.kind === 'blank') j++;
      items.push(...blankItems(qs.slice(i, j) as Extract<CardQuestion, { kind: 'blank' }>[], ctx.columnW));
      i = j;
    } else if (q.kind === 'written') {
      items.push(writtenItem(q, ctx));
      i++;
    } else {
      if (!doneGroups.has(q.optionalGroup)) {
        doneGroups.add(q.optionalGroup);
        const members = qs.filter(
          (o): o is Extract<CardQuestion, { kind: 'optional' }> =>
            o.kind === 'optional' && o.optionalGroup === q.optionalGroup,
        );
        items.push(optionalItem(q.optionalGroup, members, ctx));
      }
      i++;
    }
  }
  return items;
}
