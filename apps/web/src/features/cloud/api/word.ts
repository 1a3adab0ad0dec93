import { calls, type ImportPreview, type QuestionInput } from '@zhzy/contracts';
import { api } from '../../../lib/api';

/**
 * Reads a .docx on the host and answers what it understood, with warnings where it was unsure. Silent: a batch
 * shows each file's failure beside it rather than as toasts.
 */
export async function previewWord(file: File, subjectId: string): Promise<ImportPreview> {
  return (await api.call(calls.importWordPreview, { body: { file, subjectId }, silent: true })).data;
}

export async function saveWord(body: {
  subjectId: string;
  title: string;
  subtitle: string;
  sections: ImportPreview['sections'];
}) {
  return (await api.call(calls.importWordSave, { body })).data;
}

/** The fixed-up questions into 我的题库, optionally shared to the school bank. */
export async function saveToBank(questions: QuestionInput[], share: boolean) {
  return (await api.call(calls.importQuestions, { body: { questions, share } })).data;
}

export const shareQuestion = async (id: string) => {
  await api.call(calls.shareQuestion, { params: { id } });
};
