import module from 'node:module';

// V8's code cache for the bundle and its chunks (Node ≥ 22.1; the packages bundle Node 22): a second start skips
// parsing and compiling most of the agent (ADR 0055, "Lazy start"). Enabled before the agent's modules load, hence
// the dynamic import below. The cache lives in the OS temp folder; a stale or missing one only costs time.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runCli } = await import('./cli.js');

// `tsx src/main.ts` starts the agent; any other command goes through the CLI (`tsx src/cli.ts status`).
const code = await runCli(process.argv.length > 2 ? process.argv.slice(2) : ['start']);
if (code !== null) process.exitCode = code;
