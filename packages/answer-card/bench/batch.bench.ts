// Personalised batch: 2,000 two-page A3 cards streamed to a file. Prints seconds, pages/s and peak memory.
// Run with `npm run bench -w @zhzy/answer-card` (or `npm run bench` at the root); STUDENTS=… changes the count.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layoutCard } from '../src/index.js';
import { renderCardPdf } from '../src/render/index.js';
import { students, twoPageA3Paper } from '../src/testing/factories.js';

const TARGET_SECONDS = 10;
const TARGET_RSS_MB = 500;
const count = Number(process.env.STUDENTS ?? 2000);

const layout = layoutCard(
  twoPageA3Paper(),
  { size: 'A3', columns: 2, identity: 'qr' },
  { cardId: '0199a3f2-7c41-7b3e-9d5a-2f6c8e1b4a70', version: 3 },
);
if (layout.pages.length !== 2)
  throw new Error(`the benchmark card should have 2 pages, it has ${layout.pages.length}`);
// Ids like the host's (UUIDv7), so the QR codes are as large as in production.
const batch = Array.from({ length: Math.ceil(count / 50) }, (_, c) => students(50, c + 1))
  .flat()
  .slice(0, count)
  .map((s, i) => ({ ...s, id: `0199a3f2-${String(i).padStart(4, '0')}-7b3e-9d5a-2f6c8e1b4a70` }));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-bench-'));
const file = path.join(dir, 'batch.pdf');
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

const started = process.hrtime.bigint();
const result = await renderCardPdf(layout, { students: batch, output: fs.createWriteStream(file) });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
const size = fs.statSync(file).size;
fs.rmSync(dir, { recursive: true, force: true });

const rssMb = peakRss / 1024 / 1024;
console.log('答题卡个性化批量生成（A3 两栏，每份 2 页）');
console.log(`  学生数        ${batch.length}`);
console.log(`  页数          ${result.pages}`);
console.log(`  用时          ${seconds.toFixed(2)} s（目标 ≤ ${TARGET_SECONDS} s）`);
console.log(`  速度          ${(result.pages / seconds).toFixed(0)} 页/s`);
console.log(`  峰值内存      ${rssMb.toFixed(0)} MB（目标 ≤ ${TARGET_RSS_MB} MB）`);
console.log(`  文件大小      ${(size / 1024 / 1024).toFixed(1)} MB`);
if (count >= 2000 && (seconds > TARGET_SECONDS || rssMb > TARGET_RSS_MB)) {
  console.error('未达到目标');
  process.exitCode = 1;
}
