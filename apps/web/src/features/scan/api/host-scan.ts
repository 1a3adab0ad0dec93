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
} from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** `POST /teacher/scan/batch`: a host batch and the upload token the agent sends its pages with. */
export async function createHostBatch(input: CreateScanBatch): Promise<CreatedScanBatch> {
  const answer = await api.call(calls.createScanBatch, { body: input });
  return answer.data;
}

export interface PageUpload {
  seq: number;
  name: string;
  /** SHA-256 of the file (hex): checked by the host and the idempotency key of a retried upload. */
  sha256?: string;
}

/** Uploads one page from the browser (multipart; the text fields before the file part, as the host reads them). */
export async function uploadHostPage(
  batchId: string,
  file: Blob,
  fields: PageUpload,
  options: { silent?: boolean } = {},
): Promise<UploadedScanPage> {
  const form = new FormData();
  form.set('seq', String(fields.seq));
  form.set('name', fields.name);
  if (fields.sha256) form.set('sha256', fields.sha256);
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

/** What the virtual scanner fills for a homework: its current card and the students of its classes. */
export interface VirtualFeed {
  layout: CardLayout;
  students: VirtualStudent[];
}

/** The homework the virtual scanner can fill cards of (the newest first). */
export function useVirtualHomework(enabled: boolean) {
  return useApi(
    enabled ? ['scan/virtual-homework'] : null,
    async () => (await api.call(calls.homeworkList, { query: { page: 1, size: 50 } })).data.records,
  );
}

/** The card and class list of a homework, for the virtual scanner to fill one personalised card per student. */
export async function virtualFeed(homeworkId: string): Promise<VirtualFeed> {
  const [card, detail] = await Promise.all([
    api.call(calls.homeworkCard, { params: { id: homeworkId }, query: {} }),
    api.call(calls.homeworkDetail, { params: { id: homeworkId } }),
  ]);
  const students: VirtualStudent[] = [];
  for (const klass of detail.data.classes) {
    const page = await api.call(calls.students, { query: { classId: klass.id, page: 1, size: 200 } });
    for (const st of page.data.records)
      students.push({ id: st.id, name: st.name, number: st.studentNo, className: st.className });
  }
  return { layout: card.data.layout, students };
}
