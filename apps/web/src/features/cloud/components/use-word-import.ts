import { useCallback, useState } from 'react';
import { isApiError } from '@zhzy/api-client';
import { composition } from '../../../i18n/composition';
import { previewWord, saveToBank, saveWord, shareQuestion } from '../api/word';
import { forBank, forPaper, newItem, savable, type Destination, type ImportItem } from './word-import-model';

const w = composition.word;

/** Reading progress: the file being read (1-based) of how many. */
export interface Progress {
  at: number;
  total: number;
  name: string;
}

/** The batch of a Word import: files read one by one, each fixed up, then saved where the teacher chose. */
export function useWordImport() {
  const [items, setItems] = useState<ImportItem[]>([]);
  const [progress, setProgress] = useState<Progress | null>(null);

  const update = useCallback(
    (key: string, change: Partial<ImportItem>) =>
      setItems((list) => list.map((x) => (x.key === key ? { ...x, ...change } : x))),
    [],
  );

  /** Reads every file in turn; a failure is noted beside its file and the others go on. */
  const readAll = useCallback(
    async (files: File[], subjectId: string) => {
      const batch = files.map(newItem);
      setItems(batch);
      const toRead = batch.filter((x) => x.status === 'waiting');
      for (const [i, item] of toRead.entries()) {
        setProgress({ at: i + 1, total: toRead.length, name: item.file.name });
        update(item.key, { status: 'reading' });
        try {
          const preview = await previewWord(item.file, subjectId);
          update(item.key, {
            status: 'ready',
            preview,
            title: preview.title || item.title,
            subtitle: preview.subtitle,
            sections: preview.sections,
          });
        } catch (error) {
          const reason = isApiError(error) && error.status !== null ? error.message : w.unreadable;
          update(item.key, { status: 'failed', error: reason });
        }
      }
      setProgress(null);
    },
    [update],
  );

  /** Saves one paper where the teacher chose; answers the paper's id when it became a paper. */
  const saveOne = useCallback(
    async (item: ImportItem, to: Destination, typeName: (id: string) => string): Promise<string | null> => {
      const preview = item.preview!;
      let paperId: string | null = null;
      if (to.paper) {
        const doc = await saveWord({
          subjectId: preview.subjectId,
          title: item.title.trim(),
          subtitle: item.subtitle.trim(),
          sections: forPaper(item.sections, typeName),
        });
        paperId = doc.id;
        // The paper's questions are the teacher's own (我的题库); shared one by one when asked.
        if (to.share) {
          for (const s of doc.sections) for (const it of s.items) await shareQuestion(it.questionId);
        }
      } else if (to.bank) {
        await saveToBank(forBank(item, preview.subjectId, typeName), to.share);
      }
      update(item.key, { status: 'saved' });
      return paperId;
    },
    [update],
  );

  /** 全部保存: every paper without blocking problems, in turn; answers how many were saved and skipped. */
  const saveAll = useCallback(
    async (to: Destination, typeName: (id: string) => string) => {
      const ready = items.filter((x) => x.status === 'ready');
      const ok = ready.filter((x) => savable(x, typeName));
      let saved = 0;
      let lastPaper: string | null = null;
      for (const item of ok) {
        try {
          lastPaper = await saveOne(item, to, typeName);
          saved += 1;
        } catch {
          // The client showed the host's message; the paper stays in the list to try again.
        }
      }
      return { saved, skipped: ready.length - saved, lastPaper };
    },
    [items, saveOne],
  );

  return { items, setItems, update, progress, readAll, saveOne, saveAll };
}
