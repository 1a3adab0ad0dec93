import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Node 20 runs here; the image runs Node 22 and `engines` accepts 20.19, 22.12 and 24 (ADR 0047). No CI of other
// versions: the source must use nothing that only 22+ has, nor anything 22/24 removed.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCES = ['apps/server/src', 'apps/server/bench', 'apps/scan-agent/src', 'packages'];

const ONLY_22_PLUS: [string, RegExp][] = [
  ['process.getBuiltinModule (22.3)', /getBuiltinModule\s*\(/],
  ['fs.glob (22)', /\bfs(?:\.promises)?\.glob\s*\(|from 'node:fs\/promises'.*\bglob\b/],
  ['node:sqlite (22.5)', /['"]node:sqlite['"]/],
  ['Promise.withResolvers (22)', /Promise\.withResolvers/],
  ['Array.fromAsync (22)', /Array\.fromAsync/],
  ['Object.groupBy / Map.groupBy (21)', /\b(?:Object|Map)\.groupBy\s*\(/],
  [
    'Set methods (22)',
    /\.(?:union|intersection|symmetricDifference|isSubsetOf|isSupersetOf|isDisjointFrom)\s*\(\s*new Set/,
  ],
  ['WebSocket global (22)', /new WebSocket\s*\(/],
];
const REMOVED_IN_22_24: [string, RegExp][] = [
  [
    'util.is* (removed in 23)',
    /\butil\.is(?:Array|Boolean|Buffer|Date|Error|Function|Null|Number|Object|String|Undefined|Primitive|RegExp)\s*\(/,
  ],
  ['punycode (deprecated)', /['"](?:node:)?punycode['"]/],
  ['fs.F_OK etc. on fs (removed in 24)', /\bfs\.[FRWX]_OK\b/],
  ['import assertions (removed in 22)', /\bassert\s*\{\s*type:/],
];

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|js|mjs)$/.test(e.name) && !e.parentPath.includes('node_modules'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the Node versions the image and engines accept', () => {
  it('uses nothing only Node 22+ has and nothing Node 22 or 24 removed', () => {
    const found: string[] = [];
    for (const file of SOURCES.flatMap((d) => files(path.join(ROOT, d)))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [name, pattern] of [...ONLY_22_PLUS, ...REMOVED_IN_22_24])
        if (pattern.test(text)) found.push(`${path.relative(ROOT, file)}: ${name}`);
    }
    expect(found).toEqual([]);
  });

  it('builds the image on the current LTS and accepts 20, 22 and 24', () => {
    const docker = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(docker.match(/^FROM node:(\d+)/gm)?.every((l) => l.endsWith('22'))).toBe(true);
    const engines = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines
      .node as string;
    expect(engines).toBe('^20.19 || ^22.12 || >=24');
  });
});
