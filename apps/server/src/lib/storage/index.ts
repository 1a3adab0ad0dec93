import type { Config } from '../../config.js';
import { LocalObjectStorage } from './local.js';
import { S3ObjectStorage } from './s3.js';
import type { ObjectStorage } from './types.js';

export { LocalObjectStorage } from './local.js';
export { S3ObjectStorage, type S3StorageOptions } from './s3.js';
export { assertKey, type ObjectStorage } from './types.js';

/** The object store of the configuration: DATA_DIR on disk, or the S3 bucket when STORAGE=s3. */
export async function createStorage(config: Config): Promise<ObjectStorage> {
  if (config.STORAGE !== 's3') return new LocalObjectStorage(config.DATA_DIR);
  const storage = new S3ObjectStorage({
    bucket: config.S3_BUCKET!,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? !!config.S3_ENDPOINT,
    prefix: config.S3_PREFIX,
  });
  if (config.S3_CREATE_BUCKET) await storage.ensureBucket();
  return storage;
}
