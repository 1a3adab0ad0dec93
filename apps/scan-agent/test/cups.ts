import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from './helpers.js';

/*
 * A private CUPS scheduler for the printing tests: its own configuration, spool and logs in a temporary folder, its
 * own port on 127.0.0.1, and one cups-pdf queue whose PDFs land in that folder. The system's CUPS (if any) is not
 * touched; the one file written outside the folder is cups-pdf's per-queue configuration
 * (/etc/cups/cups-pdf-<queue>.conf, the only place cups-pdf reads it from), removed again by `stop`.
 */

export const CUPSD = '/usr/sbin/cupsd';
export const CUPS_PDF_BACKEND = '/usr/lib/cups/backend/cups-pdf';
export const CUPS_PDF_PPD = '/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd';

export interface TestCups {
  /** `127.0.0.1:port`, for CUPS_SERVER / AGENT_CUPS_SERVER. */
  server: string;
  port: number;
  queue: string;
  /** The queue's IPP endpoint. */
  ippUrl: string;
  /** Where cups-pdf writes the printed PDFs. */
  outDir: string;
  errorLog: string;
  /** Runs a CUPS client command against this scheduler. */
  client(command: string, args: string[]): { code: number | null; stdout: string; stderr: string };
  /** Waits for the PDF of a CUPS job (`queue-12` or `12`) and answers its path. */
  output(jobId: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/** Fails with what to install when the CUPS tools are missing (the README's test command installs them). */
export function requireCups(): void {
  const missing = [CUPSD, CUPS_PDF_BACKEND, CUPS_PDF_PPD].filter((f) => !fs.existsSync(f));
  for (const tool of ['lp', 'lpstat', 'lpadmin', 'pdftoppm', 'pdfinfo'])
    if (spawnSync(tool, ['--help'], { stdio: 'ignore' }).error) missing.push(tool);
  if (missing.length)
    throw new Error(
      `missing ${missing.join(', ')}: install Debian's cups cups-client cups-bsd printer-driver-cups-pdf poppler-utils (ensurePrinterTools() in scripts/lib/printer.mjs; the README's test command does it)`,
    );
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    throw new Error(
      'the CUPS printing test starts cupsd with the cups-pdf backend, which only root may run: run the test command as root (as CI does)',
    );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts cupsd in the foreground with a private configuration and adds a cups-pdf queue. */
export async function startTestCups(): Promise<TestCups> {
  requireCups();
  const t = tempDir('zhzy-cups-');
  fs.chmodSync(t.dir, 0o755);
  const d = (...p: string[]) => path.join(t.dir, ...p);
  for (const sub of ['spool', 'tmp', 'cache', 'state', 'log', 'ppd', 'out']) fs.mkdirSync(d(sub));
  fs.chmodSync(d('tmp'), 0o1777);
  fs.chmodSync(d('out'), 0o1777);
  fs.chmodSync(d('spool'), 0o710);
  const port = await freePort();
  const queue = `zhzy_pdf_${process.pid}_${port}`;
  fs.writeFileSync(
    d('cupsd.conf'),
    [
      `Listen 127.0.0.1:${port}`,
      'LogLevel info',
      'WebInterface No',
      'Browsing No',
      'DefaultAuthType None',
      'MaxLogSize 0',
      'PreserveJobHistory Yes',
      '<Location />',
      '  Order allow,deny',
      '  Allow all',
      '</Location>',
      '<Location /admin>',
      '  Order allow,deny',
      '  Allow all',
      '</Location>',
      '<Policy default>',
      '  <Limit All>',
      '    Order deny,allow',
      '  </Limit>',
      '</Policy>',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    d('cups-files.conf'),
    [
      `ServerRoot ${t.dir}`,
      `RequestRoot ${d('spool')}`,
      `TempDir ${d('tmp')}`,
      `CacheDir ${d('cache')}`,
      `StateDir ${d('state')}`,
      `AccessLog ${d('log', 'access_log')}`,
      `ErrorLog ${d('log', 'error_log')}`,
      `PageLog ${d('log', 'page_log')}`,
      'SystemGroup root',
      'ServerBin /usr/lib/cups',
      'DataDir /usr/share/cups',
      'FileDevice No',
      '',
    ].join('\n'),
  );
  const queueConf = `/etc/cups/cups-pdf-${queue}.conf`;
  fs.writeFileSync(
    queueConf,
    [`Out ${d('out')}`, `AnonDirName ${d('out')}`, 'Label 2', 'Grp root', ''].join('\n'),
  );

  const cupsd: ChildProcess = spawn(CUPSD, ['-f', '-c', d('cupsd.conf'), '-s', d('cups-files.conf')], {
    stdio: 'ignore',
  });
  const server = `127.0.0.1:${port}`;
  const env = { ...process.env, CUPS_SERVER: server, LC_ALL: 'C' };
  const client = (command: string, args: string[]) => {
    const r = spawnSync(command, args, { env, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  };
  const stop = async () => {
    if (cupsd.exitCode === null) {
      cupsd.kill('SIGTERM');
      await Promise.race([new Promise((r) => cupsd.once('exit', r)), sleep(5_000)]);
      if (cupsd.exitCode === null) cupsd.kill('SIGKILL');
    }
    fs.rmSync(queueConf, { force: true });
    t.remove();
  };
  try {
    const start = Date.now();
    while (client('lpstat', ['-r']).stdout.trim() !== 'scheduler is running') {
      if (cupsd.exitCode !== null || Date.now() - start > 15_000)
        throw new Error(
          `cupsd did not start: ${fs.readFileSync(d('log', 'error_log'), 'utf8').slice(-2000)}`,
        );
      await sleep(100);
    }
    const added = client('lpadmin', [
      '-p',
      queue,
      '-E',
      '-v',
      `cups-pdf:/${queue}`,
      '-P',
      CUPS_PDF_PPD,
      '-D',
      '测试 PDF 打印机',
    ]);
    if (added.code !== 0) throw new Error(`lpadmin failed: ${added.stderr}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    server,
    port,
    queue,
    ippUrl: `ipp://127.0.0.1:${port}/printers/${queue}`,
    outDir: d('out'),
    errorLog: d('log', 'error_log'),
    client,
    async output(jobId, timeoutMs = 30_000) {
      const n = jobId.replace(/^.*-/, '');
      const start = Date.now();
      for (;;) {
        const file = fs.readdirSync(d('out')).find((f) => f.endsWith(`-job_${n}.pdf`));
        // cups-pdf writes the file, then gives it its owner: wait until the job is completed in CUPS too.
        if (file && client('lpstat', ['-W', 'not-completed', '-o', queue]).stdout.trim() === '')
          return d('out', file);
        if (Date.now() - start > timeoutMs)
          throw new Error(
            `no PDF for job ${jobId} in ${d('out')}: ${fs.readFileSync(d('log', 'error_log'), 'utf8').slice(-2000)}`,
          );
        await sleep(100);
      }
    },
    stop,
  };
}
