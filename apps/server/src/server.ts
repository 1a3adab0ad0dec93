import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Starts the host: validated configuration, the app, then the port. Stops cleanly on SIGINT/SIGTERM.
const config = loadConfig();
const app = await buildApp({ config });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.PORT, host: config.HOST });
app.log.info(`智能作业 is ready on http://localhost:${config.PORT}`);
