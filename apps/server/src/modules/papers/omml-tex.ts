import { MATH_SYMBOLS, tokenize, type Token } from './tex.js';

// The bank's LaTeX (the KaTeX subset questions are written in) read into a tree of math nodes, which omml.ts writes
// as Word's native equations; and the names both directions share (the command of each symbol, the functions).

export type MathNode =
  | { kind: 'text'; text: string; plain?: boolean }
  | { kind: 'frac'; num: MathNode[]; den: MathNode[] }
  | { kind: 'sqrt'; index: MathNode[] | null; body: MathNode[] }
  | { kind: 'script'; base: MathNode[]; sup: MathNode[] | null; sub: MathNode[] | null }
  | { kind: 'delim'; open: string; close: string; body: MathNode[] }
  | { kind: 'rows'; open: string; close: string; rows: MathNode[][] }
  | { kind: 'accent'; chr: string; body: MathNode[] }
  | { kind: 'bar'; pos: 'top' | 'bot'; body: MathNode[] };

/** The command each character is read back as (the first name listed above wins). */
export const CHAR_TO_COMMAND: Record<string, string> = (() => {
  const out: Record<string, string> = {};
  for (const [name, chr] of Object.entries(MATH_SYMBOLS)) {
    if ([...chr].length !== 1 || /[a-zA-Z0-9 ]/.test(chr) || chr in out) continue;
    if (
      /^[a-zA-Z]+$/.test(name) ||
      chr === '{' ||
      chr === '}' ||
      chr === '%' ||
      chr === '#' ||
      chr === '&' ||
      chr === '$' ||
      chr === '_'
    )
      out[chr] = name;
  }
  // Characters that are fine as they are in LaTeX.
  for (const plain of ['<', '>', '|']) delete out[plain];
  out['\u2003'] = 'quad';
  out['\u2009'] = ',';
  out['\u2005'] = ';';
  out['−'] = '-';
  out['≅'] = 'cong';
  return out;
})();

const TEXT_COMMANDS = new Set(['text', 'mathrm', 'textrm', 'mbox', 'textbf', 'mathbf', 'operatorname', 'rm']);
const STYLE_COMMANDS = new Set(['displaystyle', 'textstyle', 'boldsymbol', 'mathit', 'limits', 'nolimits']);
export const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'cot', 'log', 'ln', 'lg', 'exp', 'max', 'min', 'lim']);
const ACCENTS: Record<string, string> = {
  vec: '\u20d7',
  overrightarrow: '\u20d7',
  hat: '\u0302',
  widehat: '\u0302',
  dot: '\u0307',
  tilde: '\u0303',
  bar: '\u0304',
};
const BLACKBOARD: Record<string, string> = { R: 'ℝ', N: 'ℕ', Z: 'ℤ', Q: 'ℚ', C: 'ℂ' };
const BIG_OPS: Record<string, string> = { sum: '∑', prod: '∏', int: '∫' };

const isChar = (t: Token | undefined, ch: string) => t?.kind === 'char' && t.ch === ch;
const isCmd = (t: Token | undefined, name: string) => t?.kind === 'cmd' && t.name === name;

/** Where the base of a power starts: a whole number (12²), a bracketed group ((−2)³) or the last atom. */
function baseStart(out: MathNode[]): number {
  const textAt = (k: number) => {
    const n = out[k];
    return n?.kind === 'text' && !n.plain ? n.text : null;
  };
  let k = out.length - 1;
  if (k < 0) return 0;
  if (textAt(k) === ')') {
    let depth = 0;
    for (; k >= 0; k--) {
      const t = textAt(k);
      if (t === ')') depth++;
      if (t === '(' && --depth === 0) return k;
    }
    return out.length - 1;
  }
  if (/^[\d.]$/.test(textAt(k) ?? '')) {
    while (k > 0 && /^[\d.]$/.test(textAt(k - 1) ?? '')) k--;
    return k;
  }
  return k;
}

class LatexParser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  get done(): boolean {
    return this.i >= this.tokens.length;
  }

  skip(): void {
    this.i += 1;
  }

  /** Nodes up to a closing brace, `stop` command, `&` or `\\` (when in rows), or the end. */
  seq(stop: (t: Token) => boolean = () => false): MathNode[] {
    const out: MathNode[] = [];
    for (let t = this.tokens[this.i]; t && !isChar(t, '}') && !stop(t); t = this.tokens[this.i]) {
      if (isChar(t, '^') || isChar(t, '_')) {
        const upper = isChar(t, '^');
        this.i++;
        const script = this.arg();
        const last = out.at(-1);
        // x_1^2: the second script joins the first one's node.
        let target = last?.kind === 'script' && (upper ? last.sup === null : last.sub === null) ? last : null;
        if (!target) {
          target = { kind: 'script', base: out.splice(baseStart(out)), sup: null, sub: null };
          out.push(target);
        }
        if (upper) target.sup = script;
        else target.sub = script;
        continue;
      }
      out.push(...this.atom());
    }
    return out;
  }

  /** A braced group or a single atom. */
  private arg(): MathNode[] {
    const t = this.tokens[this.i];
    if (!t) return [];
    if (isChar(t, '{')) {
      this.i++;
      const inner = this.seq();
      this.i++;
      return inner;
    }
    return this.atom();
  }

  private rawArg(): string {
    const t = this.tokens[this.i];
    if (!isChar(t, '{')) {
      this.i++;
      return t ? (t.kind === 'char' ? t.ch : t.name) : '';
    }
    this.i++;
    let out = '';
    let depth = 0;
    for (let n = this.tokens[this.i]; n; n = this.tokens[++this.i]) {
      if (isChar(n, '}') && depth === 0) break;
      if (isChar(n, '{')) depth++;
      if (isChar(n, '}')) depth--;
      out += n.kind === 'char' ? n.ch : n.name.length === 1 ? n.name : `\\${n.name} `;
    }
    this.i++;
    return out;
  }

  private optional(): MathNode[] | null {
    if (!isChar(this.tokens[this.i], '[')) return null;
    this.i++;
    const out = this.seq((t) => isChar(t, ']'));
    this.i++;
    return out;
  }

  private delimiter(): string {
    const d = this.tokens[this.i++];
    if (!d) return '';
    if (d.kind === 'char') return d.ch === '.' ? '' : d.ch;
    return MATH_SYMBOLS[d.name] ?? '';
  }

  /** \begin{env} … \end{env}: rows split by \\ and cells by &, fenced as the environment is. */
  private environment(): MathNode[] {
    const env = this.rawArg().trim();
    if (env === 'array') this.rawArg();
    const rows: MathNode[][] = [];
    let row: MathNode[] = [];
    while (!this.done && !isCmd(this.tokens[this.i], 'end')) {
      const n = this.tokens[this.i]!;
      if (isCmd(n, '\\')) {
        this.i++;
        rows.push(row);
        row = [];
      } else if (isChar(n, '&')) {
        this.i++;
        row.push({ kind: 'text', text: '\u2003' });
      } else if (isChar(n, '}')) this.i++;
      else row.push(...this.seq((x) => isCmd(x, '\\') || isChar(x, '&') || isCmd(x, 'end')));
    }
    if (row.length > 0) rows.push(row);
    if (!this.done) {
      this.i++;
      this.rawArg();
    }
    const fences: Record<string, [string, string]> = {
      cases: ['{', ''],
      pmatrix: ['(', ')'],
      bmatrix: ['[', ']'],
      vmatrix: ['|', '|'],
    };
    const [open, close] = fences[env] ?? ['', ''];
    return [{ kind: 'rows', open, close, rows }];
  }

  private atom(): MathNode[] {
    const t = this.tokens[this.i++];
    if (!t) return [];
    if (t.kind === 'char') {
      if (t.ch === '{') {
        const inner = this.seq();
        this.i++;
        return inner;
      }
      if (t.ch === '~') return [{ kind: 'text', text: '\u00a0' }];
      if (/\s/.test(t.ch)) return [];
      return [{ kind: 'text', text: t.ch === '-' ? '−' : t.ch === '*' ? '∗' : t.ch }];
    }
    const name = t.name;
    if (name === 'frac' || name === 'dfrac' || name === 'tfrac') {
      const num = this.arg();
      const den = this.arg();
      return [{ kind: 'frac', num, den }];
    }
    if (name === 'sqrt') {
      const index = this.optional();
      return [{ kind: 'sqrt', index, body: this.arg() }];
    }
    if (name === 'left') {
      const open = this.delimiter();
      const body = this.seq((n) => isCmd(n, 'right'));
      let close = '';
      if (isCmd(this.tokens[this.i], 'right')) {
        this.i++;
        close = this.delimiter();
      }
      return [{ kind: 'delim', open, close, body }];
    }
    if (name === 'right') {
      this.delimiter();
      return [];
    }
    if (
      name === 'big' ||
      name === 'Big' ||
      name === 'bigg' ||
      name === 'Bigg' ||
      name === 'bigl' ||
      name === 'bigr'
    ) {
      const d = this.delimiter();
      return d ? [{ kind: 'text', text: d }] : [];
    }
    if (name === 'begin') return this.environment();
    if (TEXT_COMMANDS.has(name))
      return [{ kind: 'text', text: this.rawArg().replace(/\\ /g, ' '), plain: true }];
    if (STYLE_COMMANDS.has(name)) return [];
    if (name === 'mathbb') {
      const letter = this.rawArg();
      return [{ kind: 'text', text: BLACKBOARD[letter] ?? letter }];
    }
    if (name === 'overline' || name === 'underline') {
      return [{ kind: 'bar', pos: name === 'overline' ? 'top' : 'bot', body: this.arg() }];
    }
    if (name in ACCENTS) return [{ kind: 'accent', chr: ACCENTS[name]!, body: this.arg() }];
    if (FUNCTIONS.has(name)) return [{ kind: 'text', text: name, plain: true }];
    if (name in BIG_OPS) return [{ kind: 'text', text: BIG_OPS[name]! }];
    if (name === '\\') return [{ kind: 'text', text: ' ' }];
    if (name in MATH_SYMBOLS) {
      const text = MATH_SYMBOLS[name]!;
      return text ? [{ kind: 'text', text }] : [];
    }
    return [{ kind: 'text', text: name, plain: true }];
  }
}

export function parseLatex(src: string): MathNode[] {
  const parser = new LatexParser(tokenize(src));
  const out: MathNode[] = [];
  // A stray closing brace must not stop the whole formula.
  for (let guard = 0; guard < 1000 && !parser.done; guard++) {
    out.push(...parser.seq());
    if (!parser.done) parser.skip();
  }
  return out;
}
