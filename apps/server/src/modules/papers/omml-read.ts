import { parseDocument } from 'htmlparser2';
import { type ChildNode, type Element, isTag, isText } from 'domhandler';
import { CHAR_TO_COMMAND, FUNCTIONS } from './omml-tex.js';

// An <m:oMath>/<m:oMathPara> element from a teacher's .docx → LaTeX the editor and KaTeX read (see omml.ts).

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
    case 'm:d':
      return delimiterLatex(el);
    case 'm:eqarr':
      return `\\begin{aligned}${rowsLatex(el)}\\end{aligned}`;
    case 'm:m':
      return matrixLatex(el);
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

/** A bracketed group: cases and aligned rows, or the parts between their fences. */
function delimiterLatex(el: Element): string {
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

/** A matrix, row by row. */
function matrixLatex(el: Element): string {
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
