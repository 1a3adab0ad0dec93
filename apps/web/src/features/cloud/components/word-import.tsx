import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { SubjectPicker } from '../../../components/ui/subject-picker';
import { paths, withQuery } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { useSelection } from '../../../lib/selection';
import { toast } from '../../../lib/toast';
import { useQuestionTypes, useStages } from '../../../api/catalog';
import { useWordImport } from './use-word-import';
import { DestinationPicker, WordImportList } from './word-import-list';
import { blockingCount, questionCount, savable, type Destination } from './word-import-model';
import { WordImportReview } from './word-import-review';

const w = composition.word;
const DOCX = '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * 导入Word: choose one or several .docx, read them one by one with a progress bar, fix each paper up side by side
 * with its original, and save to 我的试卷 and/or 我的题库 (optionally shared to the school). Nothing is saved before.
 */
export function WordImport({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const selection = useSelection();
  const { data: stages } = useStages();
  const [subjectId, setSubjectId] = useState<string | null>(selection?.subjectId ?? null);
  const [files, setFiles] = useState<File[]>([]);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [to, setTo] = useState<Destination>({ paper: true, bank: true, share: false });
  const fileRef = useRef<HTMLInputElement>(null);
  const batch = useWordImport();
  const { data: types } = useQuestionTypes(subjectId);
  const typeName = (id: string) => types?.find((x) => x.id === id)?.name ?? '';
  const { setItems } = batch;

  useEffect(() => {
    if (!open) return;
    setFiles([]);
    setItems([]);
    setReviewing(null);
    setSubjectId(selection?.subjectId ?? null);
  }, [open, selection?.subjectId, setItems]);

  const current = batch.items.find((x) => x.key === reviewing) ?? null;
  const noDestination = !to.paper && !to.bank;

  const saveCurrent = async () => {
    if (!current) return;
    if (!current.title.trim()) return toast.error(w.titleRequired);
    const blocking = blockingCount(current.sections, typeName);
    if (blocking > 0) return toast.error(w.fixFirst(blocking));
    if (noDestination) return toast.error(w.noDestination);
    setBusy(true);
    try {
      const paperId = await batch.saveOne(current, to, typeName);
      setReviewing(null);
      if (paperId && batch.items.length === 1) {
        toast.success(w.saved);
        onClose();
        void navigate(withQuery(paths.edit, { paperId }));
      } else toast.success(to.paper ? w.saved : w.savedBank(questionCount(current.sections)));
    } catch {
      // The client showed the host's message.
    } finally {
      setBusy(false);
    }
  };

  const saveAll = async () => {
    if (noDestination) return toast.error(w.noDestination);
    if (!batch.items.some((x) => savable(x, typeName))) return toast.error(w.nothingToSave);
    setBusy(true);
    try {
      const { saved, skipped } = await batch.saveAll(to, typeName);
      if (saved > 0) toast.success(w.savedSome(saved, skipped));
    } finally {
      setBusy(false);
    }
  };

  if (batch.items.length === 0) {
    return (
      <Dialog open={open} onClose={onClose} title={w.title}>
        <p className="-mt-2 mb-4 text-sm leading-6 text-slate-500">{w.intro}</p>
        <div className="space-y-4">
          <SubjectPicker
            stages={stages}
            value={subjectId}
            onChange={(v) => setSubjectId(v?.subjectId ?? null)}
          />
          <div>
            <input
              ref={fileRef}
              type="file"
              multiple
              accept={DOCX}
              className="sr-only"
              aria-label={w.chooseFiles}
              onChange={(e) => setFiles([...(e.target.files ?? [])])}
            />
            <button
              type="button"
              onClick={() => fileRef.current?.click()}
              className="flex w-full flex-col items-center gap-1 rounded-lg border-2 border-dashed border-slate-300 px-4 py-8 text-sm text-slate-500 hover:border-blue-400 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <span className="font-medium text-slate-700">
                {files.length === 1
                  ? files[0]!.name
                  : files.length > 1
                    ? w.filesChosen(files.length)
                    : w.chooseFiles}
              </span>
              <span className="text-xs">{w.fileHint}</span>
            </button>
          </div>
          <details className="text-xs leading-5 text-slate-500">
            <summary className="cursor-pointer text-slate-600">{w.formatTitle}</summary>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {w.format.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </details>
        </div>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button
            disabled={files.length === 0 || !subjectId}
            onClick={() => void batch.readAll(files, subjectId!)}
          >
            {w.read}
          </Button>
        </div>
      </Dialog>
    );
  }

  const footer = (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {current ? (
        <Button variant="ghost" onClick={() => setReviewing(null)}>
          {w.backToList}
        </Button>
      ) : (
        <Button variant="ghost" disabled={batch.progress !== null} onClick={() => batch.setItems([])}>
          {w.another}
        </Button>
      )}
      <DestinationPicker value={to} onChange={setTo} />
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t.cancel}
        </Button>
        {current ? (
          <Button loading={busy} disabled={current.status !== 'ready'} onClick={() => void saveCurrent()}>
            {w.saveOne}
          </Button>
        ) : (
          <Button loading={busy} disabled={batch.progress !== null} onClick={() => void saveAll()}>
            {w.saveAll}
          </Button>
        )}
      </div>
    </div>
  );

  return (
    <LargeDialog
      open={open}
      onClose={onClose}
      title={current ? w.reviewOf(current.file.name) : w.papersTitle}
      width={current ? 'xxl' : 'xl'}
      footer={footer}
    >
      {current ? (
        <WordImportReview
          item={current}
          types={types}
          typeName={typeName}
          onChange={(change) => batch.update(current.key, change)}
        />
      ) : (
        <WordImportList
          items={batch.items}
          progress={batch.progress}
          typeName={typeName}
          onReview={setReviewing}
        />
      )}
    </LargeDialog>
  );
}
