import { z } from 'zod';
import { AGENT_DEFAULT_PORT } from '@zhzy/contracts';

/** Settings of the agent, validated at start. It listens on the loopback interface only. */
export const AgentConfigSchema = z.object({
  AGENT_PORT: z.coerce.number().int().min(0).max(65_535).default(AGENT_DEFAULT_PORT),
  /** Web origins allowed to talk to the agent, comma-separated. */
  AGENT_ALLOWED_ORIGINS: z
    .string()
    .default('http://localhost:3000,http://127.0.0.1:3000')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export function loadAgentConfig(env: Record<string, string | undefined> = process.env): AgentConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  return AgentConfigSchema.parse(cleaned);
}
