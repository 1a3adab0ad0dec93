import { calls, type SmartCompose } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useApi } from '../../../lib/swr';

export function useStages() {
  return useApi(['system/stages'], async () => (await api.call(calls.stageList)).data);
}

export function useTextbooks(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/textbooks', subjectId] : null,
    async () => (await api.call(calls.textbookList, { query: { subjectId: subjectId! } })).data,
  );
}

export function useBooknodes(textbookId: string | null) {
  return useApi(
    textbookId ? ['teacher/booknodes', textbookId] : null,
    async () => (await api.call(calls.booknodeTree, { query: { textbookId: textbookId! } })).data,
  );
}

export function useKnowledgeTree(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/knowledge', subjectId] : null,
    async () => (await api.call(calls.knowledgeTree, { query: { subjectId: subjectId! } })).data,
  );
}

export function useQuestionTypes(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/question-types', subjectId] : null,
    async () => (await api.call(calls.questionTypeList, { query: { subjectId: subjectId! } })).data,
  );
}

/** The classes of the teacher's default school year (none when no year is the default). */
export function useCurrentClasses() {
  const { user } = useSession();
  const orgId = user?.orgDefaultId ?? null;
  return useApi(orgId ? ['system/class/current', orgId] : null, async () => {
    const years = (await api.call(calls.classList, { query: { orgId: orgId!, type: '1', pid: '' } })).data;
    const year = years.find((y) => y.isDefault);
    if (!year) return { year: null, classes: [] };
    const classes = (await api.call(calls.classList, { query: { orgId: orgId!, type: '2', pid: year.id } }))
      .data;
    return { year, classes };
  });
}

/** Runs the optimiser; with `createPaper` the result is also saved as a draft paper. */
export async function smartCompose(body: SmartCompose) {
  return (await api.call(calls.smartCompose, { body })).data;
}
