import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS, DEFAULT_REFRESH_TOKEN_TTL_SECONDS } from '@zhzy/contracts';
import { CONFIG_TEXT as T } from './i18n/config.js';

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
    .regex(/^postgres(ql)?:\/\//, T.databaseUrl)
    .optional(),
  /** Seed 演示学校 with its accounts on first start. */
  SEED_DEMO: flag.default(true),
  /** With SEED_DEMO: also a scanned test of 七年级(1)班 in 阅卷中 (generated crops), so marking can be tried at once. */
  SEED_DEMO_SCANS: flag.default(true),
  /**
   * With SEED_DEMO: finished demo homework with results, so the analysis screens mean something on first start, and
   * the teaching group's shared papers in 校本资源.
   */
  SEED_DEMO_RESULTS: flag.default(true),
  /** The checked 七年级 question families (seed/data/generated/math-7-checked.ts) in the system bank. */
  SEED_CHECKED_BANK: flag.default(true),
  /** The fixed OAuth client of the web app (Basic header of the token call). */
  OAUTH_CLIENT_ID: z.string().min(1).default('zhzy-web'),
  OAUTH_CLIENT_SECRET: z.string().min(1).default('zhzy-web-secret'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(DEFAULT_REFRESH_TOKEN_TTL_SECONDS),
  /**
   * Seconds a verified access token is believed without a query (0: off). This instance's own writes drop them at
   * once; other instances' sign-outs and role changes are seen within this time (ADR 0078).
   */
  VERIFIED_TOKEN_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  /** Built web app served on the same port; empty disables serving it. */
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, '../../web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The 扫描助手 installers and their manifest.json (`npm run package -w @zhzy/scan-agent`), served to teachers. */
  AGENT_PACKAGES_DIR: z.string().default(path.resolve(import.meta.dirname, '../../scan-agent/dist/packages')),
  /** Processes that recognise scanned pages; 0 = one per core. */
  RECOGNITION_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
  /**
   * Resident memory of a recognition worker past which it is killed and its page sent to a person, MB (a real page
   * at 600 dpi needs a few hundred).
   */
  RECOGNITION_WORKER_MEMORY_MB: z.coerce.number().int().min(128).max(65536).default(1024),
  /** Processes that convert documents (Word, PDF booklets, workbooks) at once; more wait in line. */
  DOCUMENT_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * Which reverse proxies' X-Forwarded-For / -Proto to honour (per-address limits, HSTS): `false` (none), a number
   * of proxy hops in front of the host (`1`: the shipped nginx; `true` means 1, never "anything"), or a
   * comma-separated list of the proxies' addresses or subnets (ADR 0042).
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|yes|no|\d{1,2}|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/, T.trustProxy)
    .default('false')
    .transform((v): false | number | string[] =>
      v === 'false' || v === 'no' || v === '0'
        ? false
        : v === 'true' || v === 'yes'
          ? 1
          : /^\d+$/.test(v)
            ? Number(v)
            : v.split(',').map((a) => a.trim()),
    ),
  /**
   * The address users reach the web app at (`https://zy.school.cn`), for links the host hands out (invitations).
   * Unset: the administrator's browser origin, else a link relative to the site. Never the request's Host header.
   */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, T.publicUrl)
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  /**
   * Requests per minute one caller may make to the API: a signed-in session (by its token), else an address.
   * 0 switches the limit off. Generous: a teacher's busiest screen makes a few dozen calls (ADR 0042).
   */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(3000),
  /** New accounts per hour (password or phone registration, invitations): from one address, and from everyone. */
  REGISTER_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).default(30),
  REGISTER_PER_HOUR: z.coerce.number().int().min(0).default(500),
  /**
   * Seconds of Strict-Transport-Security, sent only on requests that arrived over TLS (with TRUST_PROXY, a proxy's
   * X-Forwarded-Proto: https counts); 0 sends none.
   */
  HSTS_MAX_AGE: z.coerce.number().int().min(0).max(63_072_000).default(0),
  /** Extra origins the web app may connect to (space-separated), added to the Content-Security-Policy. */
  CSP_CONNECT_SRC: z
    .string()
    .regex(/^[\w:/.*\- ]*$/, T.cspConnectSrc)
    .default(''),
  /** Connections per instance to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),

  /** Where page images and stored files live: `local` (under DATA_DIR) or `s3` (an S3-compatible bucket). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** S3-compatible endpoint (`http://minio:9000`); absent for AWS S3 itself. */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, T.s3Endpoint)
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs; defaults to true when S3_ENDPOINT is set (MinIO), false for AWS. */
  S3_FORCE_PATH_STYLE: flag.optional(),
  /** Prefix of every key, so deployments may share a bucket. */
  S3_PREFIX: z
    .string()
    .regex(/^[\w.-]+(\/[\w.-]+)*\/?$/, T.s3Prefix)
    .optional(),
  /** Create the bucket at boot when it is missing. */
  S3_CREATE_BUCKET: flag.default(false),

  /** Background jobs: `in-process` (embedded default) or `pg-boss` (PostgreSQL-backed, shared by every instance). */
  JOB_QUEUE: z.enum(['in-process', 'pg-boss']).default('in-process'),
  /** Seconds an idle pg-boss worker waits before looking for jobs again (at least 0.5). */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5, T.jobPollSeconds).max(60).default(2),
  /** PostgreSQL schema of the pg-boss tables. */
  JOB_QUEUE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, T.jobQueueSchema)
    .default('pgboss'),

  /** `/metrics` on the main port answers only `Authorization: Bearer <token>`; unset: not served there. */
  METRICS_TOKEN: z.string().min(16, T.metricsToken).optional(),
  /** A separate admin port serving `/metrics`, `/health` and `/ready` without a token; unset: none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Seconds a SIGTERM waits for running requests and jobs before the process exits anyway. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
});
export type Config = z.infer<typeof ConfigSchema>;

/** Settings that only make sense together. */
const ConfigRules = ConfigSchema.superRefine((c, ctx) => {
  if (c.STORAGE === 's3' && !c.S3_BUCKET)
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: T.s3Bucket });
  if (!!c.S3_ACCESS_KEY_ID !== !!c.S3_SECRET_ACCESS_KEY)
    ctx.addIssue({
      code: 'custom',
      path: ['S3_SECRET_ACCESS_KEY'],
      message: T.s3Keys,
    });
  if (c.JOB_QUEUE === 'pg-boss' && !c.DATABASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['JOB_QUEUE'],
      message: T.pgBossDatabase,
    });
  if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT)
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: T.metricsPort });
});

/** Reads and validates the configuration; a bad value stops the boot with a message naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigRules.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(T.invalid(lines));
  }
  return result.data;
}
