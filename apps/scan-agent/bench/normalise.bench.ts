// Page normalisation (SPEC §5) on one core: realistic 300 dpi A4 pages from the virtual scanner (pencil-filled demo
// cards, slightly rotated, noisy), as a colour JPEG and as a 1-bit PNG, each run through `normalisePage` (probe,
// blank check, deskew, resize to 2480×3507, JPEG) beside a bare sharp decode of the same files. Prints pages/s per
// core for both and their ratio. Pages are generated first; sharp runs with one thread, and pages/s per core is
// counted against the process's CPU time (user + system, every thread), which a loaded machine distorts far less
// than the wall clock (also printed).
// Run with `npm run bench -w @zhzy/scan-agent` (or `npm run bench` at the root); PAGES=… (default 8) per format.
import os from 'node:os';
import sharp from 'sharp';
import { PAPER_SIZE_CODES, type ColorMode } from '@zhzy/contracts';
import { normalisePage } from '../src/pages/normalise.js';
import { demoLayout } from '../src/scanners/virtual/demo-card.js';
import { Random } from '../src/scanners/virtual/random.js';
import { decideSheet, demoStudents, renderSheetPage } from '../src/scanners/virtual/sheet.js';

const PAGES = Number(process.env.PAGES ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

async function makePages(colorMode: ColorMode): Promise<Buffer[]> {
  const layout = demoLayout();
  const students = demoStudents(PAGES);
  const pages: Buffer[] = [];
  for (let i = 0; i < PAGES; i++) {
    const rng = new Random(7_919 * (i + 1));
    const truth = decideSheet(layout, students[i]!, rng.fork(1));
    const page = await renderSheetPage(layout, 0, truth, { dpi: 300, colorMode, rng: rng.fork(2) });
    pages.push(page.image);
  }
  return pages;
}

/** Best pages per CPU-second and per wall-second of a few rounds over the same pages, one page at a time. */
async function pagesPerSecond(
  pages: Buffer[],
  work: (page: Buffer) => Promise<unknown>,
): Promise<{ cpu: number; wall: number }> {
  await work(pages[0]!); // warm-up
  const best = { cpu: 0, wall: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (const page of pages) await work(page);
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    best.cpu = Math.max(best.cpu, pages.length / ((used.user + used.system) / 1e6));
    best.wall = Math.max(best.wall, pages.length / wall);
  }
  return best;
}

const bareDecode = (page: Buffer) => sharp(page).raw().toBuffer();
const normalise = (page: Buffer) =>
  normalisePage(page, { paperSize: PAPER_SIZE_CODES.A4, adaptive: false, autoDeskew: true });

sharp.concurrency(1);
sharp.cache(false);
console.log('扫描页规范化（A4 300 dpi 虚拟扫描仪答题卡，单核）');
console.log(
  `  负载 loadavg  ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}（${os.cpus().length} 核）`,
);
for (const [label, mode] of [
  ['彩色 JPEG', 'color'],
  ['黑白 1-bit PNG', 'lineart'],
] as const) {
  const pages = await makePages(mode);
  const meta = await sharp(pages[0]).metadata();
  const mb = pages.reduce((s, p) => s + p.length, 0) / pages.length / 1024 / 1024;
  const decode = await pagesPerSecond(pages, bareDecode);
  const norm = await pagesPerSecond(pages, normalise);
  console.log(`  ${label}（${meta.width}×${meta.height}，平均 ${mb.toFixed(2)} MB，${pages.length} 页）`);
  console.log(
    `    sharp 解码        ${decode.cpu.toFixed(2)} 页/s/核（挂钟 ${decode.wall.toFixed(2)} 页/s）`,
  );
  console.log(`    规范化            ${norm.cpu.toFixed(2)} 页/s/核（挂钟 ${norm.wall.toFixed(2)} 页/s）`);
  console.log(
    `    规范化 / 解码     ${(norm.cpu / decode.cpu).toFixed(2)}（CPU 用时为解码的 ${(decode.cpu / norm.cpu).toFixed(1)} 倍）`,
  );
}
console.log(
  `  负载 loadavg  ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}`,
);
