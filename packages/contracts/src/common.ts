import { z } from 'zod';
import { chineseIssueMessage } from './zod-messages.js';

// Validation messages in plain Chinese, everywhere zod is used (zod-messages.ts).
z.config({ localeError: chineseIssueMessage });

/** Ids are opaque strings (UUIDv7 for rows we create, stable slugs for reference data). */
export const IdSchema = z.string().trim().min(1).max(64);
export type Id = z.infer<typeof IdSchema>;

/** Timestamps on the wire are ISO 8601 UTC strings with milliseconds. */
export const TimestampSchema = z.iso.datetime();

/** The body every host call answers with (SPEC §7): `{ code, message, data }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}

/** Error bodies carry a Chinese `message`; `data` may name the field or carry hints. */
export const ErrorBodySchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** A page of records. */
export function page<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    size: z.number().int().positive(),
  });
}

/** Page query parameters (1-based page). */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** Query and form values arrive as strings; this accepts 'true'/'false'/'1'/'0' as well as booleans. */
export const FlagSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
