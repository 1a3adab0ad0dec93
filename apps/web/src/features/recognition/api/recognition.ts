import { buildPath, calls, type ResolveException } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { sessionStore } from '../../../lib/session';
import { useApi } from '../../../lib/swr';

export const tallyKey = (batchId: string) => ['recognition-tally', batchId] as const;
export const exceptionsKey = (batchId: string) => ['recognition-exceptions', batchId] as const;

/** The live tally of a batch: polled while pages arrive. */
export function useTally(batchId: string | null) {
  return useApi(
    batchId ? tallyKey(batchId) : null,
    async () => (await api.call(calls.recognitionTally, { params: { id: batchId! } })).data,
    { refreshInterval: 2000, dedupingInterval: 1000 },
  );
}

export function useExceptions(batchId: string | null) {
  return useApi(
    batchId ? exceptionsKey(batchId) : null,
    async () =>
      (await api.call(calls.listRecognitionExceptions, { query: { batchId: batchId!, status: 'open' } }))
        .data,
    { refreshInterval: 3000, dedupingInterval: 1000 },
  );
}

export async function checkBatch(batchId: string) {
  return (await api.call(calls.checkRecognitionBatch, { params: { id: batchId } })).data;
}

export async function resolveException(id: string, body: ResolveException) {
  return (await api.call(calls.resolveRecognitionException, { params: { id }, body })).data;
}

export const sheetsKey = (homeworkId: string) => ['review-sheets', homeworkId] as const;

export function useReviewSheets(homeworkId: string | null) {
  return useApi(
    homeworkId ? sheetsKey(homeworkId) : null,
    async () => (await api.call(calls.reviewSheets, { params: { id: homeworkId! } })).data,
  );
}

export const sheetKey = (sheetId: string) => ['review-sheet', sheetId] as const;

export function useReviewSheet(sheetId: string | null) {
  return useApi(
    sheetId ? sheetKey(sheetId) : null,
    async () => (await api.call(calls.reviewSheet, { params: { id: sheetId! } })).data,
  );
}

export async function overrideAnswers(sheetId: string, answers: { questionId: string; response: string }[]) {
  return (await api.call(calls.overrideSheetAnswers, { params: { id: sheetId }, body: { answers } })).data;
}

export async function confirmSheet(sheetId: string, options: { silent?: boolean } = {}) {
  return (await api.call(calls.confirmSheet, { params: { id: sheetId }, ...options })).data;
}

/** A stored page image as an object URL (the image call needs the bearer token, which an <img> cannot send). */
export async function fetchPageImage(pageId: string, signal?: AbortSignal): Promise<string> {
  const token = sessionStore.accessToken;
  const res = await fetch(buildPath(calls.scanPageImage.path, { id: pageId }), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(signal ? { signal } : {}),
  });
  if (!res.ok) throw new Error(`image ${res.status}`);
  return URL.createObjectURL(await res.blob());
}
