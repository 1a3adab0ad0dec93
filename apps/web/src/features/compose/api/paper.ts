import { buildPath, calls, type PaperDocument, type QuestionInput, type SavePaper } from '@zhzy/contracts';
import { api } from '../../../lib/api';

/** /edit's query: with type=2 `paperId` is a basket paper (SPEC §2), otherwise the id of a saved paper. */
export interface EditQuery {
  paperId: string;
  type: string | null;
  textbookId: string | null;
}

/** The paper to edit: composed from the basket (reopening the open draft of that basket), or read as saved. */
export async function openPaper(q: EditQuery): Promise<PaperDocument> {
  if (q.type === '2') {
    const answer = await api.call(calls.composeFromBasket, {
      body: { basketPaperId: q.paperId, textbookId: q.textbookId || null },
    });
    return answer.data;
  }
  return (await api.call(calls.paperDetail, { params: { id: q.paperId } })).data;
}

/** Saves the whole document; silent, because the screen answers a 409 with its own dialog. */
export async function savePaper(id: string, body: SavePaper): Promise<PaperDocument> {
  return (await api.call(calls.savePaper, { params: { id }, body, silent: true })).data;
}

export async function editPaperQuestion(
  id: string,
  body: {
    version: number;
    questionId: string;
    stem: string;
    options: { label: string; content: string }[];
    answer: string;
    analysis: string;
    difficulty: number;
  },
): Promise<PaperDocument> {
  return (await api.call(calls.editPaperQuestion, { params: { id }, body, silent: true })).data;
}

/** The teacher's own question, into 我的题库. */
export async function createQuestion(input: QuestionInput) {
  return (await api.call(calls.createQuestion, { body: input })).data;
}

/** Downloads the paper as .docx (the student or the teacher copy), reporting progress 0–1 (null: unknown). */
export async function exportWord(
  id: string,
  copy: 'student' | 'teacher',
  filename: string,
  onProgress: (fraction: number | null) => void,
): Promise<void> {
  await api.download(buildPath(calls.exportPaperWord.path, { id }), { copy }, filename, {
    onProgress: (loaded, total) => onProgress(total ? loaded / total : null),
  });
}
