import fs from 'node:fs';
import path from 'node:path';
import { calls } from '@zhzy/contracts';
import { describe, expect, it } from 'vitest';
import { callRoutes, callsModuleForWeb } from './call-routes';

const source = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../../packages/contracts/src/calls/index.ts'),
  'utf8',
);

describe('the web build calls without schemas (ADR 0063)', () => {
  it('keeps every call by its name with how it is sent, and none of its schemas', () => {
    const routes = callRoutes(calls);
    expect(Object.keys(routes)).toEqual(Object.keys(calls));
    for (const [key, def] of Object.entries(calls)) {
      expect(routes[key]).toEqual({
        name: def.name,
        method: def.method,
        path: def.path,
        encoding: def.encoding,
        auth: def.auth,
      });
    }
  });

  it('rewrites the contracts calls index into its re-exports plus the route table', () => {
    const routes = callRoutes(calls);
    const web = callsModuleForWeb(source, routes);
    const reexports = source.match(/^export \* from '\.\/[\w-]+\.js';$/gm) ?? [];
    expect(reexports.length).toBeGreaterThan(10);
    for (const line of reexports) expect(web).toContain(line);
    expect(web).not.toMatch(/^import /m);
    const table = web.slice(web.indexOf('export const calls = ') + 'export const calls = '.length).trim();
    expect(JSON.parse(table.replace(/;$/, ''))).toEqual(routes);
  });

  it('refuses a calls index of another shape instead of bundling the schemas again', () => {
    expect(() => callsModuleForWeb('export const everyCall = {};\n', {})).toThrow(/changed shape/);
  });
});
