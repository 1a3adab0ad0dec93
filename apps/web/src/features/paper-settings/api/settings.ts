import { calls, type PaperSettings } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** The paper /paperset lays out (its questions feed the preview; its settings fill the form). */
export async function savePaperSettings(paperId: string, settings: PaperSettings): Promise<PaperSettings> {
  return (await api.call(calls.savePaperSettings, { params: { id: paperId }, body: settings })).data;
}

/** The teacher's most recent paper: the sample the default-settings page previews with. */
export function useLatestPaper() {
  return useApi(['teacher/paper/latest'], async () => {
    const page = (await api.call(calls.myPapers, { query: { page: 1, size: 1 } })).data;
    const first = page.records[0];
    return first ? (await api.call(calls.paperDetail, { params: { id: first.id } })).data : null;
  });
}
