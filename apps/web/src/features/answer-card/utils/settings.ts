import {
  CARD_COLUMNS,
  type CardElementOf,
  type CardLayoutWarning,
  type CardSettings,
  type CardSize,
} from '@zhzy/contracts';

/** The schema's bounds of a written box's height, in millimetres. */
export const BOX_MIN_MM = 10;
export const BOX_MAX_MM = 400;
/** One arrow key press moves a box's bottom edge this far. */
export const KEY_STEP_MM = 2;

/** The `writtenHeights` key of a box: its optional group, else its one question. */
export const boxKey = (e: CardElementOf<'writtenBox'>): string => e.optionalGroup ?? e.questionIds[0]!;

/** A height within the schema's bounds, to the whole millimetre. */
export const clampHeight = (mm: number): number => Math.min(BOX_MAX_MM, Math.max(BOX_MIN_MM, Math.round(mm)));

/** The columns a size allows; the current count is kept when the new size allows it, else the size's default. */
export function withSize(settings: CardSettings, size: CardSize): CardSettings {
  const allowed = CARD_COLUMNS[size];
  const columns = settings.columns && allowed.includes(settings.columns) ? settings.columns : allowed[0];
  return { ...settings, size, columns };
}

/** The columns in effect (the saved value, or the size's default). */
export const columnsOf = (settings: CardSettings): 1 | 2 | 3 =>
  settings.columns ?? CARD_COLUMNS[settings.size][0]!;

/** A canonical text of the settings, so equal settings compare equal whatever their key order. */
export function settingsKey(s: CardSettings): string {
  const heights = Object.keys(s.writtenHeights)
    .sort()
    .map((k) => [k, s.writtenHeights[k]]);
  const boxes = Object.keys(s.scoreBoxes)
    .sort()
    .map((k) => [k, s.scoreBoxes[k]!.kind, s.scoreBoxes[k]!.half]);
  return JSON.stringify([
    s.size,
    columnsOf(s),
    s.identity,
    s.studentNumberDigits,
    s.objectiveGroupSize,
    s.maxPages,
    s.sealingLine,
    heights,
    boxes,
  ]);
}

/** Warnings that name a box, by its key. */
export function warningsByBox(warnings: CardLayoutWarning[]): Map<string, CardLayoutWarning[]> {
  const out = new Map<string, CardLayoutWarning[]>();
  for (const w of warnings) {
    if (!w.questionId) continue;
    out.set(w.questionId, [...(out.get(w.questionId) ?? []), w]);
  }
  return out;
}

/** The question number a box is labelled with ('13' of '13. (12分)'), null for an optional group's shared box. */
export const boxNumber = (e: CardElementOf<'writtenBox'>): string | null =>
  e.optionalGroup ? null : e.label.replace(/\.\s*\(.*$/, '');
