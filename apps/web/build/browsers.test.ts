// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cssProblems, jsProblems, lowerCss, unwrapLayers } from './browsers';

// The browsers schools run (ADR 0047): what Chromium 86 cannot read never reaches the built app.

describe('the audit of a bundle against Chromium 86', () => {
  it('finds in CSS what the kernel cannot read, and lowering leaves none of it', () => {
    const tailwindLike = `@layer theme, base, utilities;
      @layer theme { :root { --color-blue-600: oklch(54.6% 0.245 262.881); } }
      @layer utilities {
        .card { color: oklch(54.6% 0.245 262.881); &:hover { color: red } }
        .tint { background: color-mix(in oklab, oklch(54.6% 0.245 262.881) 50%, transparent) }
        @supports (color: color-mix(in lab, red, red)) {
          .tint2 { background: color-mix(in oklab, var(--color-blue-600) 50%, transparent) }
        }
      }`;
    expect(cssProblems(tailwindLike)).toEqual(
      expect.arrayContaining(['oklch()', 'color-mix()', '@layer', 'nesting (&)']),
    );
    const lowered = lowerCss(tailwindLike);
    expect(cssProblems(lowered)).toEqual([]);
    expect(lowered).toContain('.card:hover');
    // A class name with an escaped & or @ is not syntax.
    expect(cssProblems('.\\[\\&_h1\\]\\:mb-3 h1{margin:0}.\\@container{container-type:inline-size}')).toEqual(
      [],
    );
  });

  it('unwraps layers in order and drops their statements', () => {
    expect(unwrapLayers('@layer a,b;@layer a{.x{color:red}}@layer b{@media print{.y{color:blue}}}')).toBe(
      '.x{color:red}@media print{.y{color:blue}}',
    );
  });

  it('finds in JavaScript the syntax after Chromium 86 and passes what it parses', () => {
    expect(jsProblems('class A { #x = 1; static y = 2; m() { return a?.b ?? this.#x; } } a ||= 1;')).toEqual(
      [],
    );
    expect(jsProblems('class A { static { init(); } }')).toEqual(['class static block (Chromium 94)']);
    expect(jsProblems('class A { #x; has(o) { return #x in o; } }')).toEqual(['#private in (Chromium 91)']);
    expect(jsProblems('await fetch("/"); async function f() { await g(); }')).toEqual([
      'top-level await (Chromium 89)',
    ]);
    expect(jsProblems('const r = /a/d;')).toEqual(['RegExp d flag (Chromium 90)']);
  });
});

describe('the built web app', () => {
  let outDir: string;

  beforeAll(async () => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-web-build-'));
    // The build itself refuses CSS or JavaScript Chromium 86 cannot read (schoolBrowsers()).
    await build({
      root: path.resolve(import.meta.dirname, '..'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
  });
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('has no CSS or JavaScript Chromium 86 cannot read, and brotli and gzip copies of its assets', () => {
    const assets = fs.readdirSync(path.join(outDir, 'assets'));
    const css = assets.filter((f) => f.endsWith('.css'));
    const js = assets.filter((f) => f.endsWith('.js'));
    expect(css.length).toBeGreaterThan(0);
    expect(js.length).toBeGreaterThan(0);
    for (const f of [...css, ...js]) {
      const file = path.join(outDir, 'assets', f);
      const text = fs.readFileSync(file, 'utf8');
      expect(f.endsWith('.css') ? cssProblems(text) : jsProblems(text), f).toEqual([]);
      if (text.length >= 1024) {
        expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).toString(), f).toBe(text);
        expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString(), f).toBe(text);
      }
    }
    // The page tells an older browser so before the app would render broken.
    expect(fs.readFileSync(path.join(outDir, 'index.html'), 'utf8')).toContain('src="/browser-check.js"');
    expect(fs.readFileSync(path.join(outDir, 'browser-check.js'), 'utf8')).toContain('您的浏览器版本过低');
  });
});
