// LaTeX of the bank's formulas as readable linear text for text-only places (booklets): symbols as Unicode
// (× ÷ ≤ √ π ∠ △ …), fractions as a/b, powers and indices as real superscripts and subscripts, letters in italics.
// Unknown commands keep their name, so nothing silently disappears.

import { MATH_SYMBOLS, tokenize, type Token } from './tex.js';

export interface Segment {
  text: string;
  sup?: boolean;
  sub?: boolean;
  italic?: boolean;
}

// Linear text keeps plain spaces where Word equations use typographic ones.
const SYMBOLS: Record<string, string> = {
  ...MATH_SYMBOLS,
  quad: '  ',
  qquad: '    ',
  ',': ' ',
  ';': ' ',
  ':': ' ',
  '\\': ' ',
};
const TEXT_COMMANDS = new Set([
  'text',
  'mathrm',
  'mathbf',
  'mathit',
  'operatorname',
  'textbf',
  'textrm',
  'mbox',
  'rm',
  'boldsymbol',
  'displaystyle',
  'textstyle',
]);
const ACCENTS: Record<string, string> = {
  overline: '\u0305',
  vec: '\u20d7',
  bar: '\u0304',
  hat: '\u0302',
  dot: '\u0307',
  widehat: '\u0302',
  overrightarrow: '\u20d7',
};
const BLACKBOARD: Record<string, string> = { R: 'ℝ', N: 'ℕ', Z: 'ℤ', Q: 'ℚ', C: 'ℂ' };

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek() {
    return this.tokens[this.i];
  }

  done(): boolean {
    return this.i >= this.tokens.length;
  }

  skip(): void {
    this.i += 1;
  }

  /** A sequence up to a closing brace or the end. */
  seq(): Segment[] {
    const out: Segment[] = [];
    for (let t = this.peek(); t && !(t.kind === 'char' && t.ch === '}'); t = this.peek())
      out.push(...this.atom(true));
    return out;
  }

  /** A braced group, or one token. */
  private arg(): Segment[] {
    const t = this.peek();
    if (!t) return [];
    if (t.kind === 'char' && t.ch === '{') {
      this.i++;
      const inner = this.seq();
      this.i++; // the closing brace
      return inner;
    }
    return this.atom(false);
  }

  private optional(): Segment[] | null {
    const t = this.peek();
    if (t?.kind !== 'char' || t.ch !== '[') return null;
    this.i++;
    const out: Segment[] = [];
    for (let n = this.peek(); n && !(n.kind === 'char' && n.ch === ']'); n = this.peek())
      out.push(...this.atom(false));
    this.i++;
    return out;
  }

  private atom(allowScripts: boolean): Segment[] {
    const t = this.tokens[this.i++];
    if (!t) return [];
    if (t.kind === 'char') {
      if (t.ch === '{') {
        const inner = this.seq();
        this.i++;
        return inner;
      }
      if (allowScripts && (t.ch === '^' || t.ch === '_')) {
        const flag = t.ch === '^' ? { sup: true } : { sub: true };
        return this.arg().map((s) => ({ ...s, ...flag }));
      }
      if (t.ch === '~') return [{ text: ' ' }];
      if (/\s/.test(t.ch)) return [];
      if (/[a-zA-Z]/.test(t.ch)) return [{ text: t.ch, italic: true }];
      return [{ text: t.ch === '-' ? '−' : t.ch === '*' ? '×' : t.ch }];
    }
    const name = t.name;
    if (name === 'frac' || name === 'dfrac' || name === 'tfrac') {
      const num = this.arg();
      const den = this.arg();
      return [...group(num), { text: '/' }, ...group(den)];
    }
    if (name === 'sqrt') {
      const index = this.optional();
      const body = this.arg();
      return [...(index ? index.map((s) => ({ ...s, sup: true })) : []), { text: '√' }, ...group(body)];
    }
    if (name === 'left' || name === 'right' || name === 'big' || name === 'Big' || name === 'bigg') {
      const d = this.peek();
      if (d?.kind === 'char') {
        this.i++;
        return d.ch === '.' ? [] : [{ text: d.ch }];
      }
      return [];
    }
    if (name === 'begin') {
      // \begin{cases} a \\ b \end{cases} → { a；b   (rows one after another on the line)
      const env = this.arg()
        .map((s) => s.text)
        .join('');
      const out: Segment[] = env === 'cases' ? [{ text: '{' }] : [];
      for (let n = this.peek(); n && !(n.kind === 'cmd' && n.name === 'end'); n = this.peek()) {
        if (n.kind === 'cmd' && n.name === '\\') {
          this.i++;
          out.push({ text: '；' });
        } else if (n.kind === 'char' && n.ch === '&') {
          this.i++;
          out.push({ text: ' ' });
        } else out.push(...this.atom(true));
      }
      if (this.peek()) {
        this.i++;
        this.arg();
      }
      return out;
    }
    if (TEXT_COMMANDS.has(name)) return this.arg().map((s) => ({ ...s, italic: false }));
    if (name === 'mathbb') return this.arg().map((s) => ({ text: BLACKBOARD[s.text] ?? s.text }));
    if (name in ACCENTS) {
      const mark = ACCENTS[name]!;
      return this.arg().map((s) => ({ ...s, text: [...s.text].map((c) => c + mark).join('') }));
    }
    if (name === 'underline' || name === 'underbrace' || name === 'overbrace') return this.arg();
    if (name in SYMBOLS) return [{ text: SYMBOLS[name]! }];
    return [{ text: name }];
  }
}

/** Wraps a multi-character numerator or denominator in parentheses. */
function group(segments: Segment[]): Segment[] {
  const text = segments.map((s) => s.text).join('');
  if ([...text].length <= 1 || /^[\d.]+$/.test(text) || /^\(.*\)$/.test(text)) return segments;
  return [{ text: '(' }, ...segments, { text: ')' }];
}

/** The formula as runs of text with superscript, subscript and italic flags. */
export function latexToSegments(src: string): Segment[] {
  const parser = new Parser(tokenize(src));
  const out: Segment[] = [];
  // A stray closing brace must not stop the whole formula.
  for (let guard = 0; guard < 1000; guard++) {
    out.push(...parser.seq());
    if (parser.done()) break;
    parser.skip();
  }
  // Merge neighbours with the same flags.
  const merged: Segment[] = [];
  for (const raw of out) {
    if (!raw.text) continue;
    // A degree sign is written ^\circ but printed on the line.
    const s = raw.sup && raw.text === '°' ? { text: '°' } : raw;
    const last = merged.at(-1);
    if (last && !!last.sup === !!s.sup && !!last.sub === !!s.sub && !!last.italic === !!s.italic)
      last.text += s.text;
    else merged.push({ ...s });
  }
  return merged;
}

/** The formula as one plain string (superscripts as ^, subscripts as _), for text-only places. */
export function latexToText(src: string): string {
  return latexToSegments(src)
    .map((s) => (s.sup ? (s.text === '°' ? s.text : `^${s.text}`) : s.sub ? `_${s.text}` : s.text))
    .join('');
}
