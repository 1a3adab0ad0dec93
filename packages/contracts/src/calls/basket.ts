import { z } from 'zod';
import { IdSchema, envelope } from '../common.js';
import { defineCall } from './define.js';

/** One basket paper: the basket keeps one per stage + subject (SPEC §4). */
export const BasketPaperInfoSchema = z.object({
  id: IdSchema,
  stageId: IdSchema,
  subjectId: IdSchema,
  stageName: z.string(),
  subjectName: z.string(),
  /** The textbook the paper is composed from, null when not chosen yet. */
  testPaperTextbook: IdSchema.nullable(),
  questionCount: z.number().int().nonnegative(),
});
export type BasketPaperInfo = z.infer<typeof BasketPaperInfoSchema>;

/** A question-type row of a basket paper; `id` is what `delQuestion/{id}` takes. */
export const BasketTypeRowSchema = z.object({
  id: IdSchema,
  typeId: IdSchema,
  dataName: z.string(),
  questionCount: z.number().int().nonnegative(),
});
export type BasketTypeRow = z.infer<typeof BasketTypeRowSchema>;

export const BasketSchema = z.object({
  /** Questions in the whole basket, every paper together. */
  sumCount: z.number().int().nonnegative(),
  paperInfo: z.array(BasketPaperInfoSchema),
  /** Type rows per paper, keyed by the paper id. */
  type: z.record(z.string(), z.array(BasketTypeRowSchema)),
  questionIds: z.array(IdSchema),
});
export type Basket = z.infer<typeof BasketSchema>;

export const EMPTY_BASKET: Basket = { sumCount: 0, paperInfo: [], type: {}, questionIds: [] };

export const AddBasketSchema = z.object({
  questionIds: z.array(IdSchema).min(1, '请选择要加入试题篮的试题').max(200, '一次最多加入200道试题'),
});
export const RemoveBasketSchema = z.object({
  questionIds: z.array(IdSchema).min(1, '请选择要移出试题篮的试题').max(200),
});

export const IdParamsSchema = z.object({ id: IdSchema });

export const getQuestionBasketCall = defineCall({
  name: 'getQuestionBasket',
  method: 'GET',
  path: '/teacher/paper/info/getQuestionBasket',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(BasketSchema),
});

export const addBasketCall = defineCall({
  name: 'addBasket',
  method: 'POST',
  path: '/teacher/paper/info/addBasket',
  encoding: 'json',
  auth: 'bearer',
  body: AddBasketSchema,
  response: envelope(BasketSchema),
});

export const removeBasketCall = defineCall({
  name: 'removeBasket',
  method: 'POST',
  path: '/teacher/paper/info/removeBasket',
  encoding: 'json',
  auth: 'bearer',
  body: RemoveBasketSchema,
  response: envelope(BasketSchema),
});

/** Clears one basket paper; SPEC §7: the updated basket comes back in `message`. */
export const clearBasketCall = defineCall({
  name: 'clearBasket',
  method: 'DELETE',
  path: '/teacher/paper/info/:id/clearBasket',
  encoding: 'none',
  auth: 'bearer',
  params: IdParamsSchema,
  response: z.object({ code: z.number().int(), message: BasketSchema, data: z.null() }),
});

/** Deletes one type row (and its questions) from a basket paper; the basket comes back in `data`. */
export const delQuestionTypeCall = defineCall({
  name: 'delQuestionType',
  method: 'DELETE',
  path: '/teacher/paper/question/type/delQuestion/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParamsSchema,
  response: envelope(BasketSchema),
});
