import { WORD_FONTS } from '../../i18n/paper-word.js';
import { parseLatex, type MathNode } from './omml-tex.js';

// Word's native equations (Office Math Markup, OMML) both ways, as pure functions:
//   latexToOmml  — the bank's LaTeX (the KaTeX subset questions are written in) → an <m:oMath> element
//   ommlToLatex  — an <m:oMath>/<m:oMathPara> element from a teacher's .docx → LaTeX the editor and KaTeX read
// Fractions, roots, powers and indices, brackets, systems (cases), accents, n-ary operators and functions are
// real structures, so Word shows ½ as a stacked fraction and a teacher can edit it with Word's equation tools.
// This file writes the tree omml-tex.ts reads from LaTeX; omml-read.ts reads OMML back.

export { ommlToLatex } from './omml-read.js';

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const MATH_FONT = '<w:rPr><w:rFonts w:ascii="Cambria Math" w:hAnsi="Cambria Math"/></w:rPr>';
const CJK_FONT = `<w:rPr><w:rFonts w:ascii="Cambria Math" w:hAnsi="Cambria Math" w:eastAsia="${WORD_FONTS.song}"/></w:rPr>`;

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
