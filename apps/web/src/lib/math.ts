import katex from 'katex';
import 'katex/dist/katex.min.css';

const cache = new Map<string, string>();

/** Typesets \( \) and \[ \] in the text nodes of sanitised HTML with KaTeX; the markup around stays. */
export function renderMath(html: string): string {
  const hit = cache.get(html);
  if (hit !== undefined) return hit;
  const template = document.createElement('template');
  template.innerHTML = html;
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
  for (const node of texts) {
    const text = node.data;
    if (!text.includes('\\(') && !text.includes('\\[')) continue;
    const frag = document.createDocumentFragment();
    const re = /\\\((.+?)\\\)|\\\[(.+?)\\\]/gs;
    let last = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m.index > last) frag.append(text.slice(last, m.index));
      const display = m[2] !== undefined;
      const span = document.createElement('span');
      span.innerHTML = katex.renderToString(m[1] ?? m[2] ?? '', {
        displayMode: display,
        throwOnError: false,
        trust: false,
        strict: 'ignore',
        output: 'htmlAndMathml',
      });
      frag.append(span);
      last = m.index + m[0].length;
    }
    if (last < text.length) frag.append(text.slice(last));
    node.replaceWith(frag);
  }
  const out = template.innerHTML;
  if (cache.size > 500) cache.clear();
  cache.set(html, out);
  return out;
}

/** Why KaTeX cannot typeset a formula (its parser's message), or null when it can. */
export function formulaError(latex: string): string | null {
  try {
    katex.renderToString(latex, { throwOnError: true, trust: false, strict: 'ignore' });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^KaTeX parse error:\s*/, '') : String(error);
  }
}
