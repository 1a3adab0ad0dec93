import { calls } from '@zhzy/contracts';
import { api } from '../lib/api';
import { useApi } from '../lib/swr';
import { keys } from './keys';

/** A saved paper with its sections and questions (previews, printing, publishing, /paperset). */
export function usePaperDetail(paperId: string | null) {
  return useApi(
    paperId ? keys.paperDetail(paperId) : null,
    async () => (await api.call(calls.paperDetail, { params: { id: paperId! } })).data,
  );
}
