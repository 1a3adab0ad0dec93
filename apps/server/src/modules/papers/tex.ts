// The LaTeX the bank writes formulas in, as the Word converters (omml.ts) and the linear-text renderer (latex.ts)
// read it: one symbol table and one tokenizer.

/** LaTeX commands that stand for one character (or a space), as Word equations and linear text write them. */
export const MATH_SYMBOLS: Record<string, string> = {
  times: '×',
  div: '÷',
  pm: '±',
  mp: '∓',
  cdot: '·',
  le: '≤',
  leq: '≤',
  leqslant: '≤',
  ge: '≥',
  geq: '≥',
  geqslant: '≥',
  ne: '≠',
  neq: '≠',
  approx: '≈',
  equiv: '≡',
  sim: '∼',
  cong: '≌',
  backsim: '∽',
  infty: '∞',
  pi: 'π',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  Delta: 'Δ',
  theta: 'θ',
  lambda: 'λ',
  mu: 'μ',
  rho: 'ρ',
  sigma: 'σ',
  Sigma: 'Σ',
  phi: 'φ',
  varphi: 'φ',
  omega: 'ω',
  Omega: 'Ω',
  eta: 'η',
  epsilon: 'ε',
  varepsilon: 'ε',
  angle: '∠',
  triangle: '△',
  parallel: '∥',
  perp: '⊥',
  circ: '°',
  degree: '°',
  because: '∵',
  therefore: '∴',
  in: '∈',
  notin: '∉',
  cup: '∪',
  cap: '∩',
  subset: '⊂',
  subseteq: '⊆',
  supset: '⊃',
  emptyset: '∅',
  varnothing: '∅',
  rightarrow: '→',
  to: '→',
  leftarrow: '←',
  Rightarrow: '⇒',
  Leftarrow: '⇐',
  Leftrightarrow: '⇔',
  iff: '⇔',
  cdots: '⋯',
  ldots: '…',
  dots: '…',
  prime: '′',
  square: '□',
  vdots: '⋮',
  neg: '¬',
  ast: '∗',
  odot: '⊙',
  forall: '∀',
  exists: '∃',
  lt: '<',
  gt: '>',
  mid: '|',
  vert: '|',
  Vert: '‖',
  lbrace: '{',
  rbrace: '}',
  langle: '⟨',
  rangle: '⟩',
  quad: '\u2003',
  qquad: '\u2003\u2003',
  ' ': ' ',
  ',': '\u2009',
  ';': '\u2005',
  ':': '\u2005',
  '!': '',
  '%': '%',
  '{': '{',
  '}': '}',
  $: '$',
  '#': '#',
  '&': '&',
  _: '_',
};

export type Token = { kind: 'cmd'; name: string } | { kind: 'char'; ch: string };

/** LaTeX as commands (\\frac, \\,) and single characters. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === '\\') {
      const m = /^[a-zA-Z]+/.exec(src.slice(i + 1));
      if (m) {
        out.push({ kind: 'cmd', name: m[0] });
        i += m[0].length;
      } else if (i + 1 < src.length) {
        out.push({ kind: 'cmd', name: src[i + 1]! });
        i += 1;
      }
    } else out.push({ kind: 'char', ch });
  }
  return out;
}
