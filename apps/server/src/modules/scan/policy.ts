import { SCAN_MESSAGES } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { ScanBatch } from './repository.js';

/**
 * Who may see and add to a scan batch: it belongs to one school; another school never learns it exists (404).
 * Within the school, its creator, and the school's creator, administrators and grade directors.
 */
export function assertCanUseBatch(
  auth: AuthContext,
  batch: ScanBatch | undefined,
): asserts batch is ScanBatch {
  if (!batch || batch.orgId !== auth.orgId) throw notFound(SCAN_MESSAGES.batchNotFound);
  if (batch.userId === auth.userId) return;
  if (auth.isCreator || auth.isAdministrator || auth.isGradeDirector) return;
  throw forbidden();
}
