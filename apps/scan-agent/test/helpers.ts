import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAgent, type Agent, type AgentDeps } from '../src/app.js';
import { loadAgentConfig, type AgentConfig } from '../src/config.js';

/** A temporary folder removed by the returned function. */
export function tempDir(prefix = 'zhzy-agent-'): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A SANE configuration folder that enables only the `test` backend (no hardware, no system change). */
export function saneTestConfig(): { dir: string; remove: () => void } {
  const t = tempDir('zhzy-sane-');
  fs.writeFileSync(path.join(t.dir, 'dll.conf'), 'test\n');
  const system = '/etc/sane.d/test.conf';
  fs.writeFileSync(
    path.join(t.dir, 'test.conf'),
    fs.existsSync(system) ? fs.readFileSync(system) : 'number_of_devices 2\n',
  );
  return t;
}

export interface TestAgent extends Agent {
  base: string;
  port: number;
  dataDir: string;
  config: AgentConfig;
  stop(): Promise<void>;
}

export const ORIGIN = 'http://localhost:3000';

/** An agent on 127.0.0.1 with a fresh data folder and the given drivers. */
export async function startTestAgent(
  deps: AgentDeps = {},
  env: Record<string, string> = {},
): Promise<TestAgent> {
  const data = tempDir();
  const config = loadAgentConfig({
    LOG_LEVEL: 'silent',
    AGENT_PORT: '0',
    AGENT_DATA_DIR: data.dir,
    AGENT_ESCL_DISCOVERY: 'false',
    AGENT_DRIVERS: '',
    ...env,
  });
  const agent = await buildAgent(config, { scanners: [], ...deps });
  await agent.app.listen({ host: '127.0.0.1', port: 0 });
  const address = agent.app.server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  return {
    ...agent,
    base: `http://127.0.0.1:${port}`,
    port,
    dataDir: data.dir,
    config,
    async stop() {
      await agent.close();
      data.remove();
    },
  };
}

/** The script token of an agent's data folder. */
export const scriptToken = (dataDir: string) =>
  fs.readFileSync(path.join(dataDir, 'agent-token'), 'utf8').trim();

/** Waits until `check` holds (polling), failing after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A PNG whose header claims 60000 × 60000 pixels (a decompression bomb); its data is garbage. */
export function bombPng(): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  ihdr[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(64)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PDF of `pages` blank 200×280 pt pages, written by hand (no PDF library needed). */
export function blankPdf(pages: number): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] >>'),
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
