// The self-update under the systemd user unit (ADR 0055, "systemd"). When the agent exits for an update, systemd stops
// the unit and ends every process left in its cgroup, so the finisher runs as its own transient unit
// (`systemd-run --user`) and starts the agent again with `systemctl --user start`. No `systemd --user` runs in this
// sandbox: `systemd-run` and `systemctl` are replaced on PATH by small programs that record their arguments and do what
// systemd would do with the unit file the agent writes (start its ExecStart with its Environment=, stop it), and the
// finisher's swap, health check and rollback run for real against a fake installation.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_NODE_FLAGS } from '../src/runtime.js';
import { systemdUnit } from '../src/service/install.js';
import {
  finishUpdate,
  launchFinisher,
  SUPERVISOR_ENV,
  supervisorOf,
  updateResultFile,
} from '../src/service/update.js';
import { freePort } from './host-process.js';
import { tempDir, until } from './helpers.js';

const [OLD, NEW] = ['0.2.0', '0.2.1-test'];
const UNIT = 'zhzy-scan-agent.service';

/** `systemctl --user start|stop|reset-failed <unit>` as systemd does it for the agent's unit file. */
const FAKE_SYSTEMCTL = `#!${process.execPath}
const fs = require('fs'), path = require('path'), cp = require('child_process');
const dir = process.env.FAKE_SYSTEMD_DIR;
const args = process.argv.slice(2);
fs.appendFileSync(path.join(dir, 'calls.log'), 'systemctl ' + args.join(' ') + '\\n');
if (args[0] !== '--user') process.exit(1);
const [cmd, unit] = args.slice(1);
const pidFile = path.join(dir, unit + '.pid');
const words = (l) => [...l.matchAll(/"((?:[^"\\\\]|\\\\.)*)"/g)].map((m) => m[1].replace(/\\\\(.)/g, '$1').replace(/%%/g, '%'));
if (cmd === 'start') {
  const text = fs.readFileSync(path.join(dir, 'user', unit), 'utf8');
  const exec = words(/^ExecStart=(.*)$/m.exec(text)[1]);
  const env = { ...process.env };
  for (const m of text.matchAll(/^Environment=(.*)$/gm)) {
    const w = m[1].startsWith('"') ? words(m[1])[0] : m[1];
    env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  }
  const child = cp.spawn(exec[0], exec.slice(1), { detached: true, stdio: 'ignore', env });
  fs.writeFileSync(pidFile, String(child.pid));
  child.unref();
} else if (cmd === 'stop') {
  try { process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL'); } catch {}
}
`;

/** `systemd-run`: records its arguments only (the finisher it would start is exercised through finishUpdate). */
const FAKE_SYSTEMD_RUN = `#!/bin/sh
printf 'systemd-run' >> "$FAKE_SYSTEMD_DIR/calls.log"
for a in "$@"; do printf ' %s' "$a" >> "$FAKE_SYSTEMD_DIR/calls.log"; done
echo >> "$FAKE_SYSTEMD_DIR/calls.log"
`;

/** An app folder whose agent answers /health with `version` on AGENT_PORT, or exits at once (a bad build). */
function writeApp(dir: string, version: string, broken = false) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version }));
  fs.writeFileSync(
    path.join(dir, 'agent.mjs'),
    broken
      ? 'process.exit(1);\n'
      : `import http from 'node:http';
if (process.env.${SUPERVISOR_ENV} !== 'systemd') process.exit(2);
http.createServer((q, r) => { r.setHeader('content-type', 'application/json'); r.end(JSON.stringify({ version: ${JSON.stringify(version)} })); })
  .listen(Number(process.env.AGENT_PORT), '127.0.0.1');
`,
  );
}
const writeNode = (file: string) =>
  fs.writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });

describe.runIf(process.platform === 'linux')('self-update under the systemd user unit', () => {
  let t: { dir: string; remove: () => void };
  let fake: string;
  let install: string;
  let dataDir: string;
  let port: number;
  const savedPath = process.env.PATH;
  const calls = () => fs.readFileSync(path.join(fake, 'calls.log'), 'utf8').trim().split('\n');
  const health = () =>
    fetch(`http://127.0.0.1:${port}/health`).then(
      async (r) => ((await r.json()) as { version: string }).version,
      () => null,
    );

  beforeEach(async () => {
    t = tempDir('zhzy-systemd-');
    fake = path.join(t.dir, 'fake-systemd');
    install = path.join(t.dir, 'zhzy-scan-agent');
    dataDir = path.join(t.dir, 'data');
    port = await freePort();
    fs.mkdirSync(path.join(fake, 'user'), { recursive: true });
    fs.mkdirSync(path.join(fake, 'bin'));
    fs.writeFileSync(path.join(fake, 'bin', 'systemctl'), FAKE_SYSTEMCTL, { mode: 0o755 });
    fs.writeFileSync(path.join(fake, 'bin', 'systemd-run'), FAKE_SYSTEMD_RUN, { mode: 0o755 });
    fs.writeFileSync(path.join(fake, 'calls.log'), '');
    process.env.PATH = `${path.join(fake, 'bin')}:${savedPath}`;
    process.env.FAKE_SYSTEMD_DIR = fake;
    writeApp(path.join(install, 'app'), OLD);
    writeNode(path.join(install, 'node'));
    // The unit the installed agent writes (install-service --mode systemd), as systemd would read it.
    fs.writeFileSync(
      path.join(fake, 'user', UNIT),
      systemdUnit({
        home: t.dir,
        nodePath: path.join(install, 'node'),
        nodeArgs: [...AGENT_NODE_FLAGS],
        cliPath: path.join(install, 'app', 'agent.mjs'),
        appDir: path.join(install, 'app'),
        env: { AGENT_PORT: String(port) },
      }),
    );
  });
  afterEach(() => {
    try {
      process.kill(Number(fs.readFileSync(path.join(fake, `${UNIT}.pid`), 'utf8')), 'SIGKILL');
    } catch {
      /* not started or gone */
    }
    process.env.PATH = savedPath;
    delete process.env.FAKE_SYSTEMD_DIR;
    t.remove();
  });

  /** The running old agent, as the unit started it; answers its pid once it has ended for the update. */
  async function oldAgentExited(): Promise<number> {
    expect(spawnSync('systemctl', ['--user', 'start', UNIT]).status).toBe(0);
    await until(async () => (await health()) === OLD, 30_000, 'the old agent under the unit');
    const pid = Number(fs.readFileSync(path.join(fake, `${UNIT}.pid`), 'utf8'));
    process.kill(pid, 'SIGTERM');
    await until(async () => (await health()) === null, 30_000, 'the old agent to end');
    return pid;
  }

  it('the unit marks the agent as supervised; the finisher is launched with systemd-run outside the unit', () => {
    const unit = fs.readFileSync(path.join(fake, 'user', UNIT), 'utf8');
    expect(unit).toContain(`Environment=${SUPERVISOR_ENV}=systemd`);
    expect(unit).toContain('Restart=on-failure');
    expect(supervisorOf({ [SUPERVISOR_ENV]: 'systemd' })).toBe('systemd');
    expect(supervisorOf({})).toBeNull();

    const staged = path.join(t.dir, 'staged');
    process.env.AGENT_PORT = String(port);
    try {
      launchFinisher(
        { from: OLD, to: NEW, staged, kind: 'tarball' },
        { dataDir, allowedHosts: () => [], version: OLD, facts: null, installDir: install },
        path.join(t.dir, 'agent.log'),
        'systemd',
      );
    } finally {
      delete process.env.AGENT_PORT;
    }
    const run = calls().find((c) => c.startsWith('systemd-run'));
    expect(run, 'systemd-run was called').toBeDefined();
    const args = run!.split(' ');
    expect(args).toEqual(
      expect.arrayContaining(['--user', '--collect', `--unit=zhzy-scan-agent-update-${process.pid}`]),
    );
    expect(args).toContain(`--setenv=AGENT_PORT=${port}`);
    const finisher = args.slice(args.indexOf('--') + 1);
    expect(finisher[0]).toBe(process.execPath);
    expect(finisher).toEqual(
      expect.arrayContaining(['finish-update', '--staged', staged, '--install', install, '--to', NEW]),
    );
    expect(finisher.slice(-2)).toEqual(['--supervisor', 'systemd']);
  });

  it('swaps in the new build and starts it through systemctl; the old one stays as app.prev', async () => {
    const staged = path.join(t.dir, 'staged');
    writeApp(path.join(staged, 'app'), NEW);
    writeNode(path.join(staged, 'node'));
    const pid = await oldAgentExited();
    const out: string[] = [];
    const ok = await finishUpdate({
      pid,
      staged,
      installDir: install,
      from: OLD,
      to: NEW,
      port,
      dataDir,
      logFile: path.join(t.dir, 'agent.log'),
      supervisor: 'systemd',
      out: (l) => out.push(l),
    });
    expect(ok).toBe(true);
    expect(await health()).toBe(NEW);
    expect(calls()).toEqual([
      `systemctl --user start ${UNIT}`,
      `systemctl --user reset-failed ${UNIT}`,
      `systemctl --user start ${UNIT}`,
    ]);
    expect(JSON.parse(fs.readFileSync(path.join(install, 'app.prev', 'package.json'), 'utf8')).version).toBe(
      OLD,
    );
    expect(JSON.parse(fs.readFileSync(updateResultFile(dataDir), 'utf8'))).toMatchObject({
      ok: true,
      message: `扫描助手已从 ${OLD} 更新到 ${NEW}`,
    });
  }, 90_000);

  it('a new build that does not come up is stopped through systemctl and the old one started again', async () => {
    const staged = path.join(t.dir, 'staged');
    writeApp(path.join(staged, 'app'), NEW, true);
    writeNode(path.join(staged, 'node'));
    const pid = await oldAgentExited();
    const ok = await finishUpdate({
      pid,
      staged,
      installDir: install,
      from: OLD,
      to: NEW,
      port,
      dataDir,
      logFile: path.join(t.dir, 'agent.log'),
      supervisor: 'systemd',
      healthMs: 5_000,
      out: () => undefined,
    });
    expect(ok).toBe(false);
    expect(await health()).toBe(OLD);
    expect(calls().slice(1)).toEqual([
      `systemctl --user reset-failed ${UNIT}`,
      `systemctl --user start ${UNIT}`,
      `systemctl --user stop ${UNIT}`,
      `systemctl --user reset-failed ${UNIT}`,
      `systemctl --user start ${UNIT}`,
    ]);
    expect(JSON.parse(fs.readFileSync(path.join(install, 'app', 'package.json'), 'utf8')).version).toBe(OLD);
    expect(JSON.parse(fs.readFileSync(updateResultFile(dataDir), 'utf8'))).toMatchObject({
      ok: false,
      message: `扫描助手 ${NEW} 未能正常启动，已恢复到 ${OLD}`,
    });
  }, 90_000);
});
