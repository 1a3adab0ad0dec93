// The host's recognition worker pool: A4 300 dpi grey JPEG pages (pencil-filled personalised cards, skewed a little,
// q85) read by RecognitionPool on every core, beside a bare sharp decode of the same files on every core (one
// process per core, each decoding its share), with the memory of each worker. Pages are generated first.
// Run with `npm run bench -w @zhzy/server`; PAGES=… (default 48) changes the count.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layoutCard } from '@zhzy/answer-card';
import { makeSheet, renderFixture, seeded } from '@zhzy/answer-card/recognise/testing';
import type { CardLayout } from '@zhzy/contracts';
import { RecognitionPool } from '../src/modules/recognition/pool.js';

const PAGES = Number(process.env.PAGES ?? 48);
const cores = os.availableParallelism();

const paper = {
  id: 'bench-paper',
  title: '七年级数学期中测验',
  sections: [
    {
      title: '一、单选题',
      questions: Array.from({ length: 20 }, (_, i) => ({
        id: `s${i + 1}`,
        number: String(i + 1),
        kind: 'single' as const,
        score: 3,
      })),
    },
    {
      title: '二、多选题',
      questions: Array.from({ length: 5 }, (_, i) => ({
        id: `m${i + 1}`,
        number: String(i + 21),
        kind: 'multiple' as const,
        score: 4,
      })),
    },
    { title: '三、解答题', questions: [{ id: 'w1', number: '26', kind: 'written' as const, score: 12 }] },
  ],
};

async function decodeAll(files: string[]): Promise<number> {
  // One process per core, each decoding its share: the decode-only ceiling of the same machine.
  const shares = Array.from({ length: cores }, (_, i) => files.filter((_, j) => j % cores === i));
  const script = `import sharp from 'sharp'; sharp.concurrency(1); const files = JSON.parse(process.argv[1]);
    for (const f of files) await sharp(f).extractChannel(0).raw().toBuffer();`;
  const t0 = performance.now();
  await Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ['--input-type=module', '-e', script, JSON.stringify(share)],
            {
              env: { ...process.env, MALLOC_ARENA_MAX: '2' },
              stdio: 'inherit',
            },
          );
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`decode exit ${code}`))));
        }),
    ),
  );
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-pool-bench-'));
  try {
    const layout: CardLayout = layoutCard(
      paper,
      { size: 'A4', identity: 'qr' },
      { cardId: 'bench-card', version: 1 },
    );
    const students = Array.from({ length: 8 }, (_, i) => ({
      id: `stu-${i}`,
      name: `学生${i + 1}`,
      number: `2026000${i}`,
    }));
    const fixture = await renderFixture(dir, 'bench', layout, students);
    const rng = seeded(11);
    const files: string[] = [];
    const unique = Math.min(PAGES, 16);
    for (let i = 0; i < unique; i++) {
      const sheet = await makeSheet(dir, {
        name: `p${i}`,
        fixture,
        copy: i % students.length,
        dpi: 300,
        plan: { mix: { fill: 3, dark: 2, light: 1 } },
        distortion: { rotateDeg: (rng() - 0.5) * 3, format: 'jpeg', quality: 85, density: true, noise: 4 },
        seed: i + 1,
      });
      files.push(sheet.file);
    }
    while (files.length < PAGES) files.push(files[files.length % unique]!);
    const bytes = files.map((f) => fs.readFileSync(f));

    const decodeSeconds = await decodeAll(files);
    const pool = new RecognitionPool({ size: cores });
    await pool.warm();
    const resolve = async () => layout;
    // One warm-up page per worker (zxing's first decode, libvips caches).
    await Promise.all(bytes.slice(0, cores).map((b) => pool.recognise(b, resolve)));
    const t0 = performance.now();
    const outs = await Promise.all(bytes.map((b) => pool.recognise(b, resolve)));
    const poolSeconds = (performance.now() - t0) / 1000;
    const memory = pool.memory();
    await pool.close();

    const failed = outs.filter((o) => o.result.status === 'failed').length;
    const decodeRate = PAGES / decodeSeconds;
    const poolRate = PAGES / poolSeconds;
    const mb = (b: number) => Math.round(b / 1024 / 1024);
    console.log(`recognition worker pool — ${PAGES} A4 300 dpi JPEG pages, ${cores} cores`);
    console.log(
      `  bare sharp decode, ${cores} processes: ${decodeRate.toFixed(1)} pages/s (${(decodeRate / cores).toFixed(1)} per core)`,
    );
    console.log(
      `  worker pool, ${cores} workers:        ${poolRate.toFixed(1)} pages/s (${(poolRate / cores).toFixed(1)} per core), ${Math.round((100 * poolRate) / decodeRate)} % of decode-only`,
    );
    console.log(`  memory per worker: ${memory.map((m) => `${mb(m)} MB`).join(', ')} (target ≤ 300 MB)`);
    console.log(`  pages failed: ${failed}`);
    console.log(
      `  load average: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ', ',
        )} (figures are pessimistic when the machine is busy; the ratio is measured in the same run)`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
