import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../src/cli.js';
import { T } from '../src/i18n/zh-CN.js';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { startTestAgent, tempDir } from './helpers.js';

const home = tempDir('zhzy-cli-home-');
afterAll(() => home.remove());

function io(env: Record<string, string> = {}, scanners?: CliIo['scanners']) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      out: (l: string) => out.push(l),
      err: (l: string) => err.push(l),
      // A port nothing listens on: the CLI works without a running agent.
      env: {
        HOME: home.dir,
        XDG_CONFIG_HOME: path.join(home.dir, '.config'),
        AGENT_DATA_DIR: path.join(home.dir, 'state'),
        AGENT_PORT: '1',
        ...env,
      },
      ...(scanners ? { scanners } : {}),
    } satisfies CliIo,
  };
}

describe('scan-agent CLI for IT', () => {
  it('writes a systemd --user unit that runs the agent as the user, keeping the AGENT_ settings, and removes it', async () => {
    const t = io({ AGENT_ALLOWED_ORIGINS: 'https://zy.example.edu.cn' });
    expect(await runCli(['install-service', '--mode', 'systemd'], t.io)).toBe(0);
    const file = path.join(home.dir, '.config', 'systemd', 'user', 'zhzy-scan-agent.service');
    const unit = fs.readFileSync(file, 'utf8');
    expect(unit).toContain(
      `ExecStart="${process.execPath}" "--import" "tsx" "${path.resolve(import.meta.dirname, '..', 'src', 'cli.ts')}" "start"`,
    );
    expect(unit).toContain('Environment="AGENT_ALLOWED_ORIGINS=https://zy.example.edu.cn"');
    expect(unit).toContain('WantedBy=default.target');
    expect(unit).not.toMatch(/^User=/m);
    expect(t.out).toContain('systemctl --user enable --now zhzy-scan-agent');
    expect(await runCli(['uninstall-service', '--mode', 'systemd'], t.io)).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('writes an XDG autostart entry for desktops without systemd', async () => {
    const t = io();
    expect(await runCli(['install-service', '--mode', 'xdg'], t.io)).toBe(0);
    const entry = fs.readFileSync(
      path.join(home.dir, '.config', 'autostart', 'zhzy-scan-agent.desktop'),
      'utf8',
    );
    expect(entry).toMatch(/^\[Desktop Entry\]/);
    expect(entry).toContain('Name=智能作业 扫描助手');
    expect(entry).toMatch(/^Exec=env .*"AGENT_PORT=1".*"start"$/m);
  });

  it('prints the WinSW service definition for Windows without installing anything', async () => {
    const t = io();
    expect(await runCli(['install-service', '--mode', 'winsw'], t.io)).toBe(0);
    const xml = t.out.join('\n');
    expect(xml).toContain('<id>zhzy-scan-agent</id>');
    expect(xml).toContain(`<executable>${process.execPath}</executable>`);
    expect(xml).toContain('<env name="AGENT_PORT" value="1"/>');
    expect(xml).toContain('<onfailure action="restart" delay="10 sec"/>');
    expect(fs.existsSync(path.join(path.resolve(import.meta.dirname, '..'), 'zhzy-scan-agent.xml'))).toBe(
      false,
    );
  });

  it('lists scanners and scans a batch to a folder without a running agent', async () => {
    const t = io({}, [new VirtualScanner()]);
    expect(await runCli(['list'], t.io)).toBe(0);
    expect(t.out).toEqual(['0\t虚拟扫描仪（演示答题卡）\tvirtual\t双面']);
    const out = path.join(home.dir, 'scans');
    const s = io({}, [new VirtualScanner()]);
    expect(
      await runCli(
        ['scan', '--out', out, '--scanner', '0', '--pages', '2', '--simplex', '--dpi', '100', '--adaptive'],
        s.io,
      ),
    ).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['virtual-0001.jpg', 'virtual-0002.jpg']);
    expect((await sharp(path.join(out, 'virtual-0001.jpg')).metadata()).format).toBe('jpeg');
    expect(s.out.at(-1)).toBe(T.cliScanDone(2, out));
    expect(await runCli(['scan', '--out', out, '--scanner', '5'], io({}, [new VirtualScanner()]).io)).toBe(1);
  });

  it('says when the agent is not running, and shows the pairing code of a running one', async () => {
    const t = io();
    expect(await runCli(['status'], t.io)).toBe(3);
    expect(t.out).toEqual([T.cliNotRunning]);
    const agent = await startTestAgent();
    try {
      const p = io({ AGENT_PORT: String(agent.port), AGENT_DATA_DIR: agent.dataDir });
      expect(await runCli(['pair'], p.io)).toBe(0);
      const code = agent.pairing.current().code;
      expect(p.out[0]).toContain(`配对码：${code}`);
      expect(await runCli(['status'], p.io)).toBe(0);
      expect(p.out).toContain(T.cliRunning('0.2.0', agent.port));
    } finally {
      await agent.stop();
    }
  });

  it('explains itself in Chinese on an unknown command', async () => {
    const t = io();
    expect(await runCli(['frobnicate'], t.io)).toBe(2);
    expect(t.err[0]).toBe(T.cliUnknownCommand('frobnicate'));
  });
});
