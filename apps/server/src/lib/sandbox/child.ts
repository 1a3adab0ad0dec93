import { loadJob, type JobName } from './jobs.js';
import type { SerialisedError } from './pool.js';

// A DocumentSandbox child: runs one conversion at a time and answers with its value or its error. The host kills it
// past its memory or time limit.

const send = (m: unknown) => process.send?.(m);

function serialise(error: unknown): SerialisedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

process.on('message', (m: { id: number; job: JobName; args: unknown[] }) => {
  void loadJob(m.job)
    .then((run) => run(...m.args))
    .then(
      (value) => send({ id: m.id, ok: true, value }),
      (error: unknown) => send({ id: m.id, ok: false, error: serialise(error) }),
    );
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
