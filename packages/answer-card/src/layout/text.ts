import { ptToMm } from './metrics.js';

/** Ideographs, kana, CJK punctuation and full-width forms take a full em; everything else at most 0.62 em. */
function isWide(code: number): boolean {
  return code >= 0x2e80 && code <= 0x9fff
    ? true
    : code >= 0xf900 && code <= 0xfaff
      ? true
      : code >= 0xff00 && code <= 0xffef;
}

/** A conservative width of `text` at `sizePt` in the card's CJK font, in millimetres (no font needed). */
export function estimateTextWidthMm(text: string, sizePt: number): number {
  let em = 0;
  for (const ch of text) em += isWide(ch.codePointAt(0) ?? 0) ? 1 : 0.62;
  return em * ptToMm(sizePt);
}

const NO_LINE_START = new Set('，。、；：？！）》」』】,.;:?!)'.split(''));

/** Wraps `text` to lines no wider than `widthMm`; CJK breaks anywhere, but never before closing punctuation. */
export function wrapText(text: string, sizePt: number, widthMm: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of text) {
    const candidate = line + ch;
    if (line && estimateTextWidthMm(candidate, sizePt) > widthMm && !NO_LINE_START.has(ch)) {
      lines.push(line);
      line = ch;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}
