import { buildAgent } from './app.js';
import { loadAgentConfig } from './config.js';

// The agent listens on 127.0.0.1 only: it is never reachable from the network.
const config = loadAgentConfig();
const app = buildAgent(config);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
await app.listen({ host: '127.0.0.1', port: config.AGENT_PORT });
