import { z } from 'zod';

/** Version of the web ↔ agent protocol; the web app tells an outdated agent by it. */
export const AGENT_PROTOCOL_VERSION = 1;
/** The agent's default port on 127.0.0.1. */
export const AGENT_DEFAULT_PORT = 17_310;

export const AgentHealthSchema = z.object({
  name: z.literal('zhzy-scan-agent'),
  version: z.string(),
  protocolVersion: z.number().int().positive(),
});
export type AgentHealth = z.infer<typeof AgentHealthSchema>;
