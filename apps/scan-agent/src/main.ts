// Node's compile cache (`module.enableCompileCache()`) was tried here and left out (ADR 0055, "Lazy start"): its code cache made
// the idle agent 5–9 MB larger for no start-up gain that mattered (start is well under the 2 s goal without it).
const { runCli } = await import('./cli.js');

// `tsx src/main.ts` starts the agent; any other command goes through the CLI (`tsx src/cli.ts status`).
const code = await runCli(process.argv.length > 2 ? process.argv.slice(2) : ['start']);
if (code !== null) process.exitCode = code;
