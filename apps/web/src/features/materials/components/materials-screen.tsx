import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { Material, MaterialFolder, MaterialKind } from '@zhzy/contracts';
import { ChevronRightIcon, TrashIcon } from '../../../components/icons';
import { Page } from '../../../components/page';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { SearchForm } from '../../../components/ui/search-form';
import { TextField } from '../../../components/ui/field';
import { Menu } from '../../../components/ui/menu';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { formatSize, tm } from '../../../i18n/materials';
import { useSWRConfig } from 'swr';
import { toast } from '../../../lib/toast';
import { cn, formatDate } from '../../../lib/utils';
import {
  MATERIALS_KEY,
  PAGE_SIZE,
  createFolder,
  deleteFolder,
  deleteMaterial,
  downloadMaterial,
  moveMaterial,
  purgeMaterial,
  renameFolder,
  renameMaterial,
  restoreMaterial,
  uploadMaterial,
  useFolders,
  useMaterials,
  useRecycleBin,
  type MaterialQuery,
} from '../api/materials';
import { PreviewDialog } from './preview-dialog';

const KIND_TONES: Record<MaterialKind, string> = {
  pdf: 'bg-red-50 text-red-700',
  word: 'bg-blue-50 text-blue-700',
  image: 'bg-emerald-50 text-emerald-700',
};

/** A folder glyph (no emoji: not every school PC has an emoji font). */
function FolderIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className={cn('size-4 shrink-0 text-amber-500', className)}>
      <path
        fill="currentColor"
        d="M2 5.5A1.5 1.5 0 0 1 3.5 4h4.1l1.6 1.8h7.3A1.5 1.5 0 0 1 18 7.3v7.2a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 2 14.5z"
      />
    </svg>
  );
}

const ACCEPT = '.pdf,.docx,.jpg,.jpeg,.png,.gif,.webp,application/pdf,image/*';

/** Folders as an indented list in tree order (a parent before its children). */
function treeOrder(folders: MaterialFolder[]): { folder: MaterialFolder; depth: number }[] {
  const out: { folder: MaterialFolder; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const f of folders.filter((x) => x.parentId === parent)) {
      out.push({ folder: f, depth });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

function pathTo(folders: MaterialFolder[], id: string | null): MaterialFolder[] {
  const out: MaterialFolder[] = [];
  let at = id;
  while (at) {
    const f = folders.find((x) => x.id === at);
    if (!f) break;
    out.unshift(f);
    at = f.parentId;
  }
  return out;
}

/** A name dialog (new folder, rename). */
function NameDialog({
  title,
  label,
  initial,
  submitLabel,
  onSubmit,
  onClose,
}: {
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(tm.nameRequired);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(name.trim());
      onClose();
    } catch {
      // The client already showed the host's message; the dialog stays open with what was typed.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} title={title}>
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label={label}
          value={name}
          maxLength={100}
          autoFocus
          error={error}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" type="button" onClick={onClose}>
            {tm.cancel}
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function MoveDialog({
  material,
  folders,
  onMove,
  onClose,
}: {
  material: Material;
  folders: MaterialFolder[];
  onMove: (folderId: string | null) => Promise<void>;
  onClose: () => void;
}) {
  const [target, setTarget] = useState<string | null>(material.folderId);
  const [busy, setBusy] = useState(false);
  const options = [{ id: null as string | null, name: tm.root, depth: 0 }].concat(
    treeOrder(folders).map(({ folder, depth }) => ({ id: folder.id, name: folder.name, depth: depth + 1 })),
  );
  return (
    <Dialog open onClose={onClose} title={tm.moveTitle(`${material.name}.${material.ext}`)}>
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-700">{tm.moveTo}</legend>
        <div className="max-h-72 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
          {options.map((o) => (
            <label
              key={o.id ?? 'root'}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50"
              style={{ paddingLeft: `${o.depth * 16 + 8}px` }}
            >
              <input type="radio" name="target" checked={target === o.id} onChange={() => setTarget(o.id)} />
              {o.name}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {tm.cancel}
        </Button>
        <Button
          loading={busy}
          disabled={target === material.folderId}
          onClick={() => {
            setBusy(true);
            onMove(target)
              .then(onClose)
              .catch(() => undefined)
              .finally(() => setBusy(false));
          }}
        >
          {tm.move}
        </Button>
      </div>
    </Dialog>
  );
}

type Modal =
  | { kind: 'newFolder'; parentId: string | null }
  | { kind: 'renameFolder'; folder: MaterialFolder }
  | { kind: 'deleteFolder'; folder: MaterialFolder }
  | { kind: 'preview'; material: Material }
  | { kind: 'rename'; material: Material }
  | { kind: 'move'; material: Material }
  | { kind: 'delete'; material: Material }
  | { kind: 'purge'; material: Material }
  | null;

/** /schoolmaterials: the school's shared files in folders, with search, upload, preview, download and a recycle bin. */
export function MaterialsScreen() {
  const { mutate } = useSWRConfig();
  const { data: folders } = useFolders();
  const [view, setView] = useState<'files' | 'bin'>('files');
  const [query, setQuery] = useState<MaterialQuery>({
    folderId: null,
    keyword: '',
    kind: '',
    mine: false,
    page: 1,
  });
  const [typed, setTyped] = useState('');
  const [binPage, setBinPage] = useState(1);
  const { data: list, isLoading } = useMaterials(query);
  const { data: bin } = useRecycleBin(binPage, view === 'bin');
  const [modal, setModal] = useState<Modal>(null);
  const [busy, setBusy] = useState(false);
  const [uploads, setUploads] = useState<string[]>([]);
  const [downloads, setDownloads] = useState<Record<string, number | null>>({});
  const input = useRef<HTMLInputElement>(null);

  const allFolders = useMemo(() => folders ?? [], [folders]);
  const current = allFolders.find((f) => f.id === query.folderId) ?? null;
  const crumbs = pathTo(allFolders, query.folderId);
  const subfolders = query.keyword ? [] : allFolders.filter((f) => f.parentId === query.folderId);
  // Every materials key carries MATERIALS_KEY after the user scope: one change revalidates folders, lists and the bin.
  const refreshAll = () =>
    mutate((key) => Array.isArray(key) && key[1] === MATERIALS_KEY, undefined, { revalidate: true });

  const openFolder = (id: string | null) => {
    setTyped('');
    setQuery((q) => ({ ...q, folderId: id, keyword: '', page: 1 }));
  };

  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    for (const file of Array.from(files)) {
      setUploads((u) => [...u, file.name]);
      try {
        const res = await uploadMaterial(file, query.keyword ? null : query.folderId);
        toast(res.message, 'success');
      } catch {
        // The client showed the host's reason (wrong type, too large, damaged …).
      } finally {
        setUploads((u) => u.filter((n) => n !== file.name));
      }
    }
    if (input.current) input.current.value = '';
    await refreshAll();
  };

  const download = async (m: Material) => {
    setDownloads((d) => ({ ...d, [m.id]: 0 }));
    try {
      await downloadMaterial(m.id, `${m.name}.${m.ext}`, (loaded, total) =>
        setDownloads((d) => ({ ...d, [m.id]: total ? Math.round((loaded / total) * 100) : null })),
      );
    } catch {
      // The client showed its download-failed toast.
    } finally {
      setDownloads((d) => {
        const next = { ...d };
        delete next[m.id];
        return next;
      });
    }
  };

  const act = async (work: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await work();
      toast(message, 'success');
      setModal(null);
      await refreshAll();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  const rows = (view === 'bin' ? bin?.records : list?.records) ?? [];
  const total = (view === 'bin' ? bin?.total : list?.total) ?? 0;

  return (
    <Page
      title={tm.title}
      lead={tm.lead}
      wide
      actions={
        <div className="flex flex-wrap gap-2">
          <ButtonLink to={paths.paperbinding} variant="secondary">
            {tm.bindingLink}
          </ButtonLink>
          <Button
            variant={view === 'bin' ? 'primary' : 'secondary'}
            icon={<TrashIcon className="size-4" />}
            onClick={() => setView((v) => (v === 'bin' ? 'files' : 'bin'))}
          >
            {view === 'bin' ? tm.allMaterials : tm.recycleBin}
          </Button>
        </div>
      }
    >
      <div className="grid gap-5 lg:grid-cols-[240px_1fr]">
        {/* Folders */}
        <aside className="rounded-xl border border-slate-200 bg-white p-3" aria-label={tm.folders}>
          <div className="mb-2 flex items-center justify-between px-1">
            <h2 className="text-sm font-semibold text-slate-700">{tm.folders}</h2>
            <Button
              size="sm"
              variant="ghost"
              onClick={() =>
                setModal({ kind: 'newFolder', parentId: view === 'files' ? query.folderId : null })
              }
            >
              + {tm.newFolder}
            </Button>
          </div>
          <nav className="space-y-0.5">
            <button
              type="button"
              onClick={() => {
                setView('files');
                openFolder(null);
              }}
              aria-current={view === 'files' && !query.folderId && !query.keyword ? 'page' : undefined}
              className={cn(
                'flex w-full items-center rounded-md px-2 py-1.5 text-left text-sm',
                view === 'files' && !query.folderId && !query.keyword
                  ? 'bg-blue-50 font-medium text-blue-700'
                  : 'text-slate-700 hover:bg-slate-50',
              )}
            >
              {tm.allMaterials}
            </button>
            {folders === undefined && <Skeleton className="h-24 w-full" />}
            {treeOrder(allFolders).map(({ folder, depth }) => (
              <button
                type="button"
                key={folder.id}
                onClick={() => {
                  setView('files');
                  openFolder(folder.id);
                }}
                aria-current={view === 'files' && query.folderId === folder.id ? 'page' : undefined}
                className={cn(
                  'flex w-full items-center justify-between gap-2 rounded-md py-1.5 pr-2 text-left text-sm',
                  view === 'files' && query.folderId === folder.id && !query.keyword
                    ? 'bg-blue-50 font-medium text-blue-700'
                    : 'text-slate-700 hover:bg-slate-50',
                )}
                style={{ paddingLeft: `${depth * 14 + 8}px` }}
              >
                <span className="flex min-w-0 items-center gap-1.5">
                  <FolderIcon />
                  <span className="truncate">{folder.name}</span>
                </span>
                <span className="text-xs text-slate-500">{folder.materialCount}</span>
              </button>
            ))}
          </nav>
        </aside>

        <section className="min-w-0 rounded-xl border border-slate-200 bg-white">
          {view === 'files' ? (
            <>
              <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 p-4">
                <SearchForm
                  label={tm.search}
                  placeholder={tm.search}
                  submit={tm.searchButton}
                  className="flex min-w-0 flex-1 gap-2"
                  maxLength={50}
                  text={typed}
                  onTextChange={setTyped}
                  button={{ variant: 'secondary' }}
                  onSearch={(keyword) => setQuery((q) => ({ ...q, keyword, page: 1 }))}
                />
                <select
                  aria-label={tm.kindAll}
                  value={query.kind}
                  onChange={(e) =>
                    setQuery((q) => ({ ...q, kind: e.target.value as MaterialKind | '', page: 1 }))
                  }
                  className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
                >
                  <option value="">{tm.kindAll}</option>
                  <option value="pdf">PDF</option>
                  <option value="word">Word</option>
                  <option value="image">{tm.kinds.image}</option>
                </select>
                <label className="flex items-center gap-1.5 text-sm text-slate-600">
                  <input
                    type="checkbox"
                    checked={query.mine}
                    onChange={(e) => setQuery((q) => ({ ...q, mine: e.target.checked, page: 1 }))}
                  />
                  {tm.mine}
                </label>
                <input
                  ref={input}
                  type="file"
                  accept={ACCEPT}
                  multiple
                  className="sr-only"
                  aria-label={tm.upload}
                  data-testid="material-file-input"
                  onChange={(e) => void onFiles(e.target.files)}
                />
                <Button onClick={() => input.current?.click()} loading={uploads.length > 0}>
                  {tm.upload}
                </Button>
              </div>

              <div className="flex flex-wrap items-center justify-between gap-2 px-4 pt-3 text-sm">
                {query.keyword ? (
                  <p className="text-slate-600">
                    {tm.searchResult(query.keyword, total)}{' '}
                    <button
                      type="button"
                      className="text-blue-600 hover:underline"
                      onClick={() => openFolder(query.folderId)}
                    >
                      {tm.clearSearch}
                    </button>
                  </p>
                ) : (
                  <nav
                    aria-label={tm.breadcrumb}
                    className="flex flex-wrap items-center gap-1 text-slate-600"
                  >
                    <button type="button" className="hover:text-blue-600" onClick={() => openFolder(null)}>
                      {tm.allMaterials}
                    </button>
                    {crumbs.map((f) => (
                      <span key={f.id} className="flex items-center gap-1">
                        <ChevronRightIcon className="size-3.5 text-slate-500" />
                        <button
                          type="button"
                          className="hover:text-blue-600"
                          onClick={() => openFolder(f.id)}
                        >
                          {f.name}
                        </button>
                      </span>
                    ))}
                  </nav>
                )}
                {current && !query.keyword && current.canManage && (
                  <div className="flex gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setModal({ kind: 'renameFolder', folder: current })}
                    >
                      {tm.renameFolder}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setModal({ kind: 'deleteFolder', folder: current })}
                    >
                      {tm.deleteFolder}
                    </Button>
                  </div>
                )}
              </div>
              <p className="px-4 pt-1 text-xs text-slate-500">
                {tm.uploadHint}
                {uploads.length > 0 && (
                  <span className="ml-2 text-blue-600">{tm.uploading(uploads[0]!)}</span>
                )}
              </p>
            </>
          ) : (
            <div className="border-b border-slate-200 p-4">
              <h2 className="text-base font-semibold text-slate-900">{tm.recycleBin}</h2>
              <p className="mt-1 text-sm text-slate-500">{tm.recycleLead}</p>
            </div>
          )}

          <div className="overflow-x-auto p-4">
            {view === 'files' && subfolders.length > 0 && (
              <ul className="mb-3 grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
                {subfolders.map((f) => (
                  <li key={f.id}>
                    <button
                      type="button"
                      onClick={() => openFolder(f.id)}
                      className="flex w-full items-center justify-between rounded-lg border border-slate-200 px-3 py-2.5 text-left text-sm hover:border-blue-300 hover:bg-blue-50/40"
                    >
                      <span className="flex min-w-0 items-center gap-2">
                        <FolderIcon className="size-5" />
                        <span className="truncate font-medium text-slate-800">{f.name}</span>
                      </span>
                      <span className="text-xs text-slate-500">{f.materialCount}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {view === 'files' && isLoading && !list ? (
              <Skeleton className="h-40 w-full" />
            ) : rows.length === 0 ? (
              view === 'bin' ? (
                <Empty title={tm.emptyBin} />
              ) : subfolders.length === 0 ? (
                <Empty
                  title={query.keyword ? tm.emptySearch : tm.emptyFolder}
                  description={query.keyword ? undefined : tm.emptyFolderHint}
                />
              ) : null
            ) : (
              <table className="w-full min-w-[720px] text-sm">
                <thead>
                  <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
                    <th className="py-2 pr-3 font-medium">{tm.columns.name}</th>
                    <th className="py-2 pr-3 font-medium">{tm.columns.kind}</th>
                    <th className="py-2 pr-3 font-medium">{tm.columns.size}</th>
                    <th className="py-2 pr-3 font-medium">{tm.columns.uploader}</th>
                    <th className="py-2 pr-3 font-medium">
                      {view === 'bin' ? tm.deletedAt : tm.columns.time}
                    </th>
                    <th className="py-2 text-right font-medium">{tm.columns.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((m) => {
                    const progress = downloads[m.id];
                    return (
                      <tr
                        key={m.id}
                        className="border-b border-slate-100 last:border-0"
                        data-testid="material-row"
                      >
                        <td className="py-2.5 pr-3">
                          <button
                            type="button"
                            disabled={view === 'bin'}
                            className="text-left font-medium text-slate-800 hover:text-blue-600 disabled:hover:text-slate-800"
                            onClick={() => setModal({ kind: 'preview', material: m })}
                          >
                            {m.name}.{m.ext}
                          </button>
                          {(query.keyword || view === 'bin') && (
                            <p className="text-xs text-slate-500">
                              {tm.location}：{[tm.allMaterials, ...m.folderPath].join(' / ')}
                            </p>
                          )}
                        </td>
                        <td className="py-2.5 pr-3">
                          <span className={cn('rounded px-1.5 py-0.5 text-xs', KIND_TONES[m.kind])}>
                            {tm.kinds[m.kind]}
                          </span>
                          {m.pageCount && (
                            <span className="ml-1 text-xs text-slate-500">{tm.pages(m.pageCount)}</span>
                          )}
                        </td>
                        <td className="py-2.5 pr-3 text-slate-600">{formatSize(m.sizeBytes)}</td>
                        <td className="py-2.5 pr-3 text-slate-600">{m.uploader?.nickname ?? '—'}</td>
                        <td className="py-2.5 pr-3 text-slate-500">
                          {formatDate(m.deletedAt ?? m.createdAt)}
                        </td>
                        <td className="py-2.5 text-right whitespace-nowrap">
                          {view === 'bin' ? (
                            <div className="flex justify-end gap-1">
                              <Button
                                size="sm"
                                variant="secondary"
                                onClick={() => void act(() => restoreMaterial(m.id), tm.restore)}
                              >
                                {tm.restore}
                              </Button>
                              <Button
                                size="sm"
                                variant="danger"
                                onClick={() => setModal({ kind: 'purge', material: m })}
                              >
                                {tm.purge}
                              </Button>
                            </div>
                          ) : (
                            <div className="flex items-center justify-end gap-1">
                              <Button
                                size="sm"
                                variant="ghost"
                                onClick={() => setModal({ kind: 'preview', material: m })}
                              >
                                {tm.preview}
                              </Button>
                              {progress !== undefined ? (
                                <span className="flex w-28 items-center gap-1.5" role="status">
                                  <span className="h-1.5 flex-1 overflow-hidden rounded bg-slate-200">
                                    <span
                                      className="block h-full bg-blue-600 transition-all"
                                      style={{ width: `${progress ?? 30}%` }}
                                    />
                                  </span>
                                  <span className="text-xs text-slate-500">{tm.downloading(progress)}</span>
                                </span>
                              ) : (
                                <Button size="sm" variant="ghost" onClick={() => void download(m)}>
                                  {tm.download}
                                </Button>
                              )}
                              {m.canManage && (
                                <Menu
                                  label={tm.more}
                                  button={
                                    <span className="px-2 py-1 text-slate-500 hover:text-slate-800">···</span>
                                  }
                                  items={[
                                    {
                                      kind: 'action',
                                      label: tm.rename,
                                      onSelect: () => setModal({ kind: 'rename', material: m }),
                                    },
                                    {
                                      kind: 'action',
                                      label: tm.move,
                                      onSelect: () => setModal({ kind: 'move', material: m }),
                                    },
                                    {
                                      kind: 'action',
                                      label: tm.delete,
                                      danger: true,
                                      onSelect: () => setModal({ kind: 'delete', material: m }),
                                    },
                                  ]}
                                />
                              )}
                            </div>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            <div className="mt-4">
              <Pagination
                page={view === 'bin' ? binPage : query.page}
                total={total}
                size={PAGE_SIZE}
                onChange={(p) => (view === 'bin' ? setBinPage(p) : setQuery((q) => ({ ...q, page: p })))}
              />
            </div>
          </div>
        </section>
      </div>

      {modal?.kind === 'newFolder' && (
        <NameDialog
          title={modal.parentId ? tm.newSubfolder : tm.newFolder}
          label={tm.folderName}
          initial=""
          submitLabel={tm.create}
          onClose={() => setModal(null)}
          onSubmit={async (name) => {
            await createFolder(name, modal.parentId);
            toast(tm.folderCreated, 'success');
            await refreshAll();
          }}
        />
      )}
      {modal?.kind === 'renameFolder' && (
        <NameDialog
          title={tm.renameFolder}
          label={tm.folderName}
          initial={modal.folder.name}
          submitLabel={tm.save}
          onClose={() => setModal(null)}
          onSubmit={async (name) => {
            await renameFolder(modal.folder.id, name);
            toast(tm.saved, 'success');
            await refreshAll();
          }}
        />
      )}
      {modal?.kind === 'deleteFolder' && (
        <ConfirmDialog
          open
          danger
          busy={busy}
          title={tm.deleteFolder}
          confirmLabel={tm.delete}
          onClose={() => setModal(null)}
          onConfirm={() =>
            void act(async () => {
              await deleteFolder(modal.folder.id);
              openFolder(modal.folder.parentId);
            }, tm.folderDeleted)
          }
        >
          {tm.deleteFolderConfirm(modal.folder.name)}
        </ConfirmDialog>
      )}
      {modal?.kind === 'rename' && (
        <NameDialog
          title={tm.rename}
          label={tm.newName}
          initial={modal.material.name}
          submitLabel={tm.save}
          onClose={() => setModal(null)}
          onSubmit={async (name) => {
            await renameMaterial(modal.material.id, name);
            toast(tm.saved, 'success');
            await refreshAll();
          }}
        />
      )}
      {modal?.kind === 'move' && (
        <MoveDialog
          material={modal.material}
          folders={allFolders}
          onClose={() => setModal(null)}
          onMove={async (folderId) => {
            await moveMaterial(modal.material.id, folderId);
            toast(tm.moved, 'success');
            await refreshAll();
          }}
        />
      )}
      {modal?.kind === 'delete' && (
        <ConfirmDialog
          open
          danger
          busy={busy}
          title={tm.delete}
          confirmLabel={tm.delete}
          onClose={() => setModal(null)}
          onConfirm={() => void act(() => deleteMaterial(modal.material.id), tm.deleted)}
        >
          {tm.deleteConfirm(`${modal.material.name}.${modal.material.ext}`)}
        </ConfirmDialog>
      )}
      {modal?.kind === 'purge' && (
        <ConfirmDialog
          open
          danger
          busy={busy}
          title={tm.purge}
          confirmLabel={tm.purge}
          onClose={() => setModal(null)}
          onConfirm={() => void act(() => purgeMaterial(modal.material.id), tm.purged)}
        >
          {tm.purgeConfirm(`${modal.material.name}.${modal.material.ext}`)}
        </ConfirmDialog>
      )}
      {modal?.kind === 'preview' && (
        <PreviewDialog
          material={modal.material}
          onClose={() => setModal(null)}
          onDownload={() => void download(modal.material)}
        />
      )}
    </Page>
  );
}
