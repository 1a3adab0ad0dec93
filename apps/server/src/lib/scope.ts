import { MESSAGES } from '@zhzy/contracts';
import type { AuthContext } from './call.js';
import { AppError } from './errors.js';

/**
 * The caller's current school, for every call that acts inside one; 403 「您尚未加入任何学校」 when they belong to
 * none. The one definition on the host (ADR 0052).
 */
export function requireSchool(auth: AuthContext): string {
  if (!auth.orgId) throw new AppError('FORBIDDEN', MESSAGES.noSchool);
  return auth.orgId;
}
