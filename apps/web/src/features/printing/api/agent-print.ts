import {
  AGENT_PROTOCOL_VERSION,
  AgentHealthSchema,
  PrintJobSchema,
  PrinterListSchema,
  agentCalls,
  buildPath,
  type AgentHealth,
  type PrintFromHostInput,
  type PrintJob,
  type Printer,
} from '@zhzy/contracts';
import { zhCNPrintAgent as t } from '../../../i18n/print-agent';
import { agentEndpoint, agentTokens } from '../../../lib/agent-endpoint';

/** A failed agent call with the agent's Chinese message (`status` 0: the agent could not be reached). */
export class AgentPrintError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AgentPrintError';
  }
}

/** Seams for the tests: how the agent is reached. */
export const agentPrintDeps = {
  fetch: (...args: Parameters<typeof fetch>) => globalThis.fetch(...args),
  endpoint: () => agentEndpoint(),
};

async function send(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<unknown> {
  const endpoint = agentPrintDeps.endpoint();
  const headers: Record<string, string> = {};
  const token = agentTokens.get(endpoint);
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await agentPrintDeps.fetch(new URL(path, `${endpoint.baseUrl}/`).href, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw new AgentPrintError(0, t.unreachable);
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    // Not JSON.
  }
  if (res.status !== 200) {
    const message = (json as { message?: unknown } | null)?.message;
    throw new AgentPrintError(
      res.status,
      typeof message === 'string' && message ? message : `HTTP ${res.status}`,
    );
  }
  return json;
}

/** Whether the agent is there, can print (protocol), and this page is paired with it. */
export type AgentPrintReadiness =
  { ok: true; health: AgentHealth } | { ok: false; reason: 'noAgent' | 'notPaired' | 'outdated' };

export async function agentReadiness(): Promise<AgentPrintReadiness> {
  let health: AgentHealth;
  try {
    health = AgentHealthSchema.parse(await send('GET', agentCalls.health.path, undefined, 3_000));
  } catch {
    return { ok: false, reason: 'noAgent' };
  }
  if (health.protocolVersion !== AGENT_PROTOCOL_VERSION) return { ok: false, reason: 'outdated' };
  if (!health.authenticated) return { ok: false, reason: 'notPaired' };
  return { ok: true, health };
}

export async function listPrinters(refresh = false): Promise<Printer[]> {
  const path = `${agentCalls.printers.path}${refresh ? '?refresh=1' : ''}`;
  return PrinterListSchema.parse(await send('GET', path, undefined, 60_000)).printers;
}

/** Asks the agent to download a PDF from the host and print it. */
export async function printFromHost(input: PrintFromHostInput): Promise<PrintJob> {
  return PrintJobSchema.parse(await send('POST', agentCalls.print.path, input, 30_000));
}

export async function printJob(id: string): Promise<PrintJob> {
  return PrintJobSchema.parse(await send('GET', buildPath(agentCalls.printJob.path, { id })));
}

export async function cancelPrintJob(id: string): Promise<PrintJob> {
  return PrintJobSchema.parse(await send('POST', buildPath(agentCalls.cancelPrintJob.path, { id })));
}
