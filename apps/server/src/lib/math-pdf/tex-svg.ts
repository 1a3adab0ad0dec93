// Formulas for printed PDFs (issue #23, ADR 0062): the bank's LaTeX typeset by MathJax into SVG paths — no font to
// embed, the same shapes teachers see in the browser's KaTeX — with the box a line layout needs (width, height above
// the baseline, depth below), in ems. A formula MathJax cannot read is reported as such; callers print it as text.
import type { LiteElement } from 'mathjax-full/js/adaptors/lite/Element.js';

export interface TexBox {
  /** The SVG, its size and colour still to be set by `sizedSvg`. */
  svg: string;
  /** Width, height above the baseline and depth below it, in ems of the surrounding text. */
  width: number;
  height: number;
  depth: number;
}

/** Formulas kept typeset: a paper repeats the same few many times. */
const CACHE_MAX = 2000;
const cache = new Map<string, TexBox | null>();

/** Packages left out: no loading at run time, and an unknown command is an error (not red text on paper). */
const OFF_PACKAGES = new Set(['require', 'autoload', 'noundefined']);

let converter: ((tex: string) => string) | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads MathJax (about 0.2 s and 25 MB) the first time a PDF with formulas is made, not when the host starts. Every
 * PDF producer awaits it before laying out; until it has loaded, `texBox` answers null and formulas print as text.
 */
export function loadFormulaTypesetter(): Promise<void> {
  loading ??= (async () => {
    const [{ mathjax }, { TeX }, { SVG }, { liteAdaptor }, { RegisterHTMLHandler }, { AllPackages }] =
      await Promise.all([
        import('mathjax-full/js/mathjax.js'),
        import('mathjax-full/js/input/tex.js'),
        import('mathjax-full/js/output/svg.js'),
        import('mathjax-full/js/adaptors/liteAdaptor.js'),
        import('mathjax-full/js/handlers/html.js'),
        import('mathjax-full/js/input/tex/AllPackages.js'),
      ]);
    const adaptor = liteAdaptor();
    RegisterHTMLHandler(adaptor);
    const document = mathjax.document('', {
      InputJax: new TeX({ packages: AllPackages.filter((p) => !OFF_PACKAGES.has(p)) }),
      OutputJax: new SVG({ fontCache: 'none' }),
    });
    // Display style: fractions and limits at full size, as Chinese papers print them inline.
    converter = (t) =>
      adaptor.innerHTML(document.convert(`\\displaystyle ${t}`, { display: false }) as LiteElement);
  })().catch(() => {
    // Formulas then print as linear text; the next PDF tries to load again.
    loading = undefined;
  });
  return loading;
}

/** A formula typeset, or null when MathJax reports an error in it (an unknown command, unbalanced braces). */
export function texBox(tex: string): TexBox | null {
  const key = tex.trim();
  if (!converter) return null;
  if (cache.has(key)) return cache.get(key)!;
  let box: TexBox | null = null;
  try {
    const svg = converter(key);
    const view = /viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"/.exec(svg);
    if (view && !svg.includes('data-mml-node="merror"')) {
      const [minY, w, h] = [Number(view[2]), Number(view[3]), Number(view[4])];
      box = { svg, width: w / 1000, height: -minY / 1000, depth: (h + minY) / 1000 };
    }
  } catch {
    box = null;
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, box);
  return box;
}

/** The box's SVG sized in points for a font size and drawn in a colour. */
export function sizedSvg(box: TexBox, fontSize: number, color: string): string {
  return box.svg
    .replace(/ style="vertical-align:[^"]*"/, '')
    .replace(/ width="[^"]*ex"/, ` width="${box.width * fontSize}"`)
    .replace(/ height="[^"]*ex"/, ` height="${(box.height + box.depth) * fontSize}"`)
    .replace(/currentColor/g, color);
}
