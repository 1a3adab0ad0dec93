import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// bulletproof-react's rule, checked here because the root ESLint config has no web-specific block:
// shared code (api, components, lib, config, i18n) never imports features or the app; a feature never imports
// another feature or the app.
const src = import.meta.dirname;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), m[1]!),
  );
}

const rel = (p: string) => path.relative(src, p).split(path.sep);

describe('module boundaries', () => {
  it('keeps features apart and shared code free of features and the app', () => {
    const problems: string[] = [];
    for (const file of files(src)) {
      const [top, feature] = rel(file);
      for (const target of importsOf(file)) {
        const [tTop, tFeature] = rel(target);
        if (top === 'features' && tTop === 'features' && tFeature !== feature) {
          problems.push(`${rel(file).join('/')} imports feature ${tFeature}`);
        }
        if (top === 'features' && tTop === 'app') problems.push(`${rel(file).join('/')} imports the app`);
        if (
          ['api', 'components', 'lib', 'config', 'i18n'].includes(top!) &&
          (tTop === 'features' || tTop === 'app')
        ) {
          problems.push(`${rel(file).join('/')} (shared) imports ${tTop}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  // Data several features read lives in api/ (ADR 0053): its cache keys are written once, in api/keys.ts.
  it('writes each shared cache key once, in api/keys.ts', () => {
    const keysFile = path.join(src, 'api', 'keys.ts');
    const shared = [
      ...fs.readFileSync(keysFile, 'utf8').matchAll(/'([\w-]+(?:\/[\w-]+)+|scan-batches)'/g),
    ].map((m) => m[1]!);
    expect(shared).toContain('system/stages');
    const retyped = files(src)
      .filter((f) => f !== keysFile)
      .flatMap((f) => {
        const text = fs.readFileSync(f, 'utf8');
        return shared.filter((k) => text.includes(`'${k}'`)).map((k) => `${rel(f).join('/')}: '${k}'`);
      });
    expect(retyped).toEqual([]);
  });

  // The shell's text is in i18n/zh-CN.ts (loaded with the entry); each later feature keeps its own catalogue in
  // i18n/<feature>.ts, imported only by that feature, so its text travels in its lazy chunk and `/` stays small.
  it('keeps user-facing Chinese text in the catalogues (the user agreement is the one long document apart)', () => {
    const allowed = new Set(['components/legal/protocol-text.tsx', 'config/env.ts']);
    const offenders = files(src)
      .map((f) => rel(f).join('/'))
      .filter((f) => !allowed.has(f) && !f.startsWith('testing/') && !f.startsWith('i18n/'))
      .filter((f) => {
        const code = fs.readFileSync(path.join(src, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
        return /[\u4e00-\u9fff]/.test(code);
      });
    expect(offenders).toEqual([]);
  });
});
