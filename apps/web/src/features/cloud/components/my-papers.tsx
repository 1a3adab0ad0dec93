import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { RECYCLE_BIN_DAYS, type PaperSummary } from '@zhzy/contracts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { TextField } from '../../../components/ui/field';
import { Menu } from '../../../components/ui/menu';
import type { Column } from '../../../components/ui/table';
import { ChevronDownIcon } from '../../../components/icons';
import { paths, withQuery } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { toast } from '../../../lib/toast';
import {
  NO_LIST_FILTERS,
  copyPaper,
  deletePaper,
  renamePaper,
  sharePaper,
  usePaperList,
  type ListFilters,
} from '../api/papers';
import { PaperFilters, PaperListBody, paperColumns } from './common';
import { WordImport } from './word-import';

const c = composition.cloud;

/** 我的试卷: search and filter, open to edit, rename, copy, share to the school, delete to the recycle bin, import Word. */
export function MyPapersScreen() {
  const [filters, setFilters] = useState<ListFilters>(NO_LIST_FILTERS);
  const { data, isLoading, mutate } = usePaperList('mine', filters);
  const [renaming, setRenaming] = useState<PaperSummary | null>(null);
  const [sharing, setSharing] = useState<PaperSummary | null>(null);
  const [importing, setImporting] = useState(false);

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      toast.success(done);
      await mutate();
    } catch {
      // The client showed the message.
    }
  };

  const columns: Column<PaperSummary>[] = [
    paperColumns.title((p) => (
      <Link
        to={withQuery(paths.edit, { paperId: p.id })}
        className="font-medium text-slate-900 hover:text-blue-700 hover:underline"
      >
        {p.title}
      </Link>
    )),
    paperColumns.subject,
    paperColumns.size,
    paperColumns.updated,
    {
      key: 'actions',
      header: <span className="sr-only">{c.colActions}</span>,
      align: 'right',
      cell: (p) => (
        <div className="flex items-center justify-end gap-1 whitespace-nowrap">
          <ButtonLink
            to={withQuery(paths.edit, { paperId: p.id })}
            variant="ghost"
            size="sm"
            aria-label={c.editOf(p.title)}
          >
            {c.edit}
          </ButtonLink>
          <Menu
            label={c.moreOf(p.title)}
            buttonClassName="h-8 rounded-md px-2 text-sm text-slate-600 hover:bg-slate-100"
            button={
              <>
                {c.more}
                <ChevronDownIcon className="size-4" />
              </>
            }
            items={[
              { kind: 'link', label: c.settings, to: withQuery(paths.paperset, { paperId: p.id }) },
              { kind: 'action', label: c.rename, onSelect: () => setRenaming(p) },
              { kind: 'action', label: c.copy, onSelect: () => void act(() => copyPaper(p.id), c.copied) },
              { kind: 'action', label: p.shared ? c.shareSettings : c.share, onSelect: () => setSharing(p) },
              { kind: 'separator', key: 'sep' },
              {
                kind: 'action',
                label: c.delete,
                danger: true,
                onSelect: () => void act(() => deletePaper(p.id), c.deleted(RECYCLE_BIN_DAYS)),
              },
            ]}
          />
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <PaperFilters
        value={filters}
        onChange={setFilters}
        actions={
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setImporting(true)}>
              {c.importWord}
            </Button>
            <ButtonLink to={paths.rehearse.select}>{c.newPaper}</ButtonLink>
          </div>
        }
      />
      <PaperListBody
        data={data}
        isLoading={isLoading}
        caption={c.myCaption}
        columns={columns}
        onPage={(page) => setFilters((f) => ({ ...f, page }))}
        empty={
          <Empty
            title={filters === NO_LIST_FILTERS ? c.myEmpty : c.noMatch}
            description={filters === NO_LIST_FILTERS ? c.myEmptyHint : c.noMatchHint}
            action={
              filters === NO_LIST_FILTERS ? (
                <ButtonLink to={paths.rehearse.select}>{c.newPaper}</ButtonLink>
              ) : undefined
            }
          />
        }
      />
      <RenameDialog
        paper={renaming}
        onClose={() => setRenaming(null)}
        onSave={async (title) => {
          if (!renaming) return;
          await act(() => renamePaper(renaming.id, title), c.renamed);
          setRenaming(null);
        }}
      />
      <ShareDialog
        paper={sharing}
        onClose={() => setSharing(null)}
        onSave={async (shared, asTemplate) => {
          if (!sharing) return;
          await act(() => sharePaper(sharing.id, shared, asTemplate), shared ? c.sharedDone : c.unsharedDone);
          setSharing(null);
        }}
      />
      <WordImport open={importing} onClose={() => setImporting(false)} />
    </div>
  );
}

function RenameDialog({
  paper,
  onClose,
  onSave,
}: {
  paper: PaperSummary | null;
  onClose: () => void;
  onSave: (title: string) => Promise<void>;
}) {
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setTitle(paper?.title ?? ''), [paper]);
  const error = title.trim() === '' ? c.titleRequired : title.trim().length > 80 ? c.titleTooLong : null;
  return (
    <Dialog open={paper !== null} onClose={onClose} title={c.renameTitle}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (error) return;
          setBusy(true);
          void onSave(title.trim()).finally(() => setBusy(false));
        }}
      >
        <TextField
          label={c.newTitle}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={title ? error : null}
          autoFocus
        />
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" loading={busy} disabled={error !== null}>
            {t.confirm}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function ShareDialog({
  paper,
  onClose,
  onSave,
}: {
  paper: PaperSummary | null;
  onClose: () => void;
  onSave: (shared: boolean, asTemplate: boolean) => Promise<void>;
}) {
  const [shared, setShared] = useState(false);
  const [template, setTemplate] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // Opened from 共享到学校 (or on a shared paper): sharing is what the teacher came for.
    setShared(paper !== null);
    setTemplate(paper?.isTemplate ?? false);
  }, [paper]);
  return (
    <Dialog open={paper !== null} onClose={onClose} title={c.shareTitle}>
      <p className="-mt-2 mb-4 text-sm text-slate-500">{paper?.title}</p>
      <div className="space-y-3 text-sm text-slate-700">
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-blue-600"
            checked={shared}
            onChange={(e) => setShared(e.target.checked)}
          />
          <span>
            {c.shareToSchool}
            <span className="block text-xs text-slate-500">{c.shareToSchoolHint}</span>
          </span>
        </label>
        <label className={shared ? 'flex items-start gap-2' : 'flex items-start gap-2 opacity-50'}>
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-blue-600"
            disabled={!shared}
            checked={shared && template}
            onChange={(e) => setTemplate(e.target.checked)}
          />
          <span>
            {c.asTemplate}
            <span className="block text-xs text-slate-500">{c.asTemplateHint}</span>
          </span>
        </label>
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t.cancel}
        </Button>
        <Button
          loading={busy}
          onClick={() => {
            setBusy(true);
            void onSave(shared, shared && template).finally(() => setBusy(false));
          }}
        >
          {t.confirm}
        </Button>
      </div>
    </Dialog>
  );
}
