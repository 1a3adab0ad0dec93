import { runCli } from './cli.js';

// `tsx src/main.ts` starts the agent; any other command goes through the CLI (`tsx src/cli.ts status`).
const code = await runCli(process.argv.length > 2 ? process.argv.slice(2) : ['start']);
if (code !== null) process.exitCode = code;
