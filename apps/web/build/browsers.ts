import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse, type Node } from 'acorn';
import { transform } from 'lightningcss';
import type { Plugin } from 'vite';

// The browsers schools run (ADR 0047): 360, QQ and Sogou browsers in their fast mode are Chromium kernels, many
// still 86 (360 安全浏览器 13); Chromium 86 is the oldest supported. public/browser-check.js tells older ones so.

/** The oldest Chromium kernel supported. */
export const MIN_CHROME = 86;
/** JavaScript syntax is lowered to what Chromium 86 parses (Vite's build.target). */
export const JS_TARGET = [`chrome${MIN_CHROME}`, 'edge86', 'firefox78', 'safari14'];
/** Lightning CSS targets: versions as major << 16. */
const CSS_TARGETS = { chrome: MIN_CHROME << 16, edge: 86 << 16, firefox: 78 << 16, safari: 14 << 16 };

/** Brace-matched end of the block opening at `open` (index of `{`), skipping strings and comments. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      for (i++; i < css.length && css[i] !== c; i++) if (css[i] === '\\') i++;
    } else if (c === '/' && css[i + 1] === '*') {
      i = css.indexOf('*/', i + 2) + 1;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return css.length - 1;
}

/**
 * Cascade layers (Chromium 99) unwrapped in order: Tailwind writes theme, base, components and utilities in the
 * order of their precedence, and its base rules are of low specificity (mostly `:where`), so the unlayered cascade
 * keeps what the layers decided. Layer statements (`@layer a, b;`) go.
 */
export function unwrapLayers(css: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const at = css.indexOf('@layer', i);
    if (at < 0) return out + css.slice(i);
    out += css.slice(i, at);
    const semi = css.indexOf(';', at);
    const open = css.indexOf('{', at);
    if (open < 0 || (semi >= 0 && semi < open)) {
      i = semi + 1;
      continue;
    }
    const end = blockEnd(css, open);
    out += unwrapLayers(css.slice(open + 1, end));
    i = end + 1;
  }
}

/** CSS for the oldest kernel: colours given as hex fallbacks, nesting flattened, layers unwrapped, minified. */
export function lowerCss(css: string, filename = 'style.css'): string {
  const { code } = transform({
    filename,
    code: Buffer.from(css),
    minify: true,
    targets: CSS_TARGETS,
  });
  return unwrapLayers(code.toString());
}

/** The CSS with every `@supports (…) { … }` block taken out: what a browser without those features applies. */
function withoutSupports(css: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const at = css.indexOf('@supports', i);
    if (at < 0) return out + css.slice(i);
    out += css.slice(i, at);
    i = blockEnd(css, css.indexOf('{', at)) + 1;
  }
}

/** What in a built stylesheet the oldest kernel cannot read outside an `@supports` guard; empty when none. */
export function cssProblems(css: string): string[] {
  // Strings and escaped characters (class names such as `.\[\&_h1\]\:mb-3`) are not syntax.
  const plain = withoutSupports(css)
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\\./g, '');
  const problems: string[] = [];
  for (const [name, pattern] of [
    ['oklch()', /oklch\(/],
    ['oklab()', /oklab\(/],
    ['lab()', /[^k]lab\(/],
    ['color-mix()', /color-mix\(/],
    ['@layer', /@layer\b/],
    ['@container', /@container\b/],
    ['nesting (&)', /&/],
  ] as const) {
    // A newer colour is fine as the second declaration of a property, after a fallback the kernel reads.
    const unguarded =
      name === 'lab()' || name === 'oklch()' || name === 'oklab()' || name === 'color-mix()'
        ? plain.split(/[;{}]/).some((decl, k, all) => {
            if (!pattern.test(decl)) return false;
            const prop = decl.split(':')[0]?.trim();
            const before = all[k - 1]?.split(':')[0]?.trim();
            return !(prop && before === prop && !pattern.test(all[k - 1]!));
          })
        : pattern.test(plain);
    if (unguarded) problems.push(name);
  }
  return problems;
}

const SYNTAX_AFTER_86: Record<string, string> = {
  StaticBlock: 'class static block (Chromium 94)',
};

/** What in a built script the oldest kernel cannot parse; empty when none. */
export function jsProblems(code: string): string[] {
  let ast: Node;
  try {
    // ES2022 parses class fields and private methods (Chromium 74 / 84); what came later is looked for below.
    ast = parse(code, { ecmaVersion: 2022, sourceType: 'module' });
  } catch (error) {
    return [`does not parse as ES2022: ${(error as Error).message}`];
  }
  const problems = new Set<string>();
  const visit = (node: unknown, inFunction = false): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, inFunction));
    const n = node as {
      type?: string;
      operator?: string;
      left?: { type?: string };
      regex?: { flags: string };
    };
    if (n.type && SYNTAX_AFTER_86[n.type]) problems.add(SYNTAX_AFTER_86[n.type]!);
    // `#x in obj` (Chromium 91).
    if (n.type === 'BinaryExpression' && n.operator === 'in' && n.left?.type === 'PrivateIdentifier')
      problems.add('#private in (Chromium 91)');
    if (n.regex?.flags.includes('d')) problems.add('RegExp d flag (Chromium 90)');
    if (n.type === 'AwaitExpression' && !inFunction) problems.add('top-level await (Chromium 89)');
    const fn = inFunction || /Function/.test(n.type ?? '');
    for (const [key, value] of Object.entries(node)) if (key !== 'loc') visit(value, fn);
  };
  visit(ast);
  return [...problems];
}

/**
 * Lowers the built CSS for the oldest kernel, refuses a build whose CSS or JavaScript that kernel cannot read (so
 * it cannot regress), then writes brotli and gzip copies beside each text asset for the host to send as they are.
 */
export function schoolBrowsers(): Plugin {
  let outDir = 'dist';
  return {
    name: 'zhzy-school-browsers',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const problems: string[] = [];
      for (const file of Object.values(bundle)) {
        if (file.type === 'asset' && file.fileName.endsWith('.css')) {
          file.source = lowerCss(String(file.source), file.fileName);
          for (const p of cssProblems(file.source)) problems.push(`${file.fileName}: ${p}`);
        } else if (file.type === 'chunk') {
          for (const p of jsProblems(file.code)) problems.push(`${file.fileName}: ${p}`);
        }
      }
      if (problems.length > 0)
        this.error(`not readable by Chromium ${MIN_CHROME} (ADR 0047):\n${problems.join('\n')}`);
    },
    writeBundle() {
      precompress(outDir);
    },
  };
}

/** Brotli (best) and gzip (best) copies of every text asset above 1 KB under `dir`. */
export function precompress(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|css|html|svg|json|txt)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const data = fs.readFileSync(file);
    if (data.length < 1024) continue;
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  }
}
