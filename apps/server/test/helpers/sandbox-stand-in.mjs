// A DocumentSandbox child for the sandbox's own tests: the real child's protocol, with jobs that spend CPU or only
// wait. `burn(ms)`: computes for that long (CPU time) and answers; `wait(ms)`: answers after that long using no CPU;
// `hang()`: never answers and uses no CPU.
const jobs = {
  burn: (ms) => {
    const start = process.cpuUsage();
    let x = 0;
    for (;;) {
      for (let i = 0; i < 100_000; i++) x += Math.sqrt(i);
      const used = process.cpuUsage(start);
      if ((used.user + used.system) / 1000 >= ms) return x > 0;
    }
  },
  wait: (ms) => new Promise((resolve) => setTimeout(() => resolve('waited'), ms)),
  hang: () => new Promise(() => setInterval(() => {}, 60_000)),
};

process.on('message', (m) => {
  void Promise.resolve()
    .then(() => jobs[m.job](...m.args))
    .then(
      (value) => process.send({ id: m.id, ok: true, value }),
      (error) =>
        process.send({ id: m.id, ok: false, error: { name: 'Error', message: String(error), fields: {} } }),
    );
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
