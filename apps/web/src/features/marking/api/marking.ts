import {
  calls,
  type MarkItem,
  type SaveMarkBlocks,
  type SaveRubricItems,
  type SubmitMark,
} from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';
import { fetchCrop } from '../../../lib/crops';

// The calls of marking on screen, one function or hook per call.

export const MARK_TASKS_KEY = 'teacher/mark/tasks';

export function useMarkTasks() {
  return useApi([MARK_TASKS_KEY], async () => (await api.call(calls.markTasks)).data);
}

export function useMarkHomework(id: string | null) {
  return useApi(
    id ? ['teacher/mark/homework', id] : null,
    async () => (await api.call(calls.markHomework, { params: { id: id! } })).data,
  );
}

export async function saveMarkBlocks(id: string, body: SaveMarkBlocks) {
  return (await api.call(calls.saveMarkBlocks, { params: { id }, body })).data;
}

export function useMarkBlock(id: string | null) {
  return useApi(
    id ? ['teacher/mark/block', id] : null,
    async () => (await api.call(calls.markBlock, { params: { id: id! } })).data,
  );
}

export async function fetchNext(blockId: string, count: number, skip: string[]) {
  return (
    await api.call(calls.markNext, {
      params: { id: blockId },
      query: { count, ...(skip.length ? { skip: skip.join(',') } : {}) },
    })
  ).data;
}

export async function fetchItem(blockId: string, sheetId: string, reveal = false): Promise<MarkItem> {
  return (
    await api.call(calls.markItem, {
      params: { id: blockId, sheetId },
      query: reveal ? { reveal: '1' } : {},
    })
  ).data;
}

export async function submitMark(blockId: string, body: SubmitMark) {
  return (await api.call(calls.submitMark, { params: { id: blockId }, body })).data;
}

export function useMarkHistory(blockId: string | null, page: number) {
  return useApi(
    blockId ? ['teacher/mark/history', blockId, page] : null,
    async () =>
      (await api.call(calls.markHistory, { params: { id: blockId! }, query: { page, size: 50 } })).data,
  );
}

export async function flagProblem(blockId: string, sheetId: string, note: string) {
  await api.call(calls.flagProblem, { params: { id: blockId }, body: { sheetId, note } });
}

export async function saveComments(blockId: string, comments: string[]) {
  return (await api.call(calls.markComments, { params: { id: blockId }, body: { comments } })).data;
}

export async function saveRubricItems(blockId: string, body: SaveRubricItems) {
  return (await api.call(calls.saveRubricItems, { params: { id: blockId }, body })).data;
}

export function useMarkGroups(blockId: string | null) {
  return useApi(
    blockId ? ['teacher/mark/groups', blockId] : null,
    async () => (await api.call(calls.markGroups, { params: { id: blockId! } })).data,
  );
}

export async function groupScore(
  blockId: string,
  sheetIds: string[],
  scores: { questionId: string; score: number }[],
) {
  return (await api.call(calls.groupScore, { params: { id: blockId }, body: { sheetIds, scores } })).data;
}

/**
 * The crop image as an object URL, decoded before it resolves, so showing it costs nothing. Crops need the bearer
 * header, so they are fetched rather than linked.
 */
export async function loadCrop(url: string, signal?: AbortSignal): Promise<string> {
  const objectUrl = await fetchCrop(url, signal);
  const img = new Image();
  img.src = objectUrl;
  try {
    await img.decode();
  } catch {
    // Shown anyway; the browser decodes it on paint.
  }
  return objectUrl;
}
