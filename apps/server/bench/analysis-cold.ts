// The cold analysis read of one test, measured in fresh processes (ADR 0033, ADR 0037): the analysis bench's data
// (analysis-fill.ts) is written once into a kept database, then each child process builds the host on it and reads
// the one test's analysis: first read in the process, then again after the school's context changed (a student
// renamed back and forth: everything kept is computed anew), then as many reads right after a score change. Each
// read reports wall time and the host process's CPU time (user + system; on SQLite the whole query runs in-process,
// on PostgreSQL the server's share is not counted), which stays comparable when the shared machine is loaded. The
// load average is printed with every line.
//
//   npx tsx bench/analysis-cold.ts [sqlite|postgres|both] [processes=5] [reads=5]
//
// Bounded: the kept database is removed at the end.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { connect, type DialectName } from '../src/db/connect.js';
import { bearer, signIn } from '../test/helpers/auth.js';
import { openTestDb } from '../test/helpers/db.js';
import { benchHost, fill, scoreFlip } from './analysis-fill.js';

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One child: builds the host on the kept database and reads the test cold `reads` times; prints one JSON line. */
async function child(dialect: DialectName, location: string, testId: string, reads: number) {
  const db = connect(
    dialect === 'sqlite'
      ? { dataDir: location }
      : { databaseUrl: location, dataDir: os.tmpdir(), poolSize: 5 },
  );
  const app = await benchHost(db, dialect, location);
  try {
    const headers = bearer((await signIn(app, 'demo-teacher')).access_token);
    const url = `/teacher/analysis/homework/${testId}`;
    let renamed = false;
    const rename = () => {
      renamed = !renamed;
      return db.kysely
        .updateTable('students')
        .set({ name: renamed ? '学生0-0′' : '学生0-0' })
        .where('id', '=', 'bench-student-0-0')
        .execute();
    };
    const out: { wall: number; cpu: number; bytes: number }[] = [];
    // PROFILE=<file>: a CPU profile of the first read alone (node:inspector), for reading where it goes.
    const profile = process.env.PROFILE;
    const session = profile ? new (await import('node:inspector/promises')).Session() : null;
    for (let i = 0; i < reads; i += 1) {
      if (i > 0) await rename();
      if (session && i === 0) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 100 });
        await session.post('Profiler.start');
      }
      const c0 = cpuMs();
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      const wall = performance.now() - t0;
      const cpu = cpuMs() - c0;
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
      out.push({ wall, cpu, bytes: res.body.length });
      if (session && i === 0) {
        const { profile: data } = await session.post('Profiler.stop');
        (await import('node:fs')).writeFileSync(profile!, JSON.stringify(data));
        session.disconnect();
      }
    }
    if (renamed) await rename();
    // Then as many reads right after one marker's score changed (the kept model brought up to date, ADR 0030).
    const marker = await scoreFlip(db.kysely, testId);
    const changed: { wall: number; cpu: number; bytes: number }[] = [];
    for (let i = 0; i < reads; i += 1) {
      await marker.flip();
      const c0 = cpuMs();
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      changed.push({ wall: performance.now() - t0, cpu: cpuMs() - c0, bytes: res.body.length });
    }
    if (!marker.restored()) await marker.flip();
    console.log(JSON.stringify({ cold: out, changed }));
  } finally {
    await app.close();
    await db.close();
  }
}

async function parent(dialects: DialectName[], processes: number, reads: number) {
  const self = fileURLToPath(import.meta.url);
  for (const dialect of dialects) {
    const testDb = await openTestDb(dialect);
    try {
      const app = await benchHost(testDb.db, dialect, testDb.location);
      const { testId } = await fill(testDb.db.kysely);
      await app.close();
      if (dialect === 'sqlite') await testDb.db.close();
      const first: { wall: number; cpu: number }[] = [];
      const again: { wall: number; cpu: number }[] = [];
      const changed: { wall: number; cpu: number }[] = [];
      let bytes = 0;
      for (let p = 0; p < processes; p += 1) {
        const line = execFileSync(
          process.execPath,
          [...process.execArgv, self, 'child', dialect, testDb.location, testId, String(reads)],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
        )
          .trim()
          .split('\n')
          .at(-1)!;
        type Read = { wall: number; cpu: number; bytes: number };
        const { cold: runs, changed: marked } = JSON.parse(line) as { cold: Read[]; changed: Read[] };
        first.push(runs[0]!);
        again.push(...runs.slice(1));
        changed.push(...marked);
        bytes = runs[0]!.bytes;
      }
      const fmt = (v: { wall: number; cpu: number }[]) =>
        `wall ${median(v.map((x) => x.wall)).toFixed(0)} ms (${v.map((x) => x.wall.toFixed(0)).join(' ')}) · ` +
        `host CPU ${median(v.map((x) => x.cpu)).toFixed(0)} ms`;
      console.log(
        `${dialect.padEnd(8)} first read in a fresh process, median of ${processes}: ${fmt(first)}\n` +
          `${' '.repeat(9)}cold again in a warm process, median of ${again.length}: ${fmt(again)}\n` +
          `${' '.repeat(9)}after a score change, median of ${changed.length}: ${fmt(changed)}\n` +
          `${' '.repeat(9)}body ${(bytes / 1e6).toFixed(2)} MB · load average ${load()} on ${os.cpus().length} cores`,
      );
    } finally {
      if (dialect === 'sqlite') {
        const { rmSync } = await import('node:fs');
        rmSync(testDb.location, { recursive: true, force: true });
      } else await testDb.cleanup();
    }
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'child') {
  await child(args[0] as DialectName, args[1]!, args[2]!, Number(args[3]));
} else {
  const which = mode ?? 'both';
  const dialects: DialectName[] = which === 'both' ? ['sqlite', 'postgres'] : [which as DialectName];
  await parent(dialects, Number(args[0] ?? 5), Number(args[1] ?? 5));
}
