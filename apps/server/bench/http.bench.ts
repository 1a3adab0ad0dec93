// npm run bench -w @zhzy/server: token issue and basket read of the host, beside a bare Fastify hello-world
// measured in the same run, on loopback only. Bounded: a fixed duration per case, then everything stops.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { AddBasketSchema, TokenResponseSchema } from '@zhzy/contracts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const basic = `Basic ${Buffer.from('zhzy-web:zhzy-web-secret').toString('base64')}`;
const loginBody = new URLSearchParams({
  grant_type: 'password',
  username: 'demo-teacher',
  password: 'Demo@2026',
}).toString();

const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'servers.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const first = await new Promise<string>((resolve) =>
  readline.createInterface({ input: child.stdout }).once('line', resolve),
);
const ports = JSON.parse(first) as { hello: number; host: number };
const host = `http://127.0.0.1:${ports.host}`;

async function run(title: string, opts: autocannon.Options) {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...opts });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${title}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return {
    title,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

try {
  const login = await fetch(`${host}/oauth/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: loginBody,
  });
  const { access_token } = TokenResponseSchema.parse(await login.json());
  const auth = { authorization: `Bearer ${access_token}` };
  // A realistic basket: ten mathematics questions in it.
  const page = (await (
    await fetch(`${host}/teacher/question/page?subjectId=subj-junior-math&size=10`, { headers: auth })
  ).json()) as {
    data: { records: { id: string }[] };
  };
  const add = AddBasketSchema.parse({ questionIds: page.data.records.map((q) => q.id) });
  await fetch(`${host}/teacher/paper/info/addBasket`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(add),
  });

  const rows = [
    await run('bare Fastify hello-world', { url: `http://127.0.0.1:${ports.hello}/` }),
    await run('basket read (GET getQuestionBasket)', {
      url: `${host}/teacher/paper/info/getQuestionBasket`,
      headers: auth,
    }),
    // argon2id is deliberately slow: fewer connections, so the figure is throughput, not queueing.
    await run('token issue (password grant, argon2id)', {
      url: `${host}/oauth/oauth/token`,
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: loginBody,
      // Three: a fourth concurrent sign-in of one account from one address would be asked for the captcha (ADR 0042).
      connections: 3,
    }),
  ];
  const [hello, basket] = rows;
  console.log(
    `\nhost HTTP benchmark — ${DURATION_S} s per case, ${CONNECTIONS} connections (token issue: 3), loopback`,
  );
  console.log('case'.padEnd(42), 'req/s'.padStart(10), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8));
  for (const r of rows) {
    console.log(
      r.title.padEnd(42),
      r.rps.toFixed(0).padStart(10),
      String(r.p50).padStart(8),
      String(r.p99).padStart(8),
    );
  }
  const ratio = basket!.rps / hello!.rps;
  console.log(
    `\nbasket read / hello-world = ${(ratio * 100).toFixed(1)} % (target ≥ 30 %); basket p99 = ${basket!.p99} ms (target < 20 ms)`,
  );
} finally {
  child.stdin.end();
  child.kill('SIGTERM');
}
