import { calls, type CardSettings } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

export const paperCardKey = (paperId: string) => ['teacher/homework/paper-card', paperId] as const;
export const homeworkCardKey = (homeworkId: string) => ['teacher/homework/card', homeworkId] as const;

/** The card of a paper: saved settings (or defaults), the paper as the card sees it, and whether it may be saved. */
export function usePaperCard(paperId: string | null) {
  return useApi(
    paperId ? paperCardKey(paperId) : null,
    async () => (await api.call(calls.paperCard, { params: { id: paperId! } })).data,
  );
}

/** The current card version of a published homework. */
export function useHomeworkCard(homeworkId: string | null) {
  return useApi(
    homeworkId ? homeworkCardKey(homeworkId) : null,
    async () => (await api.call(calls.homeworkCard, { params: { id: homeworkId! }, query: {} })).data,
  );
}

export const savePaperCard = async (paperId: string, settings: CardSettings) =>
  (await api.call(calls.savePaperCard, { params: { id: paperId }, body: settings })).data;

/** Saves a published card's settings as its next version (the same settings again change nothing). */
export const editHomeworkCard = async (homeworkId: string, settings: CardSettings) =>
  (await api.call(calls.editHomeworkCard, { params: { id: homeworkId }, body: settings })).data;
