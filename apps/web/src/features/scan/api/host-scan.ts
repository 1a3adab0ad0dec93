import {
  buildPath,
  calls,
  SCAN_IDEMPOTENCY_HEADER,
  type CardLayout,
  type CreatedScanBatch,
  type CreateScanBatch,
  type ScanPageInfo,
  type UploadedScanPage,
  type VirtualStudent,
  VirtualKeyAnswerSchema,
} from '@zhzy/contracts';
import { api } from '../../../lib/api';

/** `POST /teacher/scan/batch`: a host batch and the upload token the agent sends its pages with. */
export async function createHostBatch(input: CreateScanBatch): Promise<CreatedScanBatch> {
  const answer = await api.call(calls.createScanBatch, { body: input });
  return answer.data;
}

export interface PageUpload {
  /** The page's place in the batch; the host numbers it after the last page when absent. */
  seq?: number;
  name: string;
  /** SHA-256 of the file (hex): checked by the host and the idempotency key of a retried upload. */
  sha256?: string;
  /** A phone photo of a card: the host checks and flattens it, or refuses it with the reason (issue #26). */
  photo?: boolean;
}

/** Uploads one page from the browser (multipart; the text fields before the file part, as the host reads them). */
export async function uploadHostPage(
  batchId: string,
  file: Blob,
  fields: PageUpload,
  options: { silent?: boolean } = {},
): Promise<UploadedScanPage> {
  const form = new FormData();
  if (fields.seq !== undefined) form.set('seq', String(fields.seq));
  form.set('name', fields.name);
  if (fields.sha256) form.set('sha256', fields.sha256);
  if (fields.photo) form.set('photo', '1');
  form.set('file', file, fields.name);
  const answer = await api.upload<{ data: UploadedScanPage }>(
    buildPath(calls.uploadScanPage.path, { id: batchId }),
    form,
    {
      ...(fields.sha256 ? { headers: { [SCAN_IDEMPOTENCY_HEADER]: fields.sha256 } } : {}),
      ...(options.silent ? { silent: true } : {}),
    },
  );
  return answer.data;
}

/** The pages the host holds for a batch. */
export async function listHostPages(batchId: string): Promise<ScanPageInfo[]> {
  const answer = await api.call(calls.listScanPages, { params: { id: batchId } });
  return answer.data;
}

/**
 * What the virtual scanner fills for a homework: its current card, the students of its classes, and the answer key
 * and difficulty of its objective questions (the class answers from them like a real class, ADR 0038).
 */
export interface VirtualFeed {
  layout: CardLayout;
  students: VirtualStudent[];
  /** Question id → correct options; empty when the key could not be read (the class then answers at random). */
  key: Record<string, string>;
  /** Question id → difficulty on the 0–1 scale, for questions whose bank difficulty the paper holds. */
  difficulty: Record<string, number>;
}

/**
 * The card, class list and answer key of a homework, for the virtual scanner to fill one personalised card per
 * student as its class would. The key is the one recognition scores with (the teacher's edits included); without
 * it (a call refused or failed) the demo still scans, with random answers.
 */
export async function virtualFeed(homeworkId: string): Promise<VirtualFeed> {
  const [card, detail, answerKey] = await Promise.all([
    api.call(calls.homeworkCard, { params: { id: homeworkId }, query: {} }),
    api.call(calls.homeworkDetail, { params: { id: homeworkId } }),
    api.call(calls.answerKey, { params: { id: homeworkId }, silent: true }).catch(() => null),
  ]);
  const students: VirtualStudent[] = [];
  for (const klass of detail.data.classes) {
    const page = await api.call(calls.students, { query: { classId: klass.id, page: 1, size: 200 } });
    for (const st of page.data.records)
      students.push({ id: st.id, name: st.name, number: st.studentNo, className: st.className });
  }
  const key: Record<string, string> = {};
  for (const q of answerKey?.data.questions ?? [])
    if (q.key !== null && VirtualKeyAnswerSchema.safeParse(q.key).success) key[q.questionId] = q.key;
  // The bank's five levels 容易…困难 on the product's 0–1 scale (ADR 0007), for the questions the key names.
  const difficulty: Record<string, number> = {};
  for (const section of detail.data.paper.sections)
    for (const item of section.items)
      if (item.question && item.questionId in key)
        difficulty[item.questionId] = (item.question.difficulty - 1) / 4;
  return { layout: card.data.layout, students, key, difficulty };
}
