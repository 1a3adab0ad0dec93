import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '@zhzy/api-client';
import { MESSAGES } from '@zhzy/contracts';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import { toast } from '../../../lib/toast';
import { createHostBatch, uploadHostPage } from '../api/host-scan';
import { readScannerState } from '../stores/scanner-settings';
import { FileSplitError, sha256Hex, splitFile } from '../utils/split-pages';

/** A page chosen from a file, on its way to the host. */
export interface UploadItem {
  key: string;
  seq: number;
  name: string;
  label: string;
  blob: Blob;
  url: string;
  status: 'pending' | 'uploading' | 'uploaded' | 'failed';
  error: string | null;
  duplicate: boolean;
}

export interface FileUploadState {
  items: UploadItem[];
  batchId: string | null;
  /** The file being split right now (its name), or null. */
  splitting: string | null;
  busy: boolean;
}

/**
 * Scanning without the agent: files go straight to the host (SPEC's fallback). A host batch with source `upload`,
 * then one page per upload, in order; multi-page TIFF and PDF files are split in the browser first.
 */
export function useFileUpload(schoolYearId: string | null, homeworkId: string | null = null) {
  const [state, setState] = useState<FileUploadState>({
    items: [],
    batchId: null,
    splitting: null,
    busy: false,
  });
  const items = useRef<UploadItem[]>([]);
  const mounted = useRef(true);

  const publish = useCallback((patch: Partial<FileUploadState> = {}) => {
    if (!mounted.current) return;
    setState((prev) => ({ ...prev, ...patch, items: [...items.current] }));
  }, []);

  const update = useCallback(
    (key: string, patch: Partial<UploadItem>) => {
      items.current = items.current.map((i) => (i.key === key ? { ...i, ...patch } : i));
      publish();
    },
    [publish],
  );

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      for (const i of items.current) URL.revokeObjectURL(i.url);
    };
  }, []);

  const send = useCallback(
    async (batchId: string, list: UploadItem[]) => {
      for (const item of list) {
        if (!mounted.current) return;
        update(item.key, { status: 'uploading', error: null });
        try {
          const sha256 = await sha256Hex(item.blob);
          const page = await uploadHostPage(
            batchId,
            item.blob,
            { seq: item.seq, name: item.name, ...(sha256 ? { sha256 } : {}) },
            { silent: true },
          );
          update(item.key, { status: 'uploaded', duplicate: page.duplicate });
        } catch (error) {
          const message = isApiError(error) || error instanceof Error ? error.message : MESSAGES.internal;
          update(item.key, { status: 'failed', error: message });
        }
      }
    },
    [update],
  );

  const upload = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      if (!schoolYearId) {
        toast.error(MESSAGES.scanNeedsYear);
        return;
      }
      publish({ busy: true });
      const pages: { name: string; label: string; blob: Blob }[] = [];
      for (const file of files) {
        publish({ splitting: file.name });
        try {
          for (const p of await splitFile(file)) {
            pages.push({
              name: p.name,
              label: p.pages > 1 ? s.upload.pageName(file.name, p.page) : file.name,
              blob: p.blob,
            });
          }
        } catch (error) {
          toast.error(error instanceof FileSplitError ? error.message : s.upload.unreadable(file.name));
        }
      }
      publish({ splitting: null });
      if (pages.length === 0) {
        publish({ busy: false });
        return;
      }
      const { setting } = readScannerState();
      let batchId: string;
      try {
        const created = await createHostBatch({
          schoolYearId,
          subjectTeacher: setting.subjectTeacher,
          source: 'upload',
          paperSize: setting.paperSize,
          homeworkId,
        });
        batchId = created.batch.id;
      } catch {
        publish({ busy: false });
        return; // the API client showed the host's message
      }
      const added: UploadItem[] = pages.map((p, i) => ({
        key: `${batchId}-${i + 1}`,
        seq: i + 1,
        name: p.name,
        label: p.label,
        blob: p.blob,
        url: URL.createObjectURL(p.blob),
        status: 'pending',
        error: null,
        duplicate: false,
      }));
      for (const i of items.current) URL.revokeObjectURL(i.url);
      items.current = added;
      publish({ batchId });
      await send(batchId, added);
      publish({ busy: false });
      const done = items.current.filter((i) => i.status === 'uploaded').length;
      if (done > 0) toast.success(s.upload.done(done));
    },
    [schoolYearId, homeworkId, publish, send],
  );

  const retryFailed = useCallback(async () => {
    const batchId = state.batchId;
    if (!batchId) return;
    publish({ busy: true });
    await send(
      batchId,
      items.current.filter((i) => i.status === 'failed'),
    );
    publish({ busy: false });
  }, [state.batchId, publish, send]);

  return { state, upload, retryFailed };
}
