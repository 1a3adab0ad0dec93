import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { SCHOOL_MESSAGES, type ClassInfo, type SchoolYearInfo } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { TextField } from '../../../components/ui/field';
import { GradePicker } from '../../../components/ui/grade-picker';
import { Menu } from '../../../components/ui/menu';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table } from '../../../components/ui/table';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import {
  archiveYear,
  createClass,
  createYear,
  deleteClass,
  graduateYear,
  refreshUser,
  renameYear,
  setDefaultYear,
  updateClass,
  useClasses,
  useRevalidateSchool,
  useYears,
} from '../api/school';

/** Runs a write; the client already toasted a failure, so this only reports success. */
async function run<T>(work: () => Promise<T>, done?: (value: T) => void): Promise<boolean> {
  try {
    const value = await work();
    done?.(value);
    return true;
  } catch {
    return false;
  }
}

function Badge({ tone, children }: { tone: 'blue' | 'slate' | 'amber'; children: string }) {
  const tones = {
    blue: 'bg-blue-50 text-blue-700 ring-blue-200',
    slate: 'bg-slate-100 text-slate-600 ring-slate-200',
    amber: 'bg-amber-50 text-amber-800 ring-amber-200',
  };
  return (
    <span className={cn('rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', tones[tone])}>
      {children}
    </span>
  );
}

/** A dialog around a required name (30 characters) and any further fields; closes when `onSubmit` succeeds. */
function NameDialog({
  open,
  title,
  label,
  placeholder,
  initial,
  required,
  onClose,
  onSubmit,
  children,
}: {
  open: boolean;
  title: string;
  label: string;
  placeholder: string;
  initial: string;
  /** The message when the name is left empty. */
  required: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<boolean>;
  /** Further fields under the name (their state is the caller's). */
  children?: ReactNode;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setName(initial);
      setError(null);
    }
  }, [open, initial]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(required);
      return;
    }
    setBusy(true);
    const ok = await onSubmit(name.trim());
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label={label}
          placeholder={placeholder}
          value={name}
          maxLength={30}
          error={error}
          autoFocus
          onChange={(e) => setName(e.target.value)}
        />
        {children}
        <DialogActions onCancel={onClose} busy={busy} submitLabel={ts.save} />
      </form>
    </Dialog>
  );
}

/** A school year's name (new year, rename); a new year may become the default at once. */
function YearDialog({
  open,
  title,
  initial,
  withDefault,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  initial: string;
  withDefault?: boolean;
  onClose: () => void;
  onSubmit: (name: string, isDefault: boolean) => Promise<boolean>;
}) {
  const [isDefault, setIsDefault] = useState(false);
  useEffect(() => {
    if (open) setIsDefault(false);
  }, [open]);
  return (
    <NameDialog
      open={open}
      title={title}
      label={ts.years.name}
      placeholder={ts.years.namePlaceholder}
      initial={initial}
      required={SCHOOL_MESSAGES.yearNameRequired}
      onClose={onClose}
      onSubmit={(name) => onSubmit(name, isDefault)}
    >
      {withDefault && (
        <Checkbox checked={isDefault} onChange={setIsDefault}>
          {ts.years.makeDefault}
        </Checkbox>
      )}
    </NameDialog>
  );
}

/** A class's name and grade (new class, edit). */
function ClassDialog({
  open,
  klass,
  onClose,
  onSubmit,
}: {
  open: boolean;
  klass: ClassInfo | null;
  onClose: () => void;
  onSubmit: (name: string, grade: string | null) => Promise<boolean>;
}) {
  const [grade, setGrade] = useState('');
  useEffect(() => {
    if (open) setGrade(klass?.grade ?? '');
  }, [open, klass]);
  return (
    <NameDialog
      open={open}
      title={klass ? ts.classes.edit : ts.classes.add}
      label={ts.classes.name}
      placeholder={ts.classes.namePlaceholder}
      initial={klass?.name ?? ''}
      required={SCHOOL_MESSAGES.classNameRequired}
      onClose={onClose}
      onSubmit={(name) => onSubmit(name, grade || null)}
    >
      <GradePicker
        label={ts.classes.grade}
        value={grade}
        placeholder={ts.classes.gradePlaceholder}
        noneLabel={klass ? ts.classes.gradeNone : ts.classes.gradePlaceholder}
        onChange={setGrade}
      />
    </NameDialog>
  );
}

function ClassesOfYear({
  year,
  canManage,
  onShowStudents,
}: {
  year: SchoolYearInfo;
  canManage: boolean;
  onShowStudents: (yearId: string, classId: string) => void;
}) {
  const { data: classes, isLoading } = useClasses(year.id);
  const revalidate = useRevalidateSchool();
  const [editing, setEditing] = useState<ClassInfo | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ClassInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const writable = canManage && !year.archived;

  return (
    <section aria-label={ts.classes.title(year.name)} className="min-w-0 flex-1">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">{ts.classes.title(year.name)}</h3>
        {writable && (
          <Button size="sm" onClick={() => setEditing('new')}>
            {ts.classes.add}
          </Button>
        )}
        {canManage && year.archived && <p className="text-sm text-slate-500">{ts.classes.frozen}</p>}
      </div>
      {isLoading ? (
        <Skeleton className="h-40" />
      ) : (
        <Table
          caption={ts.classes.title(year.name)}
          rows={classes ?? []}
          rowKey={(c) => c.id}
          empty={
            <div className="py-6">
              <p className="text-slate-600">{ts.classes.empty}</p>
              <p className="mt-1 text-xs">{ts.classes.emptyHint}</p>
            </div>
          }
          columns={[
            {
              key: 'name',
              header: ts.classes.name,
              cell: (c) => <span className="font-medium">{c.name}</span>,
            },
            { key: 'grade', header: ts.classes.grade, cell: (c) => c.grade ?? '—' },
            { key: 'stage', header: ts.classes.stage, cell: (c) => c.stageName },
            { key: 'count', header: ts.classes.students, align: 'right', cell: (c) => c.studentCount },
            {
              key: 'actions',
              header: <span className="sr-only">{ts.students.actions}</span>,
              align: 'right',
              cell: (c) => (
                <div className="flex justify-end gap-1">
                  <Button variant="link" size="sm" onClick={() => onShowStudents(year.id, c.id)}>
                    {ts.classes.viewStudents}
                  </Button>
                  {writable && (
                    <>
                      <Button variant="ghost" size="sm" onClick={() => setEditing(c)}>
                        {ts.edit}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-red-600! hover:bg-red-50"
                        onClick={() => setDeleting(c)}
                      >
                        {ts.classes.delete}
                      </Button>
                    </>
                  )}
                </div>
              ),
            },
          ]}
        />
      )}
      <ClassDialog
        open={editing !== null}
        klass={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSubmit={(name, grade) =>
          editing === 'new'
            ? run(
                () => createClass(year.id, name, grade),
                (c) => {
                  toast.success(ts.classes.created(c.name));
                  revalidate();
                },
              )
            : run(
                () => updateClass((editing as ClassInfo).id, name, grade),
                () => {
                  toast.success(ts.classes.saved);
                  revalidate();
                },
              )
        }
      />
      <ConfirmDialog
        open={deleting !== null}
        title={ts.classes.deleteTitle}
        confirmLabel={ts.classes.delete}
        danger
        busy={busy}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          setBusy(true);
          void run(
            () => deleteClass(deleting.id),
            () => {
              toast.success(ts.classes.deleted);
              revalidate();
            },
          ).then(() => {
            setBusy(false);
            setDeleting(null);
          });
        }}
      >
        {deleting && ts.classes.deleteBody(deleting.name)}
      </ConfirmDialog>
    </section>
  );
}

/** School years (create, default, rename, archive, graduate) on the left, the chosen year's classes on the right. */
export function YearsPanel({
  orgId,
  canManage,
  onShowStudents,
}: {
  orgId: string;
  canManage: boolean;
  onShowStudents: (yearId: string, classId: string) => void;
}) {
  const [showArchived, setShowArchived] = useState(false);
  const { data: years, isLoading } = useYears(orgId, showArchived);
  const revalidate = useRevalidateSchool();
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<SchoolYearInfo | null>(null);
  const [graduating, setGraduating] = useState<SchoolYearInfo | null>(null);
  const [busy, setBusy] = useState(false);

  const list = years ?? [];
  const current = list.find((y) => y.id === selected) ?? list.find((y) => y.isDefault) ?? list[0] ?? null;

  const afterYearChange = () => {
    revalidate();
    // The top bar's year dropdown and the user's default year follow the school's default.
    void refreshUser();
  };

  return (
    <div className="flex flex-col gap-6 lg:flex-row">
      <section aria-label={ts.years.title} className="w-full shrink-0 lg:w-80">
        <div className="mb-3 flex items-center justify-between">
          <h3 className="text-base font-semibold text-slate-900">{ts.years.title}</h3>
          {canManage && (
            <Button size="sm" onClick={() => setCreating(true)}>
              {ts.years.add}
            </Button>
          )}
        </div>
        <label className="mb-3 flex items-center gap-2 text-sm text-slate-500">
          <input
            type="checkbox"
            checked={showArchived}
            onChange={(e) => setShowArchived(e.target.checked)}
            className="size-4 accent-blue-600"
          />
          {ts.years.showArchived}
        </label>
        {isLoading ? (
          <Skeleton className="h-32" />
        ) : list.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300">
            <Empty title={ts.years.empty} description={ts.years.emptyHint} className="py-8" />
          </div>
        ) : (
          <ul className="space-y-2" aria-label={ts.years.pick}>
            {list.map((y) => {
              const on = current?.id === y.id;
              return (
                <li
                  key={y.id}
                  className={cn(
                    'flex items-start gap-2 rounded-lg border bg-white p-3 transition-colors',
                    on ? 'border-blue-500 ring-1 ring-blue-500' : 'border-slate-200 hover:border-slate-300',
                  )}
                >
                  <button
                    type="button"
                    aria-pressed={on}
                    onClick={() => setSelected(y.id)}
                    className="min-w-0 flex-1 text-left focus-visible:outline-2 focus-visible:outline-blue-600"
                  >
                    <span className="flex flex-wrap items-center gap-1.5">
                      <span className="truncate font-medium text-slate-900">{y.name}</span>
                      {y.isDefault && <Badge tone="blue">{ts.years.isDefault}</Badge>}
                      {y.graduated ? (
                        <Badge tone="amber">{ts.years.graduated}</Badge>
                      ) : (
                        y.archived && <Badge tone="slate">{ts.years.archived}</Badge>
                      )}
                    </span>
                    <span className="mt-1 block text-xs text-slate-500">
                      {ts.years.stats(y.classCount, y.studentCount)}
                    </span>
                  </button>
                  {canManage && (
                    <Menu
                      label={`${ts.years.actions}：${y.name}`}
                      buttonClassName="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700"
                      button={<span aria-hidden="true">⋯</span>}
                      items={[
                        ...(!y.isDefault && !y.archived
                          ? [
                              {
                                kind: 'action' as const,
                                label: ts.years.setDefault,
                                onSelect: () =>
                                  void run(
                                    () => setDefaultYear(y.id),
                                    () => {
                                      toast.success(ts.years.defaultSet(y.name));
                                      afterYearChange();
                                    },
                                  ),
                              },
                            ]
                          : []),
                        ...(!y.graduated
                          ? [
                              {
                                kind: 'action' as const,
                                label: ts.years.rename,
                                onSelect: () => setRenaming(y),
                              },
                              {
                                kind: 'action' as const,
                                label: y.archived ? ts.years.restore : ts.years.archive,
                                onSelect: () =>
                                  void run(
                                    () => archiveYear(y.id, !y.archived),
                                    () => {
                                      toast.success(
                                        y.archived
                                          ? ts.years.restoredDone(y.name)
                                          : ts.years.archivedDone(y.name),
                                      );
                                      afterYearChange();
                                    },
                                  ),
                              },
                              {
                                kind: 'action' as const,
                                label: ts.years.graduate,
                                danger: true,
                                onSelect: () => setGraduating(y),
                              },
                            ]
                          : []),
                      ]}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {current && <ClassesOfYear year={current} canManage={canManage} onShowStudents={onShowStudents} />}

      <YearDialog
        open={creating}
        title={ts.years.add}
        initial=""
        withDefault
        onClose={() => setCreating(false)}
        onSubmit={(name, isDefault) =>
          run(
            () => createYear(orgId, name, isDefault),
            (y) => {
              toast.success(ts.years.created(y.name));
              setSelected(y.id);
              afterYearChange();
            },
          )
        }
      />
      <YearDialog
        open={renaming !== null}
        title={ts.years.rename}
        initial={renaming?.name ?? ''}
        onClose={() => setRenaming(null)}
        onSubmit={(name) =>
          run(
            () => renameYear(renaming!.id, name),
            () => {
              toast.success(ts.years.renamed);
              afterYearChange();
            },
          )
        }
      />
      <ConfirmDialog
        open={graduating !== null}
        title={ts.years.graduateTitle}
        confirmLabel={ts.years.graduateConfirm}
        danger
        busy={busy}
        onClose={() => setGraduating(null)}
        onConfirm={() => {
          if (!graduating) return;
          setBusy(true);
          void run(
            () => graduateYear(graduating.id),
            (r) => {
              toast.success(ts.years.graduatedDone(r.graduatedStudents));
              afterYearChange();
            },
          ).then(() => {
            setBusy(false);
            setGraduating(null);
          });
        }}
      >
        {graduating && ts.years.graduateBody(graduating.name)}
      </ConfirmDialog>
    </div>
  );
}
