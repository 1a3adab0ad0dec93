import { createHash, randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

/** A new row id: UUIDv7, time-ordered so indexes stay compact. */
export const newId = (): string => v7();

/** The current instant as stored and sent: ISO 8601 UTC with milliseconds. */
export const nowIso = (clock: () => number = Date.now): string => new Date(clock()).toISOString();

/** An instant `seconds` after `from` (ms since epoch), as an ISO string. */
export const isoAfter = (from: number, seconds: number): string =>
  new Date(from + seconds * 1000).toISOString();

/** A random secret token (URL-safe). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their SHA-256 digest. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
