// The Chinese text of the host's configuration (ADR 0052): what the boot says about a bad environment variable.
// Part of the host catalogue (src/i18n/); an operator reads these in the log of a host that would not start.

export const CONFIG_TEXT = {
  databaseUrl: 'DATABASE_URL 必须以 postgres:// 开头',
  trustProxy: 'TRUST_PROXY 须为 false、代理层数（如 1）或代理地址列表（以逗号分隔）',
  publicUrl: 'PUBLIC_URL 须为网址，如 https://zy.example.cn',
  cspConnectSrc: 'CSP_CONNECT_SRC 只能包含网址，用空格分隔',
  s3Endpoint: 'S3_ENDPOINT 必须是网址，如 http://minio:9000',
  s3Prefix: 'S3_PREFIX 只能包含字母、数字、-、_、. 和 /',
  jobPollSeconds: 'JOB_POLL_SECONDS 至少 0.5',
  jobQueueSchema: 'JOB_QUEUE_SCHEMA 只能包含小写字母、数字和下划线',
  metricsToken: 'METRICS_TOKEN 至少 16 个字符',
  s3Bucket: 'STORAGE=s3 需要 S3_BUCKET',
  s3Keys: 'S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY 须同时设置',
  pgBossDatabase: 'JOB_QUEUE=pg-boss 需要 DATABASE_URL（PostgreSQL）',
  metricsPort: 'METRICS_PORT 不能与 PORT 相同',
  /** The boot's refusal, one line per bad setting. */
  invalid: (lines: string[]) => `配置有误 (invalid configuration):\n${lines.join('\n')}`,
} as const;
