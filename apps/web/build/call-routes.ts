import type { CallDef } from '@zhzy/contracts';
import { runnerImport, type Plugin } from 'vite';

// The web's `calls` without their schemas (ADR 0063): the browser sends what a call's form already checked and
// does not check answers (api-client's validateResponses is off on the web), so all it reads of a call is how to
// send it. Keeping the zod schemas of every call behind the single `calls` object put ≈ 44 KB gzip of them on a
// signed-in teacher's first screen; the schemas the web does use (form checks) are still imported by name.

/** What a call is on the wire: everything of a CallDef but its schemas. */
export type CallRoute = Pick<CallDef, 'name' | 'method' | 'path' | 'encoding' | 'auth'>;

/** Every call of the contracts, by the same names, reduced to its route. */
export function callRoutes(calls: Record<string, CallDef>): Record<string, CallRoute> {
  return Object.fromEntries(
    Object.entries(calls).map(([key, def]: [string, CallDef]) => [
      key,
      { name: def.name, method: def.method, path: def.path, encoding: def.encoding, auth: def.auth },
    ]),
  );
}

const CALLS_MODULE = /packages\/contracts\/src\/calls\/index\.ts$/;

/**
 * The contracts' calls index as the web bundles it: its re-exports of the call modules stay (so a schema imported
 * by name still resolves, and unused ones tree-shake), the `calls` object becomes the route table.
 */
export function callsModuleForWeb(source: string, routes: Record<string, CallRoute>): string {
  const reexports = source.split('\n').filter((line) => /^export \* from '\.\/[\w-]+\.js';$/.test(line));
  if (reexports.length === 0 || !/^export const calls = \{$/m.test(source))
    throw new Error('contracts calls/index.ts changed shape: update apps/web/build/call-routes.ts');
  return `${reexports.join('\n')}\nexport const calls = ${JSON.stringify(routes)};\n`;
}

/** Vite plugin: the web build's `calls` carry routes, not schemas. */
export function schemaFreeCalls(): Plugin {
  let routes: Record<string, CallRoute> | undefined;
  return {
    name: 'zhzy:schema-free-calls',
    enforce: 'pre',
    async buildStart() {
      // The config is bundled without the workspace's TypeScript packages: read the contracts through Vite itself.
      const { module } = await runnerImport<{ calls: Record<string, CallDef> }>('@zhzy/contracts', {
        configFile: false,
        logLevel: 'warn',
      });
      routes = callRoutes(module.calls);
    },
    transform(code, id) {
      if (!CALLS_MODULE.test(id.split('?')[0]!.replaceAll('\\', '/'))) return null;
      if (!routes) throw new Error('call routes not read yet');
      return { code: callsModuleForWeb(code, routes), map: null };
    },
  };
}
