/**
 * `npm run bench -w @zhzy/web`: the gzip size of the JavaScript each route needs, read from Vite's manifest.
 * `/` is the entry chunk plus everything it imports statically plus the home route's chunk (target ≤ 150 KB).
 * A signed-in teacher's first screen is the entry, the signed-in chrome and the landing route /paperlist
 * (target ≤ 250 KB, issue #25; printed beside `/`; either target missed fails the bench).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const TARGET_KB = 150;
const TEACHER_TARGET_KB = 250;
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const manifestPath = path.join(dist, '.vite', 'manifest.json');

if (!fs.existsSync(manifestPath)) {
  console.log('[bench] dist/ has no manifest: building the web app first');
  execFileSync(process.execPath, [path.join(root, 'node_modules', '.bin', 'vite'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
}

const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
const gz = new Map<string, number>();
const gzipOf = (file: string): number => {
  let size = gz.get(file);
  if (size === undefined) {
    size = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
    gz.set(file, size);
  }
  return size;
};

/** A chunk and every chunk it imports statically (what the browser must fetch before it runs). */
function closure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest has no ${key}`);
  into.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, into);
  return into;
}
const sizeOf = (keys: Iterable<string>) => [...keys].reduce((sum, k) => sum + gzipOf(manifest[k]!.file), 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// Route paths from the route table: `path: '…', lazy: () => import('./routes/…')`, children under their parent.
const table = fs.readFileSync(path.join(root, 'src/app/routes.tsx'), 'utf8');
const routeOf = new Map<string, string>();
let parent = '';
for (const m of table.matchAll(
  /(?:path: '([^']+)'|index: true),\s*lazy: \(\) => import\('\.\/(routes\/[^']+)'\)/g,
)) {
  const [, p, mod] = m;
  const src = `src/app/${mod}.tsx`;
  let route: string;
  if (p === undefined) route = `${parent} (index)`;
  else if (p.startsWith('/')) route = p;
  else route = `${parent}/${p}`;
  if (mod!.endsWith('/layout') && p?.startsWith('/')) parent = p;
  routeOf.set(src, route);
}

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) throw new Error('manifest has no entry');
const entry = closure(entryKey);
const homeKey = 'src/app/routes/home.tsx';
const home = closure(homeKey, new Set(entry));
const homeTotal = sizeOf(home);

console.log(`entry ${entryKey}: ${kb(sizeOf(entry))} gzip (${entry.size} chunks)`);
console.log(
  `JavaScript needed for /: ${kb(homeTotal)} gzip (target ≤ ${TARGET_KB} KB) ${homeTotal <= TARGET_KB * 1024 ? 'OK' : 'OVER'}`,
);

const chromeKey = Object.keys(manifest).find((k) => k.endsWith('src/app/layouts/app-chrome.tsx'));
const chrome = chromeKey ? closure(chromeKey, new Set(entry)) : new Set(entry);
if (chromeKey)
  console.log(`signed-in chrome (top bar, side bar, basket): +${kb(sizeOf(chrome) - sizeOf(entry))} gzip`);

const landingKey = 'src/app/routes/paperlist.tsx';
if (manifest[landingKey]) {
  const teacher = sizeOf(closure(landingKey, new Set(chrome)));
  const parts = [...closure(landingKey, new Set(chrome))].filter((k) => !chrome.has(k));
  console.log(
    `JavaScript for a signed-in teacher's first screen (/paperlist): ${kb(teacher)} gzip ` +
      `(entry ${kb(sizeOf(entry))} + chrome ${kb(sizeOf(chrome) - sizeOf(entry))} + /paperlist ${kb(sizeOf(parts))}; ` +
      `target ≤ ${TEACHER_TARGET_KB} KB) ${teacher <= TEACHER_TARGET_KB * 1024 ? 'OK' : 'OVER'} · / needs ${kb(homeTotal)}`,
  );
  if (teacher > TEACHER_TARGET_KB * 1024) process.exitCode = 1;
}

const rows: { route: string; own: number; extra: number; src: string }[] = [];
for (const [key, chunk] of Object.entries(manifest)) {
  if (!chunk.isDynamicEntry || !key.startsWith('src/app/routes/')) continue;
  const all = closure(key, new Set(chrome));
  rows.push({
    route: routeOf.get(key) ?? '(shared)',
    own: gzipOf(chunk.file),
    extra: sizeOf(all) - sizeOf(chrome),
    src: key,
  });
}
rows.sort((a, b) => a.route.localeCompare(b.route));
console.log('\nroute chunks (gzip): own chunk · beyond entry + chrome · source');
for (const r of rows)
  console.log(`  ${r.route.padEnd(36)} ${kb(r.own).padStart(9)} ${kb(r.extra).padStart(9)}  ${r.src}`);

const lazy = Object.entries(manifest).filter(
  ([k, c]) => c.isDynamicEntry && !k.startsWith('src/app/routes/'),
);
console.log('\nother lazy chunks (gzip, with their own imports):');
for (const [k] of lazy)
  console.log(`  ${k.padEnd(60)} ${kb(sizeOf(closure(k, new Set(entry))) - sizeOf(entry))}`);

if (homeTotal > TARGET_KB * 1024) process.exitCode = 1;
