import { describe, expect, it } from 'vitest';
import { AGENT_PROTOCOL_VERSION, agentCalls } from '@zhzy/contracts';
import { zhCNScan } from '../i18n/zh-CN';
import { AgentCallError, createAgentClient } from './agent-client';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the agent client (scan and direct printing)', () => {
  it('sends the pairing token and the query, and answers what the call schema parsed', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const client = createAgentClient({
      baseUrl: 'http://127.0.0.1:17310',
      token: () => 'tok',
      fetch: async (input, init) => {
        seen.push({
          url: input instanceof Request ? input.url : input.toString(),
          auth: new Headers(init?.headers).get('authorization'),
        });
        return json(200, { printers: [], refreshedAt: '2026-03-01T08:00:00.000Z' });
      },
    });
    const answer = await client.call(agentCalls.printers, { query: { refresh: '1' } });
    expect(answer.printers).toEqual([]);
    expect(seen).toEqual([{ url: 'http://127.0.0.1:17310/printers?refresh=1', auth: 'Bearer tok' }]);
  });

  it("says in Chinese when the agent answers out of protocol, and gives the agent's own message on a refusal", async () => {
    const answers = [
      json(200, { protocolVersion: AGENT_PROTOCOL_VERSION }),
      json(401, { message: '请先配对' }),
    ];
    const client = createAgentClient({
      baseUrl: 'http://127.0.0.1:17310',
      token: () => null,
      fetch: async () => answers.shift()!,
    });
    await expect(client.call(agentCalls.health)).rejects.toEqual(
      expect.objectContaining({ status: 200, message: zhCNScan.agent.badAnswer }),
    );
    const refused = await client.call(agentCalls.printers).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AgentCallError);
    expect(refused).toMatchObject({ status: 401, message: '请先配对' });
  });

  it("gives the caller's words when the agent cannot be reached", async () => {
    const client = createAgentClient({
      baseUrl: 'http://127.0.0.1:17310',
      token: () => null,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
      messages: { unreachable: '无法连接扫描助手，请确认扫描助手正在运行' },
    });
    await expect(client.call(agentCalls.health)).rejects.toMatchObject({
      status: 0,
      message: '无法连接扫描助手，请确认扫描助手正在运行',
    });
  });
});
