import {
  AGENT_PROTOCOL_VERSION,
  agentCalls,
  type AgentHealth,
  type PrintFromHostInput,
} from '@zhzy/contracts';
import { zhCNPrintAgent as t } from '../../../i18n/print-agent';
import { createAgentClient } from '../../../lib/agent-client';
import { agentEndpoint, agentTokens } from '../../../lib/agent-endpoint';

/** Seams for the tests: how the agent is reached. */
export const agentPrintDeps = {
  fetch: (...args: Parameters<typeof fetch>) => globalThis.fetch(...args),
  endpoint: () => agentEndpoint(),
};

/** The agent this page talks to now (its address and pairing token are read at each call). */
function agent() {
  const endpoint = agentPrintDeps.endpoint();
  return createAgentClient({
    baseUrl: endpoint.baseUrl,
    token: () => agentTokens.get(endpoint),
    fetch: (...args) => agentPrintDeps.fetch(...args),
    timeoutMs: 10_000,
    messages: { unreachable: t.unreachable },
  });
}

/** Whether the agent is there, can print (protocol), and this page is paired with it. */
export type AgentPrintReadiness =
  { ok: true; health: AgentHealth } | { ok: false; reason: 'noAgent' | 'notPaired' | 'outdated' };

export async function agentReadiness(): Promise<AgentPrintReadiness> {
  let health: AgentHealth;
  try {
    health = await agent().call(agentCalls.health, { timeoutMs: 3_000 });
  } catch {
    return { ok: false, reason: 'noAgent' };
  }
  if (health.protocolVersion !== AGENT_PROTOCOL_VERSION) return { ok: false, reason: 'outdated' };
  if (!health.authenticated) return { ok: false, reason: 'notPaired' };
  return { ok: true, health };
}

export async function listPrinters(refresh = false) {
  const answer = await agent().call(agentCalls.printers, {
    ...(refresh ? { query: { refresh: '1' } } : {}),
    timeoutMs: 60_000,
  });
  return answer.printers;
}

/** Asks the agent to download a PDF from the host and print it. */
export async function printFromHost(input: PrintFromHostInput) {
  return agent().call(agentCalls.print, { body: input, timeoutMs: 30_000 });
}

export async function printJob(id: string) {
  return agent().call(agentCalls.printJob, { params: { id } });
}

export async function cancelPrintJob(id: string) {
  return agent().call(agentCalls.cancelPrintJob, { params: { id } });
}
