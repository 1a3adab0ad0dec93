import Fastify, { type FastifyInstance } from 'fastify';
import { AGENT_PROTOCOL_VERSION, type AgentHealth } from '@zhzy/contracts';
import type { AgentConfig } from './config.js';

export const AGENT_VERSION = '0.1.0';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Builds the agent. Two guards from the start: a foreign Host header is refused with 421
 * (DNS rebinding), and a browser Origin outside the allow-list with 403.
 */
export function buildAgent(config: AgentConfig): FastifyInstance {
  const app = Fastify({ logger: { level: config.LOG_LEVEL } });

  app.addHook('onRequest', async (request, reply) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (!LOOPBACK_HOSTS.has(host)) {
      return reply.code(421).send({ code: 421, message: '拒绝访问：扫描助手只接受本机请求', data: null });
    }
    const origin = request.headers.origin;
    if (origin && !config.AGENT_ALLOWED_ORIGINS.includes(origin)) {
      return reply.code(403).send({ code: 403, message: '拒绝访问：该网页无权使用扫描助手', data: null });
    }
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
  });

  app.get('/health', async (): Promise<AgentHealth> => ({
    name: 'zhzy-scan-agent',
    version: AGENT_VERSION,
    protocolVersion: AGENT_PROTOCOL_VERSION,
  }));

  return app;
}
