import { parseDocument } from 'htmlparser2';
import { type ChildNode, type Element, isTag, isText } from 'domhandler';
import { MATH_SYMBOLS, tokenize, type Token } from './tex.js';

// Word's native equations (Office Math Markup, OMML) both ways, as pure functions:
//   latexToOmml  — the bank's LaTeX (the KaTeX subset questions are written in) → an <m:oMath> element
//   ommlToLatex  — an <m:oMath>/<m:oMathPara> element from a teacher's .docx → LaTeX the editor and KaTeX read
// Fractions, roots, powers and indices, brackets, systems (cases), accents, n-ary operators and functions are
// real structures, so Word shows ½ as a stacked fraction and a teacher can edit it with Word's equation tools.

// ───────────────────────── LaTeX → tree ─────────────────────────

type MathNode =
  | { kind: 'text'; text: string; plain?: boolean }
  | { kind: 'frac'; num: MathNode[]; den: MathNode[] }
  | { kind: 'sqrt'; index: MathNode[] | null; body: MathNode[] }
  | { kind: 'script'; base: MathNode[]; sup: MathNode[] | null; sub: MathNode[] | null }
  | { kind: 'delim'; open: string; close: string; body: MathNode[] }
  | { kind: 'rows'; open: string; close: string; rows: MathNode[][] }
  | { kind: 'accent'; chr: string; body: MathNode[] }
  | { kind: 'bar'; pos: 'top' | 'bot'; body: MathNode[] };

/** The command each character is read back as (the first name listed above wins). */
const CHAR_TO_COMMAND: Record<string, string> = (() => {
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
const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'cot', 'log', 'ln', 'lg', 'exp', 'max', 'min', 'lim']);
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
    if (name === 'begin') {
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

function parseLatex(src: string): MathNode[] {
  const parser = new LatexParser(tokenize(src));
  const out: MathNode[] = [];
  // A stray closing brace must not stop the whole formula.
  for (let guard = 0; guard < 1000 && !parser.done; guard++) {
    out.push(...parser.seq());
    if (!parser.done) parser.skip();
  }
  return out;
}

// ───────────────────────── tree → OMML ─────────────────────────

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const MATH_FONT = '<w:rPr><w:rFonts w:ascii="Cambria Math" w:hAnsi="Cambria Math"/></w:rPr>';
const CJK_FONT = '<w:rPr><w:rFonts w:ascii="Cambria Math" w:hAnsi="Cambria Math" w:eastAsia="宋体"/></w:rPr>';

function run(text: string, plain = false): string {
  const cjk = /[\u3000-\u9fff\uff00-\uffef]/.test(text);
  const props = plain || cjk ? '<m:rPr><m:sty m:val="p"/></m:rPr>' : '';
  return `<m:r>${props}${cjk ? CJK_FONT : MATH_FONT}<m:t xml:space="preserve">${xmlEscape(text)}</m:t></m:r>`;
}

function ommlOf(nodes: MathNode[]): string {
  let out = '';
  let pending = '';
  const flush = () => {
    if (pending) out += run(pending);
    pending = '';
  };
  for (const n of nodes) {
    if (n.kind === 'text' && !n.plain) {
      pending += n.text;
      continue;
    }
    flush();
    out += nodeOmml(n);
  }
  flush();
  return out;
}

const e = (nodes: MathNode[]) => `<m:e>${ommlOf(nodes)}</m:e>`;

function nodeOmml(n: MathNode): string {
  switch (n.kind) {
    case 'text':
      return run(n.text, n.plain);
    case 'frac':
      return `<m:f><m:num>${ommlOf(n.num)}</m:num><m:den>${ommlOf(n.den)}</m:den></m:f>`;
    case 'sqrt':
      return n.index && n.index.length > 0
        ? `<m:rad><m:deg>${ommlOf(n.index)}</m:deg>${e(n.body)}</m:rad>`
        : `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/>${e(n.body)}</m:rad>`;
    case 'script':
      if (n.sup && n.sub)
        return `<m:sSubSup>${e(n.base)}<m:sub>${ommlOf(n.sub)}</m:sub><m:sup>${ommlOf(n.sup)}</m:sup></m:sSubSup>`;
      if (n.sup) return `<m:sSup>${e(n.base)}<m:sup>${ommlOf(n.sup)}</m:sup></m:sSup>`;
      return `<m:sSub>${e(n.base)}<m:sub>${ommlOf(n.sub ?? [])}</m:sub></m:sSub>`;
    case 'delim':
      return `<m:d><m:dPr><m:begChr m:val="${xmlEscape(n.open)}"/><m:endChr m:val="${xmlEscape(n.close)}"/></m:dPr>${e(n.body)}</m:d>`;
    case 'rows': {
      const arr = `<m:eqArr>${n.rows.map((r) => e(r)).join('')}</m:eqArr>`;
      if (!n.open && !n.close) return arr;
      return `<m:d><m:dPr><m:begChr m:val="${xmlEscape(n.open)}"/><m:endChr m:val="${xmlEscape(n.close)}"/></m:dPr><m:e>${arr}</m:e></m:d>`;
    }
    case 'accent':
      return `<m:acc><m:accPr><m:chr m:val="${n.chr}"/></m:accPr>${e(n.body)}</m:acc>`;
    case 'bar':
      return `<m:bar><m:barPr><m:pos m:val="${n.pos}"/></m:barPr>${e(n.body)}</m:bar>`;
  }
}

/** The formula as one <m:oMath> element (namespace prefix m:, declared by the document). */
export function latexToOmml(latex: string): string {
  return `<m:oMath>${ommlOf(parseLatex(latex))}</m:oMath>`;
}

// ───────────────────────── OMML → LaTeX ─────────────────────────

const ACCENT_COMMANDS: Record<string, string> = {
  '\u20d7': 'vec',
  '\u2192': 'vec',
  '\u0302': 'hat',
  '^': 'hat',
  '\u0307': 'dot',
  '\u0303': 'tilde',
  '\u0304': 'bar',
  '\u0305': 'overline',
  '\u00af': 'overline',
};
const NARY_COMMANDS: Record<string, string> = {
  '∑': 'sum',
  '∏': 'prod',
  '∫': 'int',
  '∬': 'iint',
  '∮': 'oint',
};

const children = (el: Element) => el.children.filter(isTag);
const child = (el: Element, name: string) => children(el).find((c) => c.name === name);
const prop = (el: Element, props: string, name: string): string | undefined => {
  const pr = child(el, props);
  const p = pr && child(pr, name);
  return p?.attribs['m:val'];
};

function textOfRun(el: Element): string {
  let out = '';
  const walk = (nodes: ChildNode[]) => {
    for (const n of nodes) {
      if (isText(n)) out += n.data;
      else if (isTag(n) && n.name !== 'm:rpr' && n.name !== 'w:rpr') walk(n.children);
    }
  };
  walk(children(el).filter((c) => c.name === 'm:t' || c.name === 'w:t'));
  return out;
}

/** Text of a run as LaTeX: symbols become commands, CJK or plain-styled words go in \text{}. */
function runLatex(text: string, plain: boolean): string {
  if (!text) return '';
  if (plain && /^[a-zA-Z]{2,}$/.test(text) && FUNCTIONS.has(text)) return `\\${text} `;
  let out = '';
  let words = '';
  const flushWords = () => {
    if (words) out += `\\text{${words}}`;
    words = '';
  };
  for (const ch of text) {
    if (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) || (plain && /[a-zA-Z]/.test(ch) && text.length > 1)) {
      words += ch;
      continue;
    }
    flushWords();
    const cmd = CHAR_TO_COMMAND[ch];
    if (cmd === '-') out += '-';
    else if (cmd === undefined) out += ch === '\u00a0' ? '~' : ch;
    else if (/^[a-zA-Z]+$/.test(cmd)) out += `\\${cmd} `;
    else out += `\\${cmd}`;
  }
  flushWords();
  return out;
}

/** Wraps a script base or argument in braces unless it is one character or one command. */
function braced(latex: string): string {
  const t = latex.trim();
  if (/^[a-zA-Z0-9]$/.test(t) || /^\\[a-zA-Z]+$/.test(t)) return t;
  return `{${t}}`;
}

function latexOf(nodes: ChildNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (!isTag(n)) continue;
    const piece = elementLatex(n);
    // A command followed by a letter needs its space; otherwise spaces after commands are dropped.
    out = out.replace(/(\\[a-zA-Z]+) $/, (m0, cmd: string) => (/^[a-zA-Z]/.test(piece) ? m0 : cmd)) + piece;
  }
  return out;
}

const inner = (el: Element | undefined) =>
  el
    ? latexOf(el.children)
        .trim()
        .replace(/(\\[a-zA-Z]+) $/, '$1')
    : '';

function elementLatex(el: Element): string {
  switch (el.name) {
    case 'm:r': {
      const rpr = child(el, 'm:rpr');
      const plain = !!rpr && (child(rpr, 'm:nor') !== undefined || prop(el, 'm:rpr', 'm:sty') === 'p');
      return runLatex(textOfRun(el), plain);
    }
    case 'm:f': {
      const num = inner(child(el, 'm:num'));
      const den = inner(child(el, 'm:den'));
      return prop(el, 'm:fpr', 'm:type') === 'lin'
        ? `${braced(num)}/${braced(den)}`
        : `\\frac{${num}}{${den}}`;
    }
    case 'm:rad': {
      const hidden = ['1', 'on', 'true'].includes(prop(el, 'm:radpr', 'm:deghide') ?? '');
      const deg = hidden ? '' : inner(child(el, 'm:deg'));
      return deg ? `\\sqrt[${deg}]{${inner(child(el, 'm:e'))}}` : `\\sqrt{${inner(child(el, 'm:e'))}}`;
    }
    case 'm:ssup':
      return `${braced(inner(child(el, 'm:e')))}^${braced(inner(child(el, 'm:sup')))}`;
    case 'm:ssub':
      return `${braced(inner(child(el, 'm:e')))}_${braced(inner(child(el, 'm:sub')))}`;
    case 'm:ssubsup':
      return `${braced(inner(child(el, 'm:e')))}_${braced(inner(child(el, 'm:sub')))}^${braced(inner(child(el, 'm:sup')))}`;
    case 'm:spre':
      return `{}_${braced(inner(child(el, 'm:sub')))}^${braced(inner(child(el, 'm:sup')))}${inner(child(el, 'm:e'))}`;
    case 'm:d': {
      const open = prop(el, 'm:dpr', 'm:begchr') ?? '(';
      const close = prop(el, 'm:dpr', 'm:endchr') ?? ')';
      const sep = prop(el, 'm:dpr', 'm:sepchr') ?? '|';
      const parts = children(el).filter((c) => c.name === 'm:e');
      const only = parts.length === 1 ? children(parts[0]!) : [];
      const arr = only.length === 1 && only[0]!.name === 'm:eqarr' ? only[0]! : null;
      if (arr && open === '{' && !close) return `\\begin{cases}${rowsLatex(arr)}\\end{cases}`;
      if (arr && !open && close === '}')
        return `\\left.${`\\begin{aligned}${rowsLatex(arr)}\\end{aligned}`}\\right\\}`;
      const body = parts.map((p) => inner(p)).join(sep);
      const fence = (c: string, side: 'left' | 'right') => {
        if (!c) return `\\${side}.`;
        if (c === '{' || c === '}') return `\\${side}\\${c}`;
        const cmd = CHAR_TO_COMMAND[c];
        return cmd && /^[a-zA-Z]+$/.test(cmd) ? `\\${side}\\${cmd} ` : `\\${side}${c}`;
      };
      return `${fence(open, 'left')}${body}${fence(close, 'right')}`;
    }
    case 'm:eqarr':
      return `\\begin{aligned}${rowsLatex(el)}\\end{aligned}`;
    case 'm:m': {
      const rows = children(el)
        .filter((c) => c.name === 'm:mr')
        .map((r) =>
          children(r)
            .filter((c) => c.name === 'm:e')
            .map((c) => inner(c))
            .join(' & '),
        );
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    case 'm:acc': {
      const chr = prop(el, 'm:accpr', 'm:chr') ?? '\u0302';
      return `\\${ACCENT_COMMANDS[chr] ?? 'hat'}{${inner(child(el, 'm:e'))}}`;
    }
    case 'm:bar':
      return `\\${prop(el, 'm:barpr', 'm:pos') === 'top' ? 'overline' : 'underline'}{${inner(child(el, 'm:e'))}}`;
    case 'm:groupchr':
      return `\\underbrace{${inner(child(el, 'm:e'))}}`;
    case 'm:nary': {
      const chr = prop(el, 'm:narypr', 'm:chr') ?? '∫';
      const sub = inner(child(el, 'm:sub'));
      const sup = inner(child(el, 'm:sup'));
      const op = NARY_COMMANDS[chr] ? `\\${NARY_COMMANDS[chr]}` : chr;
      return `${op}${sub ? `_${braced(sub)}` : ''}${sup ? `^${braced(sup)}` : ''} ${inner(child(el, 'm:e'))}`;
    }
    case 'm:func': {
      const name = inner(child(el, 'm:fname'))
        .replace(/^\\text\{(.*)\}$/, '$1')
        .replace(/^\\/, '');
      const fn = FUNCTIONS.has(name) ? `\\${name}` : `\\operatorname{${name}}`;
      return `${fn} ${inner(child(el, 'm:e'))}`;
    }
    case 'm:limlow':
      return `${braced(inner(child(el, 'm:e')))}_${braced(inner(child(el, 'm:lim')))}`;
    case 'm:limupp':
      return `${braced(inner(child(el, 'm:e')))}^${braced(inner(child(el, 'm:lim')))}`;
    case 'w:r':
      return runLatex(textOfRun(el), true);
    case 'm:rpr':
    case 'w:rpr':
    case 'm:ctrlpr':
    case 'm:ompararpr':
    case 'm:omathparapr':
      return '';
    default:
      if (el.name.endsWith('pr')) return '';
      return latexOf(el.children);
  }
}

function rowsLatex(arr: Element): string {
  return children(arr)
    .filter((c) => c.name === 'm:e')
    .map((r) => inner(r))
    .join(' \\\\ ');
}

/** LaTeX of one <m:oMath> or <m:oMathPara> element's XML. */
export function ommlToLatex(xml: string): string {
  const doc = parseDocument(xml, { xmlMode: true });
  // Element names compared in lower case (m:sSup → m:ssup), whatever the writer's spelling.
  const lower = (nodes: ChildNode[]) => {
    for (const n of nodes) {
      if (!isTag(n)) continue;
      n.name = n.name.toLowerCase();
      lower(n.children);
    }
  };
  lower(doc.children);
  return latexOf(doc.children)
    .trim()
    .replace(/(\\[a-zA-Z]+) $/, '$1');
}
