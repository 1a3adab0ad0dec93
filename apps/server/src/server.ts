import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { buildAdminApp } from './plugins/operations.js';
import { LOG_NAMES } from './i18n/messages.js';

// Starts the host: validated configuration, the app, then the port (and the admin port when METRICS_PORT is set).
// SIGTERM/SIGINT shut down gracefully: /ready turns 503, the port stops taking connections, running requests and
// jobs finish, then the database and the object store close; past SHUTDOWN_TIMEOUT_SECONDS the process exits anyway.
const config = loadConfig();
const app = await buildApp({ config });
const admin = config.METRICS_PORT !== undefined ? buildAdminApp(app, app.metrics, app.isClosing) : null;

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, timeoutSeconds: config.SHUTDOWN_TIMEOUT_SECONDS }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error('shutdown took too long; exiting with running work left to the queue');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000);
    deadline.unref();
    // The admin port answers (ready: 503) until the main app has drained, then closes too.
    app
      .close()
      .then(() => admin?.close())
      .then(
        () => {
          app.log.info('shut down cleanly');
          process.exit(0);
        },
        (err: unknown) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}

await app.listen({ port: config.PORT, host: config.HOST });
if (admin) {
  const address = await admin.listen({ port: config.METRICS_PORT, host: config.METRICS_HOST });
  app.log.info(`metrics, health and readiness on ${address}`);
}
app.log.info(`${LOG_NAMES.product} is ready on http://localhost:${config.PORT}`);
