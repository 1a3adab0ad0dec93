import { calls, type Question } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';
import { assembleSets, type Pools } from '../utils/sets';

/** Candidates of each difficulty level under a chapter (the first 40 of each, in the bank's stable order). */
async function pool(subjectId: string, booknodeId: string): Promise<Record<number, Question[]>> {
  const levels = await Promise.all(
    [1, 2, 3, 4, 5].map(
      async (difficulty) =>
        (
          await api.call(calls.questionPage, {
            query: { subjectId, booknodeId, difficulty, page: 1, size: 40, sort: 'default' },
          })
        ).data.records,
    ),
  );
  return Object.fromEntries(levels.map((list, i) => [i + 1, list]));
}

/** The four sets of a chapter: the chapter's own questions, and its unit's for 单元测试. */
export function useChapterSets(subjectId: string | null, nodeId: string | null, unitId: string | null) {
  return useApi(
    subjectId && nodeId && unitId ? ['teacher/sync-sets', subjectId, nodeId, unitId] : null,
    async () => {
      const node = await pool(subjectId!, nodeId!);
      const unit = unitId === nodeId ? node : await pool(subjectId!, unitId!);
      const pools: Pools = { node, unit };
      return assembleSets(pools);
    },
  );
}

/** A new draft paper holding the questions (sections by type, as the host arranges them). */
export async function paperFromQuestions(input: {
  subjectId: string;
  textbookId: string | null;
  title: string;
  questionIds: string[];
}): Promise<string> {
  const doc = (
    await api.call(calls.createPaper, {
      body: { subjectId: input.subjectId, textbookId: input.textbookId, title: input.title },
    })
  ).data;
  const filled = await api.call(calls.addPaperQuestions, {
    params: { id: doc.id },
    body: { version: doc.version, questionIds: input.questionIds },
  });
  return filled.data.id;
}
