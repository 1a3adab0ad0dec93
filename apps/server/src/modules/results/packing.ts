import { z } from 'zod';

// Packed answers (ADR 0033, ADR 0037): a sheet's answers as one JSON array in `sheets.answers_packed`, so analysis
// decodes one row per sheet instead of one per answer. Only the results spine writes packs; readers get them
// decoded through `readPack` and `forEachPacked`, never their layout.

/** What a packed answer holds: what analysis reads of an answer. */
export interface PackableAnswer {
  questionId: string;
  scoreTenths: number | null;
  response: string | null;
  blank: boolean;
  cropPath: string | null;
}

/**
 * A sheet's `answers_packed` as parsed: its questions' key, then per question in the pack layout's order a code
 * (score and flags) and a response.
 */
export type PackedSheet = readonly (string | number | null)[];

const PackedSheetSchema = z.array(z.union([z.string(), z.number(), z.null()]));

/** Code-unit order of question ids: the order of a pack's entries. */
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The key of a set of question ids (ADR 0037): their count and a 32-bit FNV-1a hash of the ids in code-unit order,
 * one newline after each. A pack starts with the key of the questions it holds; a reader takes a pack only when its
 * key is the key of the paper's questions, so entries without their ids still land on the right questions.
 */
export function packKey(questionIds: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const id of [...questionIds].sort(byId)) {
    for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 10, 0x01000193);
  }
  return `${questionIds.length}.${(h >>> 0).toString(36)}`;
}

/** Where a paper's questions sit in a pack: their key, and for each entry of a pack the question's paper index. */
export interface PackLayout {
  key: string;
  /** Entry j of a pack is the answer to question `order[j]` of the paper (paper order). */
  order: Int32Array;
}

/** The pack layout of a paper's questions (question ids in paper order, each once). */
export function packLayout(questionIds: readonly string[]): PackLayout {
  const order = questionIds.map((_, i) => i).sort((a, b) => byId(questionIds[a]!, questionIds[b]!));
  return { key: packKey(questionIds), order: Int32Array.from(order) };
}

/** Flags of a packed answer's code (the low two bits), also the flags `forEachPacked` reports. */
export const PACKED_CROP = 1;
export const PACKED_BLANK = 2;

/**
 * One answer's score and flags as one number: `(score in tenths + 1) × 4`, 0 for no score, plus 2 when blank and 1
 * when it has a crop. The score is `(code >> 2) - 1` tenths (none when the code is below 4).
 */
export const packedCode = (a: PackableAnswer): number =>
  (a.scoreTenths === null ? 0 : (a.scoreTenths + 1) * 4) +
  (a.blank ? PACKED_BLANK : 0) +
  (a.cropPath === null ? 0 : PACKED_CROP);

/**
 * A sheet's answers as `sheets.answers_packed` (migration 0025, ADR 0037): a JSON array
 * `[key, code, response | null, code, response | null, …]` — the key of the sheet's question ids (`packKey`), then
 * two entries per answer in question-id order (code-unit order, no ids): its `packedCode` and its response.
 */
export function packAnswers(answers: readonly PackableAnswer[]): string {
  const sorted = [...answers].sort((a, b) => byId(a.questionId, b.questionId));
  const out: (string | number | null)[] = [packKey(sorted.map((a) => a.questionId))];
  for (const a of sorted) out.push(packedCode(a), a.response);
  return JSON.stringify(out);
}

/**
 * A stored pack when it is a pack of exactly the layout's questions (its key, one entry pair per question); null
 * otherwise (none written yet, or written for other questions), and the reader falls back to the answer rows.
 */
export function readPack(text: string | null, layout: PackLayout): PackedSheet | null {
  if (!text?.startsWith(`[${JSON.stringify(layout.key)},`)) return null;
  const parsed = PackedSheetSchema.safeParse(JSON.parse(text));
  if (!parsed.success || parsed.data.length !== 1 + 2 * layout.order.length) return null;
  return parsed.data;
}

/**
 * Every answer of a pack read by `readPack`: `fn(question index in paper order, score in tenths or null, flags
 * (PACKED_CROP | PACKED_BLANK), response)`.
 */
export function forEachPacked(
  pack: PackedSheet,
  layout: PackLayout,
  fn: (question: number, scoreTenths: number | null, flags: number, response: string | null) => void,
): void {
  const order = layout.order;
  for (let j = 0; j < order.length; j += 1) {
    const code = pack[1 + 2 * j] as number;
    fn(order[j]!, code < 4 ? null : (code >> 2) - 1, code & 3, pack[2 + 2 * j] as string | null);
  }
}
