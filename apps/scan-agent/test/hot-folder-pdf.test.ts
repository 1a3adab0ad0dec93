import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCAN_PDF_MAX_PAGES } from '@zhzy/contracts';
import { T } from '../src/i18n/zh-CN.js';
import { HotFolderScanner, UNREADABLE_DIR } from '../src/scanners/hot-folder/hot-folder-driver.js';
import type { ScanEvent, ScanRequest } from '../src/scanners/port.js';
import { blankPdf } from './helpers.js';

// Issue 21 #11: the hot folder rasterised a 5,000-page PDF in full (the host takes at most 100 pages per PDF), and
// finishing the scan left pdftoppm running. Now a PDF past the host's cap is counted first and set aside with a
// Chinese notice, nothing rasterised; finishing the scan ends pdftoppm and leaves the file in the inbox.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-hot-pdf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function folders(name: string) {
  const inbox = path.join(dir, `${name}-inbox`);
  const workDir = path.join(dir, `${name}-work`);
  fs.mkdirSync(inbox);
  fs.mkdirSync(workDir);
  const request: ScanRequest = { source: 'feeder', colorMode: 'color', resolution: 72, paper: null, workDir };
  return { inbox, workDir, request };
}

/** A hot folder with a stand-in pdftoppm and no pdfinfo. */
const withoutPdfinfo = (inbox: string, pdftoppm: string, extra: { idleTimeoutMs?: number } = {}) =>
  new HotFolderScanner({ folders: [inbox], pollMs: 50, stableMs: 100, pdftoppm, pdfinfo: null, ...extra });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('hot folder PDFs', () => {
  it.runIf(fs.existsSync('/usr/bin/pdfinfo'))(
    'sets a 5,000-page PDF aside with a Chinese notice, rasterising nothing',
    async () => {
      const { inbox, workDir, request } = folders('many');
      fs.writeFileSync(path.join(inbox, 'book.pdf'), blankPdf(5000));
      const scanner = new HotFolderScanner({
        folders: [inbox],
        pollMs: 50,
        stableMs: 100,
        idleTimeoutMs: 500,
      });
      const events: ScanEvent[] = [];
      for await (const e of scanner.scan(inbox, request, new AbortController().signal)) events.push(e);
      expect(events).toEqual([
        { type: 'notice', kind: 'error', message: T.pdfTooManyPages('book.pdf', SCAN_PDF_MAX_PAGES) },
      ]);
      expect(fs.readdirSync(path.join(inbox, UNREADABLE_DIR))).toEqual(['book.pdf']);
      expect(fs.readdirSync(workDir)).toEqual([]);
    },
    60_000,
  );

  it('refuses a PDF past the cap even without pdfinfo, after at most one page more than the cap', async () => {
    const { inbox, workDir, request } = folders('no-pdfinfo');
    // A stand-in pdftoppm that writes one PNG per page asked for (`-l` bounds it) and says how many it was asked.
    const asked = path.join(dir, 'asked');
    const tool = path.join(dir, 'fake-pdftoppm.sh');
    fs.writeFileSync(
      tool,
      `#!/bin/sh\nlast=0\nwhile [ $# -gt 2 ]; do [ "$1" = "-l" ] && last=$2; shift; done\necho $last > ${asked}\ni=1\nwhile [ $i -le $last ]; do : > "$2-$i.png"; i=$((i+1)); done\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(inbox, 'book.pdf'), blankPdf(5000));
    const scanner = withoutPdfinfo(inbox, tool, { idleTimeoutMs: 500 });
    const events: ScanEvent[] = [];
    for await (const e of scanner.scan(inbox, request, new AbortController().signal)) events.push(e);
    expect(events.map((e) => (e.type === 'notice' ? e.message : e.type))).toEqual([
      T.pdfTooManyPages('book.pdf', SCAN_PDF_MAX_PAGES),
    ]);
    expect(Number(fs.readFileSync(asked, 'utf8'))).toBe(SCAN_PDF_MAX_PAGES + 1);
    expect(fs.readdirSync(workDir)).toEqual([]);
  }, 60_000);

  it('ends pdftoppm when the scan is finished, and keeps the PDF in the inbox', async () => {
    const { inbox, request } = folders('finish');
    const pidFile = path.join(dir, 'pdftoppm.pid');
    const tool = path.join(dir, 'slow-pdftoppm.sh');
    fs.writeFileSync(tool, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 120\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(inbox, 'class.pdf'), blankPdf(2));
    const scanner = withoutPdfinfo(inbox, tool);
    const finish = new AbortController();
    const events: ScanEvent[] = [];
    const scanning = (async () => {
      for await (const e of scanner.scan(inbox, request, finish.signal)) events.push(e);
    })();
    while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').trim() === '')
      await new Promise((r) => setTimeout(r, 20));
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    finish.abort();
    await scanning;
    while (alive(pid)) await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([]);
    expect(fs.readdirSync(inbox)).toEqual(['class.pdf']);
  }, 60_000);
});
