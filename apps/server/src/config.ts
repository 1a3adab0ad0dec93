import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS, DEFAULT_REFRESH_TOKEN_TTL_SECONDS } from '@zhzy/contracts';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Every setting of the host, read from the environment and validated at boot. */
export const ConfigSchema = z.object({
  /** Port of the API and the web app. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Folder of the SQLite file and the stored page images (embedded default). */
  DATA_DIR: z.string().default('./data'),
  /** `postgres://…` switches from the embedded SQLite file to PostgreSQL. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL 必须以 postgres:// 开头')
    .optional(),
  /** Seed 演示学校 with its accounts on first start. */
  SEED_DEMO: flag.default(true),
  /** The fixed OAuth client of the web app (Basic header of the token call). */
  OAUTH_CLIENT_ID: z.string().min(1).default('zhzy-web'),
  OAUTH_CLIENT_SECRET: z.string().min(1).default('zhzy-web-secret'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(DEFAULT_REFRESH_TOKEN_TTL_SECONDS),
  /** Built web app served on the same port; empty disables serving it. */
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, '../../web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Honour X-Forwarded-For from a reverse proxy (for per-address sign-in limits). */
  TRUST_PROXY: flag.default(false),
});
export type Config = z.infer<typeof ConfigSchema>;

/** Reads and validates the configuration; a bad value stops the boot with a message naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`配置有误 (invalid configuration):\n${lines.join('\n')}`);
  }
  return result.data;
}
