import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { T } from '../src/i18n/zh-CN.js';
import type { ScanEvent, ScanRequest } from '../src/scanners/port.js';
import type { LineProcess, ProcessResult, ProcessRunner, RunOptions } from '../src/scanners/process.js';
import { Naps2TwainScanner, naps2ScanArgs } from '../src/scanners/windows/naps2-driver.js';
import { WiaScanner, powershellArgs, psLiteral, wiaScanScript } from '../src/scanners/windows/wia-driver.js';
import { tempDir } from './helpers.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  'base64',
);

/** Replays recorded output instead of running Windows tools; records what it was asked to run. */
class RecordedRunner implements ProcessRunner {
  calls: { command: string; args: readonly string[] }[] = [];
  constructor(
    private readonly output: string,
    private readonly files: string[] = [],
    private readonly code = 0,
  ) {}

  private result(stdout: string): ProcessResult {
    return { code: this.code, signal: null, stdout, stderr: '', timedOut: false };
  }

  run(command: string, args: readonly string[]): Promise<ProcessResult> {
    this.calls.push({ command, args });
    for (const f of this.files) fs.writeFileSync(f, TINY_JPEG);
    return Promise.resolve(this.result(this.output));
  }

  lines(command: string, args: readonly string[], _options: RunOptions): LineProcess {
    this.calls.push({ command, args });
    const files = this.files;
    const output = this.output;
    async function* lines() {
      for (const line of output.split(/\r?\n/)) {
        const file = /"file":"([^"]+)"/.exec(line)?.[1];
        if (file) fs.writeFileSync(JSON.parse(`"${file}"`) as string, TINY_JPEG);
        yield line;
      }
      for (const f of files) fs.writeFileSync(f, TINY_JPEG);
    }
    return {
      lines: lines(),
      exit: Promise.resolve(this.result('')),
      stop: () => undefined,
      kill: () => undefined,
    };
  }
}

async function collect(events: AsyncIterable<ScanEvent>) {
  const pages: { name: string; side?: string }[] = [];
  const notices: { kind: string; message: string }[] = [];
  for await (const e of events) {
    if (e.type === 'page') pages.push({ name: e.page.name, ...(e.page.side ? { side: e.page.side } : {}) });
    else notices.push({ kind: e.kind, message: e.message });
  }
  return { pages, notices };
}

const work = tempDir('zhzy-win-');
afterAll(() => work.remove());
const request = (over: Partial<ScanRequest> = {}): ScanRequest => ({
  source: 'feeder',
  colorMode: 'color',
  resolution: 300,
  paper: { widthMm: 210, heightMm: 297 },
  workDir: work.dir,
  ...over,
});
/** Recorded on Windows; paths are mapped onto this machine's work folder. */
const recorded = (name: string) =>
  fixture(name).replaceAll('{{DIR}}\\\\', `${work.dir}/`).replaceAll('{{DIR}}\\', `${work.dir}/`);

describe('WIA through PowerShell (recorded outputs)', () => {
  it('runs PowerShell with an encoded script: device ids are single-quoted literals, never interpolated', () => {
    const id = "{6BDD1FC6-810F-11D0-BEC7-08002BE2092F}\\0001'; Remove-Item C:\\ -Recurse; '";
    const args = powershellArgs(
      wiaScanScript(
        id,
        request({ source: 'feederDuplex', colorMode: 'grey', resolution: 200, startNumber: 5 }),
      ),
    );
    expect(args.slice(0, 5)).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
    ]);
    const script = Buffer.from(args[5]!, 'base64').toString('utf16le');
    expect(script).toContain(`$deviceId = ${psLiteral(id)}`);
    expect(psLiteral(id)).toBe(
      "'{6BDD1FC6-810F-11D0-BEC7-08002BE2092F}\\0001''; Remove-Item C:\\ -Recurse; '''",
    );
    expect(script).toContain('SetProp $device.Properties 3088 5');
    expect(script).toContain('SetProp $item.Properties 6146 2');
    expect(script).toContain('SetProp $item.Properties 6147 200');
    expect(script).toContain("$item.Transfer('{B96B3CAE-0728-11D3-9D7B-0000F81EF32E}')");
    expect(script).toContain('$n = 5');
  });

  it('lists scanners from the script’s JSON lines', async () => {
    const wia = new WiaScanner({ runner: new RecordedRunner(fixture('wia-list.txt')) });
    expect(await wia.list()).toEqual([
      { id: '{6BDD1FC6-810F-11D0-BEC7-08002BE2092F}\\0001', name: 'Canon DR-C240', vendor: 'Canon' },
      { id: '{6BDD1FC6-810F-11D0-BEC7-08002BE2092F}\\0003', name: 'EPSON DS-530', vendor: 'EPSON' },
    ]);
  });

  it.each([
    ['wia-scan-feeder.txt', 3, { kind: 'feederEmpty', message: T.feederEmptyDone }],
    ['wia-scan-jam.txt', 2, { kind: 'jam', message: T.jam }],
    ['wia-scan-multifeed.txt', 1, { kind: 'doubleFeed', message: T.doubleFeed }],
    ['wia-scan-busy.txt', 0, { kind: 'busy', message: T.busy }],
  ])('reads %s: pages as they are saved, then the HRESULT as a notice', async (name, count, notice) => {
    const wia = new WiaScanner({ runner: new RecordedRunner(recorded(name)) });
    const { pages, notices } = await collect(wia.scan('dev', request(), new AbortController().signal));
    expect(pages.map((p) => p.name)).toEqual(
      Array.from({ length: count }, (_, i) => `wia-${String(i + 1).padStart(4, '0')}.jpg`),
    );
    expect(notices).toEqual([notice]);
  });
});

describe('TWAIN through NAPS2’s console (recorded outputs)', () => {
  it('builds the console arguments', () => {
    expect(naps2ScanArgs('Canon DR-C240 TWAIN', request({ source: 'feederDuplex' }))).toEqual([
      '--driver',
      'twain',
      '--device',
      'Canon DR-C240 TWAIN',
      '--source',
      'duplex',
      '--dpi',
      '300',
      '--bitdepth',
      'color',
      '--pagesize',
      'a4',
      '-o',
      path.join(work.dir, 'naps2-$(nnnn).jpg'),
      '--noprofile',
      '--force',
      '--verbose',
    ]);
    expect(
      naps2ScanArgs(
        'x',
        request({ source: 'flatbed', colorMode: 'lineart', paper: { widthMm: 185, heightMm: 260 } }),
      ),
    ).toContain('185x260mm');
  });

  it('lists TWAIN sources', async () => {
    const naps2 = new Naps2TwainScanner({ runner: new RecordedRunner(fixture('naps2-list.txt')) });
    expect((await naps2.list()).map((d) => d.name)).toEqual(['Canon DR-C240 TWAIN', 'EPSON DS-530 II']);
  });

  it('hands over the pages NAPS2 wrote when the batch ended, and reads why it ended', async () => {
    const dir = path.join(work.dir, 'ok');
    fs.mkdirSync(dir);
    const files = [1, 2, 3, 4].map((n) => path.join(dir, `naps2-000${n}.jpg`));
    const ok = await collect(
      new Naps2TwainScanner({ runner: new RecordedRunner(recorded('naps2-scan-ok.txt'), files) }).scan(
        'Canon DR-C240 TWAIN',
        request({ workDir: dir, source: 'feederDuplex' }),
        new AbortController().signal,
      ),
    );
    expect(ok.pages.map((p) => p.side)).toEqual(['front', 'back', 'front', 'back']);
    expect(ok.notices).toEqual([{ kind: 'feederEmpty', message: T.feederEmptyDone }]);

    const jamDir = path.join(work.dir, 'jam');
    fs.mkdirSync(jamDir);
    const jam = await collect(
      new Naps2TwainScanner({
        runner: new RecordedRunner(
          recorded('naps2-scan-jam.txt'),
          [1, 2].map((n) => path.join(jamDir, `naps2-000${n}.jpg`)),
          1,
        ),
      }).scan('x', request({ workDir: jamDir }), new AbortController().signal),
    );
    expect(jam.pages).toHaveLength(2);
    expect(jam.notices).toEqual([{ kind: 'jam', message: T.jam }]);

    const emptyDir = path.join(work.dir, 'empty');
    fs.mkdirSync(emptyDir);
    const empty = await collect(
      new Naps2TwainScanner({ runner: new RecordedRunner(recorded('naps2-scan-empty.txt'), [], 1) }).scan(
        'x',
        request({ workDir: emptyDir }),
        new AbortController().signal,
      ),
    );
    expect(empty.pages).toEqual([]);
    expect(empty.notices).toEqual([{ kind: 'feederEmpty', message: T.feederEmpty }]);
  });
});
