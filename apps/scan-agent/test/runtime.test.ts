import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAgentConfig, readConfigFile } from '../src/config.js';
import { isMainModule } from '../src/runtime.js';
import { tempDir } from './helpers.js';

const dir = tempDir('zhzy-runtime-');
afterAll(() => dir.remove());
const identity = (p: string) => p;

describe('the CLI knows it is the main module on every OS', () => {
  it('matches a Windows path to the module URL (spaces, backslashes, drive-letter case)', () => {
    const url = 'file:///C:/Program%20Files/zhzy-scan-agent/app/cli.mjs';
    const opts = { windows: true, realpath: identity };
    expect(isMainModule(url, 'C:\\Program Files\\zhzy-scan-agent\\app\\cli.mjs', opts)).toBe(true);
    expect(isMainModule(url, 'c:\\program files\\ZHZY-SCAN-AGENT\\app\\cli.mjs', opts)).toBe(true);
    expect(isMainModule(url, 'C:\\Program Files\\zhzy-scan-agent\\app\\main.mjs', opts)).toBe(false);
    expect(isMainModule(url, undefined, opts)).toBe(false);
  });

  it('matches through a symlink and a relative path (realpath)', () => {
    const real = path.join(dir.dir, 'real.mjs');
    fs.writeFileSync(real, '');
    const link = path.join(dir.dir, 'link.mjs');
    fs.symlinkSync(real, link);
    const url = `file://${real}`;
    expect(isMainModule(url, link, { windows: false })).toBe(true);
    expect(isMainModule(url, path.relative(process.cwd(), real), { windows: false })).toBe(true);
    expect(isMainModule(url, path.join(dir.dir, 'other.mjs'), { windows: false })).toBe(false);
  });

  it('runs the CLI started through a symlinked path (the old `file://${argv1}` check exited at once)', () => {
    const cli = path.resolve(import.meta.dirname, '..', 'src', 'cli.ts');
    const link = path.join(dir.dir, 'scan agent cli.ts');
    fs.symlinkSync(cli, link);
    const tsx = path.resolve(
      import.meta.dirname,
      '..',
      '..',
      '..',
      'node_modules',
      'tsx',
      'dist',
      'loader.mjs',
    );
    const run = spawnSync(process.execPath, ['--import', tsx, link, 'help'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('scan-agent');
  });
});

describe('settings from the installer-written config file', () => {
  it('reads KEY=value lines (BOM, CRLF, comments), keeps only the agent settings; the environment wins', () => {
    const file = path.join(dir.dir, 'agent.conf');
    fs.writeFileSync(
      file,
      '\uFEFF# 由安装程序写入\r\nAGENT_HOST_URLS=https://zy.example.edu.cn\r\nAGENT_ALLOWED_ORIGINS=https://zy.example.edu.cn\r\nPATH=/evil\r\nAGENT_DRIVERS=escl,hotfolder\r\n',
    );
    expect(readConfigFile(file)).toEqual({
      AGENT_HOST_URLS: 'https://zy.example.edu.cn',
      AGENT_ALLOWED_ORIGINS: 'https://zy.example.edu.cn',
      AGENT_DRIVERS: 'escl,hotfolder',
    });
    const config = loadAgentConfig({ AGENT_CONFIG_FILE: file, AGENT_DRIVERS: 'sane' });
    expect(config.AGENT_HOST_URLS).toEqual(['https://zy.example.edu.cn']);
    expect(config.AGENT_DRIVERS).toEqual(['sane']);
    expect(readConfigFile(path.join(dir.dir, 'missing.conf'))).toEqual({});
  });

  it('turns the demo scanner on with AGENT_DEMO (the installer /DEMO switch)', () => {
    const file = path.join(dir.dir, 'demo.conf');
    fs.writeFileSync(file, 'AGENT_DEMO=true\n');
    expect(loadAgentConfig({ AGENT_CONFIG_FILE: file }).AGENT_VIRTUAL_SCANNER).toBe(true);
    fs.writeFileSync(file, 'AGENT_DEMO=false\n');
    expect(loadAgentConfig({ AGENT_CONFIG_FILE: file }).AGENT_VIRTUAL_SCANNER).toBe(false);
  });
});
