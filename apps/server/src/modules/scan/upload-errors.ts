import { SCAN_UPLOAD_ERRORS, type ScanUploadErrorCode } from '@zhzy/contracts';
import { AppError, type ErrorCode } from '../../lib/errors.js';

/** A refused upload: the HTTP error with its Chinese message, and the machine-readable reason the agent acts on. */
export function uploadError(code: ScanUploadErrorCode, status: ErrorCode, message?: string): AppError {
  return new AppError(status, message, { data: { uploadError: code, retry: SCAN_UPLOAD_ERRORS[code] } });
}

/** Gives an AppError thrown while reading or checking an upload its upload reason, keeping its other data. */
export function withUploadReason(error: unknown, code: ScanUploadErrorCode): unknown {
  if (!(error instanceof AppError)) return error;
  const data = error.data && typeof error.data === 'object' ? error.data : {};
  if ('uploadError' in data) return error;
  return new AppError(error.code, error.message, {
    data: { ...data, uploadError: code, retry: SCAN_UPLOAD_ERRORS[code] },
  });
}
