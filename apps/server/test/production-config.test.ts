import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('production configuration', () => {
  it('defaults to local storage and the in-process queue, with metrics off the main port', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      STORAGE: 'local',
      JOB_QUEUE: 'in-process',
      DATABASE_POOL_SIZE: 10,
      SHUTDOWN_TIMEOUT_SECONDS: 30,
    });
    expect(config.METRICS_TOKEN).toBeUndefined();
    expect(config.METRICS_PORT).toBeUndefined();
  });

  it('takes S3 storage, the pg-boss queue and an admin port together', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://zhzy:x@db:5432/zhzy',
      STORAGE: 's3',
      S3_BUCKET: 'zhzy-files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      JOB_QUEUE: 'pg-boss',
      METRICS_PORT: '9464',
    });
    expect(config).toMatchObject({
      STORAGE: 's3',
      S3_BUCKET: 'zhzy-files',
      JOB_QUEUE: 'pg-boss',
      METRICS_PORT: 9464,
    });
  });

  it('stops the boot with a Chinese message for settings that do not go together', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/S3_BUCKET: STORAGE=s3 需要 S3_BUCKET/);
    expect(() => loadConfig({ JOB_QUEUE: 'pg-boss' })).toThrow(/JOB_QUEUE=pg-boss 需要 DATABASE_URL/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /S3_BUCKET[\s\S]*S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY 须同时设置/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT 必须是网址/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN 至少 16 个字符/);
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT 不能与 PORT 相同/);
    expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE/);
  });
});
