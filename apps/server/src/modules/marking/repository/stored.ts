import { z } from 'zod';
import { AnnotationSchema } from '@zhzy/contracts';

// Marking's JSON columns, read by their schemas (never `JSON.parse(...) as`): a block's question ids and comments,
// a mark's scores, annotations and applied rubric items, an item's markers.

/** Stored JSON read by its schema; the fallback when it is not JSON or not of that shape. */
export function parseStored<S extends z.ZodType>(
  schema: S,
  text: string,
  fallback: z.output<S>,
): z.output<S> {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export const IdsSchema = z.array(z.string());
export const ScoresSchema = z.record(z.string(), z.number());
export const AnnotationsSchema = z.array(AnnotationSchema);
