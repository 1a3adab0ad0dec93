import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_PROTOCOL_VERSION, AgentHealthSchema } from '@zhzy/contracts';
import { buildAgent } from '../src/app.js';
import { loadAgentConfig } from '../src/config.js';

describe('scan agent guards', () => {
  const app = buildAgent(loadAgentConfig({ LOG_LEVEL: 'silent', AGENT_PORT: '0' }));
  let base = '';
  beforeAll(async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address && typeof address === 'object') base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => app.close());

  it('answers its health with the protocol version on loopback', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(AgentHealthSchema.parse(await res.json()).protocolVersion).toBe(AGENT_PROTOCOL_VERSION);
  });

  it('refuses a foreign Host header with 421 (DNS rebinding)', async () => {
    const res = await app.inject({ method: 'GET', url: '/health', headers: { host: 'evil.example:17310' } });
    expect(res.statusCode).toBe(421);
    expect(res.json().message).toContain('扫描助手');
  });

  it('refuses a web origin outside the allow-list with 403 and allows the host’s own', async () => {
    const bad = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { host: '127.0.0.1', origin: 'https://evil.example' },
    });
    expect(bad.statusCode).toBe(403);
    const good = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { host: '127.0.0.1', origin: 'http://localhost:3000' },
    });
    expect(good.statusCode).toBe(200);
    expect(good.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });
});
