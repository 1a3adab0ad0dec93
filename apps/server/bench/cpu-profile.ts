// CPU profiles of a bench's host child over one call's load phase (issue 25: where the host's CPU per answer goes).
// The child runs `profileOnCommand` on its stdin: `profile-start` starts the V8 sampling profiler (node:inspector,
// the same profiler as `--cpu-prof`, but over the load phase only, not start-up and fill), `profile-stop <file>`
// writes the `.cpuprofile` (open it in Chrome DevTools) and answers `profile-done` on stdout. `summarise` turns a
// profile into the functions with the most self time, in ms of CPU per answer, so two runs compare by CPU, not by
// the wall clock of a loaded machine. Standalone: `tsx bench/cpu-profile.ts <file.cpuprofile> [answers]`.
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import path from 'node:path';
import readline from 'node:readline';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** In the host child: starts and stops the profiler on commands read from stdin, acknowledging on stdout. */
export function profileOnCommand(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): void {
  const session = new inspector.Session();
  session.connect();
  let ready = (async () => {
    await session.post('Profiler.enable');
    // 1 ms between samples (the default of --cpu-prof is 1 ms too).
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  })();
  readline.createInterface({ input }).on('line', (line) => {
    const [command, ...rest] = line.trim().split(' ');
    ready = ready.then(async () => {
      if (command === 'profile-start') {
        await session.post('Profiler.start');
        output.write('profile-started\n');
      } else if (command === 'profile-stop') {
        const { profile } = await session.post('Profiler.stop');
        const file = rest.join(' ');
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify(profile));
        output.write('profile-done\n');
      }
    });
  });
}

/** Where a function is: its file under the repository or node_modules, with its line. */
function where(frame: ProfileNode['callFrame']): string {
  const url = frame.url.replace(/^file:\/\//, '');
  const nm = url.lastIndexOf('node_modules/');
  const short =
    nm >= 0 ? url.slice(nm + 'node_modules/'.length) : url.replace(/^.*?\/(apps|packages)\//, '$1/');
  return short ? `${short}:${frame.lineNumber + 1}` : '(native)';
}

export interface ProfileSummary {
  /** CPU ms sampled (idle and GC included separately). */
  sampledMs: number;
  idleMs: number;
  gcMs: number;
  /** Functions by self time, most first. */
  top: { name: string; where: string; selfMs: number }[];
  /** Self time per package or source folder, most first. */
  byPlace: { place: string; selfMs: number }[];
}

/** The functions and places with the most self time in a profile. */
export function summarise(profile: Profile, limit = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the delta to the next sample (the last one's is unknown, taken as the previous).
    const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + dt);
  }
  let idleMs = 0;
  let gcMs = 0;
  let sampledMs = 0;
  const fns = new Map<string, { name: string; where: string; selfMs: number }>();
  const places = new Map<string, number>();
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName || '(anonymous)';
    sampledMs += ms;
    if (name === '(idle)') {
      idleMs += ms;
      continue;
    }
    if (name === '(garbage collector)') gcMs += ms;
    const at = where(node.callFrame);
    const key = `${name} ${at}`;
    const entry = fns.get(key) ?? { name, where: at, selfMs: 0 };
    entry.selfMs += ms;
    fns.set(key, entry);
    const place =
      at === '(native)'
        ? name
        : at
            .split('/')
            .slice(0, at.startsWith('@') ? 2 : 1)
            .join('/');
    const placeKey = at.startsWith('apps/')
      ? at.split('/').slice(0, 5).join('/').replace(/:\d+$/, '')
      : place;
    places.set(placeKey, (places.get(placeKey) ?? 0) + ms);
  }
  return {
    sampledMs,
    idleMs,
    gcMs,
    top: [...fns.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, limit),
    byPlace: [...places.entries()]
      .map(([place, selfMs]) => ({ place, selfMs }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, limit),
  };
}

/** Prints a summary in ms of CPU per answer. */
export function printSummary(title: string, profile: Profile, answers: number, limit = 20): void {
  const s = summarise(profile, limit);
  const per = (ms: number) => (ms / Math.max(1, answers)).toFixed(3);
  const busy = s.sampledMs - s.idleMs;
  console.log(
    `  profile of ${title}: ${answers} answers, busy ${busy.toFixed(0)} ms (${per(busy)} ms/answer), GC ${per(s.gcMs)} ms/answer`,
  );
  console.log('    self ms/answer  function  (where)');
  for (const f of s.top) console.log(`    ${per(f.selfMs).padStart(8)}  ${f.name}  (${f.where})`);
  console.log('    self ms/answer  by package or source folder');
  for (const p of s.byPlace.slice(0, 12)) console.log(`    ${per(p.selfMs).padStart(8)}  ${p.place}`);
}

if (process.argv[1] && import.meta.filename === fs.realpathSync(process.argv[1])) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: tsx bench/cpu-profile.ts <file.cpuprofile> [answers]');
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  printSummary(path.basename(file), profile, Number(process.argv[3] ?? 1), 30);
}
