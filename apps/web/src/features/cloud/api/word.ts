import { calls, type ImportPreview } from '@zhzy/contracts';
import { api } from '../../../lib/api';

/** Reads a .docx on the host and answers what it understood, with warnings where it was unsure. */
export async function previewWord(file: File, subjectId: string): Promise<ImportPreview> {
  return (await api.call(calls.importWordPreview, { body: { file, subjectId } })).data;
}

export async function saveWord(body: {
  subjectId: string;
  title: string;
  subtitle: string;
  sections: ImportPreview['sections'];
}) {
  return (await api.call(calls.importWordSave, { body })).data;
}
