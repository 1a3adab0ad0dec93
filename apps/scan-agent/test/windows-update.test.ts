// The Windows self-update's finisher (ADR 0055, session 15), run on Linux against a fake installation: the finisher,
// started from a copy of the old build (app.prev, node.prev.exe), runs the verified installer with /S — here a script
// that does what the NSIS installer does (swap node.exe and app, start the agent, not as the finisher's child) — and
// waits for the new build's /health; a build that does not answer is replaced by the copy, which is started again.
// The same path runs for real under Wine in installer.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishUpdate, keepWindowsBuild, updateResultFile } from '../src/service/update.js';
import { freePort } from './host-process.js';
import { tempDir, until } from './helpers.js';

const [OLD, NEW] = ['0.2.0', '0.2.1-test'];

/** An app folder whose agent writes its pid file and answers /health with `version`, or exits at once. */
function writeApp(dir: string, version: string, broken = false) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version }));
  fs.writeFileSync(
    path.join(dir, 'agent.mjs'),
    broken
      ? 'process.exit(1);\n'
      : `import fs from 'node:fs'; import http from 'node:http'; import path from 'node:path';
fs.writeFileSync(path.join(process.env.AGENT_DATA_DIR, 'agent.pid'), String(process.pid));
http.createServer((q, r) => { r.setHeader('content-type', 'application/json'); r.end(JSON.stringify({ version: ${JSON.stringify(version)} })); })
  .listen(Number(process.env.AGENT_PORT), '127.0.0.1');
`,
  );
}
/** A "node.exe" that runs this machine's node; `mark` tells the builds' runtimes apart. */
const writeNode = (file: string, mark: string) =>
  fs.writeFileSync(file, `#!/bin/sh\n# ${mark}\nexec ${JSON.stringify(process.execPath)} "$@"\n`, {
    mode: 0o755,
  });

/** What the NSIS installer does with /S on an upgrade: swap node.exe and app\, start the agent hidden (detached). */
const installerScript = (install: string, build: string, calls: string) => `#!/bin/sh
echo "installer $*" >> ${JSON.stringify(calls)}
rm -rf ${JSON.stringify(path.join(install, 'app'))}
cp -r ${JSON.stringify(path.join(build, 'app'))} ${JSON.stringify(path.join(install, 'app'))}
cp ${JSON.stringify(path.join(build, 'node.exe'))} ${JSON.stringify(path.join(install, 'node.exe'))}
nohup ${JSON.stringify(path.join(install, 'node.exe'))} ${JSON.stringify(path.join(install, 'app', 'agent.mjs'))} start >/dev/null 2>&1 &
`;

describe.runIf(process.platform === 'linux')('the Windows self-update finisher (installer, rollback)', () => {
  let t: { dir: string; remove: () => void };
  let install: string;
  let dataDir: string;
  let port: number;
  const saved = { port: process.env.AGENT_PORT, data: process.env.AGENT_DATA_DIR };
  const health = () =>
    fetch(`http://127.0.0.1:${port}/health`).then(
      async (r) => ((await r.json()) as { version: string }).version,
      () => null,
    );
  const version = () =>
    (JSON.parse(fs.readFileSync(path.join(install, 'app', 'package.json'), 'utf8')) as { version: string })
      .version;

  beforeEach(async () => {
    t = tempDir('zhzy-win-update-');
    install = path.join(t.dir, 'zhzy-scan-agent');
    dataDir = path.join(t.dir, 'data');
    fs.mkdirSync(dataDir);
    port = await freePort();
    process.env.AGENT_PORT = String(port);
    process.env.AGENT_DATA_DIR = dataDir;
    writeApp(path.join(install, 'app'), OLD);
    writeNode(path.join(install, 'node.exe'), OLD);
  });
  afterEach(() => {
    try {
      process.kill(Number(fs.readFileSync(path.join(dataDir, 'agent.pid'), 'utf8')), 'SIGKILL');
    } catch {
      /* not started or gone */
    }
    for (const [k, v] of [
      ['AGENT_PORT', saved.port],
      ['AGENT_DATA_DIR', saved.data],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    t.remove();
  });

  /** The newer build's installer (a script doing what NSIS does), the running old build copied for a rollback. */
  function stage(broken: boolean): { installer: string; calls: string } {
    const build = path.join(t.dir, 'build');
    writeApp(path.join(build, 'app'), NEW, broken);
    writeNode(path.join(build, 'node.exe'), NEW);
    const calls = path.join(t.dir, 'calls.log');
    const installer = path.join(t.dir, `zhzy-scan-agent-setup-${NEW}.exe`);
    fs.writeFileSync(installer, installerScript(install, build, calls), { mode: 0o755 });
    keepWindowsBuild(install, path.join(install, 'node.exe'));
    return { installer, calls };
  }
  const finish = (installer: string, healthMs: number) =>
    finishUpdate({
      pid: 2 ** 22 + 1, // no such process: the old agent has ended already
      staged: installer,
      installDir: install,
      from: OLD,
      to: NEW,
      port,
      dataDir,
      logFile: path.join(t.dir, 'agent.log'),
      installer: { service: false },
      healthMs,
      out: () => undefined,
    });

  it('runs the installer with /S and waits for the new build; the old one stays as app.prev', async () => {
    const { installer, calls } = stage(false);
    expect(fs.readFileSync(path.join(install, 'node.prev.exe'), 'utf8')).toContain(`# ${OLD}`);
    expect(await finish(installer, 30_000)).toBe(true);
    expect(fs.readFileSync(calls, 'utf8').trim()).toBe('installer /S');
    expect(await health()).toBe(NEW);
    expect(version()).toBe(NEW);
    expect(JSON.parse(fs.readFileSync(path.join(install, 'app.prev', 'package.json'), 'utf8')).version).toBe(
      OLD,
    );
    expect(JSON.parse(fs.readFileSync(updateResultFile(dataDir), 'utf8'))).toMatchObject({
      ok: true,
      message: `扫描助手已从 ${OLD} 更新到 ${NEW}`,
    });
  }, 90_000);

  it('a build that does not answer is replaced by the copy (app and node.exe) and the old agent started', async () => {
    const { installer } = stage(true);
    expect(await finish(installer, 5_000)).toBe(false);
    await until(async () => (await health()) === OLD, 30_000, 'the old agent started again');
    expect(version()).toBe(OLD);
    expect(fs.readFileSync(path.join(install, 'node.exe'), 'utf8'), 'the old node.exe is back').toContain(
      `# ${OLD}`,
    );
    expect(JSON.parse(fs.readFileSync(updateResultFile(dataDir), 'utf8'))).toMatchObject({
      ok: false,
      message: `扫描助手 ${NEW} 未能正常启动，已恢复到 ${OLD}`,
    });
  }, 90_000);
});
