import { useEffect, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { CreateStudentSchema, GenderSchema, type Student } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { TextField } from '../../../components/ui/field';
import { Listbox } from '../../../components/ui/listbox';
import { Pagination } from '../../../components/ui/pagination';
import { Segmented } from '../../../components/ui/segmented';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table } from '../../../components/ui/table';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import {
  STUDENT_PAGE_SIZE,
  createStudent,
  downloadTemplate,
  exportClass,
  moveStudents,
  updateStudent,
  useClasses,
  useRevalidateSchool,
  useStudents,
  useYears,
  type StudentFilters,
  type StudentInput,
} from '../api/school';
import { ImportDialog } from './import-dialog';

type Gender = '' | z.infer<typeof GenderSchema>;

function StudentDialog({
  open,
  student,
  classId,
  onClose,
  onSaved,
}: {
  open: boolean;
  student: Student | null;
  classId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState('');
  const [studentNo, setStudentNo] = useState('');
  const [gender, setGender] = useState<Gender>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setName(student?.name ?? '');
    setStudentNo(student?.studentNo ?? '');
    setGender(student?.gender ?? '');
    setErrors({});
  }, [open, student]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input: StudentInput = { name, studentNo, gender: gender || null };
    const parsed = CreateStudentSchema.safeParse({ classId: classId || 'x', ...input });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setBusy(true);
    try {
      if (student) {
        await updateStudent(student.id, input);
        toast.success(ts.students.saved);
      } else {
        const s = await createStudent(classId, input);
        toast.success(ts.students.created(s.name));
      }
      onSaved();
      onClose();
    } catch {
      // Shown by the client (e.g. 学号已存在).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title={student ? ts.students.editTitle : ts.students.addTitle}>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label={ts.students.name}
          value={name}
          maxLength={20}
          error={errors.name}
          autoFocus
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          label={ts.students.studentNo}
          value={studentNo}
          maxLength={32}
          error={errors.studentNo}
          onChange={(e) => setStudentNo(e.target.value)}
        />
        <Segmented<Gender>
          label={ts.students.gender}
          value={gender}
          options={[
            { value: '', label: ts.students.genderNone },
            ...GenderSchema.options.map((g) => ({ value: g, label: g })),
          ]}
          onChange={setGender}
        />
        <DialogActions onCancel={onClose} busy={busy} submitLabel={ts.save} />
      </form>
    </Dialog>
  );
}

/** Students of a year: filter by class or keyword, add, edit, move between classes, import and export Excel. */
export function StudentsPanel({
  orgId,
  canManage,
  focus,
}: {
  orgId: string;
  canManage: boolean;
  /** A year and class chosen elsewhere (the classes table's 查看学生). */
  focus: { yearId: string; classId: string } | null;
}) {
  const { data: years } = useYears(orgId, true);
  const [f, setF] = useState<StudentFilters>({ yearId: '', classId: '', keyword: '', page: 1 });
  const [keyword, setKeyword] = useState('');
  const yearList = years ?? [];
  const fallbackYear = (yearList.find((y) => y.isDefault && !y.archived) ?? yearList[0])?.id ?? '';
  const yearId = f.yearId || fallbackYear;
  const filters = { ...f, yearId };
  const year = yearList.find((y) => y.id === yearId) ?? null;
  const { data: classes } = useClasses(yearId || null);
  const { data, isLoading } = useStudents(orgId, filters);
  const revalidate = useRevalidateSchool();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<Student | 'new' | null>(null);
  const [moving, setMoving] = useState(false);
  const [target, setTarget] = useState('');
  const [importing, setImporting] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (focus) setF({ yearId: focus.yearId, classId: focus.classId, keyword: '', page: 1 });
  }, [focus]);
  useEffect(() => setSelected(new Set()), [f.yearId, f.classId, f.keyword, f.page]);

  const writable = canManage && !!year && !year.archived;
  const rows = data?.records ?? [];
  const klass = (classes ?? []).find((c) => c.id === f.classId) ?? null;
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const doMove = async () => {
    if (!target) return;
    setBusy(true);
    try {
      const r = await moveStudents([...selected], target);
      if (r.moved.length) toast.success(ts.students.moved(r.moved.length));
      if (r.failed.length)
        toast.error(
          `${ts.students.moveFailed(r.failed.length)}：${r.failed.map((x) => x.message).join('；')}`,
        );
      setMoving(false);
      setSelected(new Set());
      revalidate();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  if (years && yearList.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300">
        <Empty title={ts.students.noYear} />
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <Listbox
          label={ts.students.year}
          value={yearId}
          placeholder={ts.years.pick}
          options={yearList.map((y) => ({
            value: y.id,
            label: y.archived
              ? `${y.name}（${y.graduated ? ts.years.graduated : ts.years.archived}）`
              : y.name,
          }))}
          onChange={(v) => setF({ yearId: v, classId: '', keyword: f.keyword, page: 1 })}
        />
        <Listbox
          label={ts.students.class}
          value={f.classId}
          placeholder={ts.students.allClasses}
          options={[
            { value: '', label: ts.students.allClasses },
            ...(classes ?? []).map((c) => ({ value: c.id, label: `${c.name}（${c.studentCount}）` })),
          ]}
          onChange={(v) => setF({ ...f, yearId, classId: v, page: 1 })}
        />
        <form
          role="search"
          className="flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setF({ ...f, yearId, keyword, page: 1 });
          }}
        >
          <label htmlFor="student-keyword" className="text-sm text-slate-500">
            {ts.students.keyword}
          </label>
          <input
            id="student-keyword"
            type="search"
            value={keyword}
            placeholder={ts.students.keywordPlaceholder}
            onChange={(e) => setKeyword(e.target.value)}
            className="h-9 w-40 rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:outline-none"
          />
        </form>
        <div className="ml-auto flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void downloadTemplate(ts.students.templateName)}
          >
            {ts.students.template}
          </Button>
          {klass && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void exportClass(klass.id, ts.students.exportName(klass.name))}
            >
              {ts.students.export}
            </Button>
          )}
          {writable && (
            <>
              <Button variant="secondary" size="sm" onClick={() => setImporting(true)}>
                {ts.students.import}
              </Button>
              <Button
                size="sm"
                disabled={!f.classId}
                title={f.classId ? undefined : ts.students.pickClassFirst}
                onClick={() => setEditing('new')}
              >
                {ts.students.add}
              </Button>
            </>
          )}
        </div>
      </div>

      {writable && selected.size > 0 && (
        <div className="flex items-center gap-3 rounded-lg bg-blue-50 px-4 py-2 text-sm text-blue-800">
          <span>{ts.students.selected(selected.size)}</span>
          <Button size="sm" onClick={() => setMoving(true)}>
            {ts.students.move}
          </Button>
        </div>
      )}

      {isLoading && !data ? (
        <Skeleton className="h-64" />
      ) : (
        <Table
          caption={ts.tabs.students}
          rows={rows}
          rowKey={(s) => s.id}
          dense
          empty={
            <div className="py-8">
              <p className="text-slate-600">{ts.students.empty}</p>
              {writable && <p className="mt-1 text-xs">{ts.students.emptyHint}</p>}
            </div>
          }
          columns={[
            ...(writable
              ? [
                  {
                    key: 'select',
                    header: (
                      <input
                        type="checkbox"
                        aria-label={ts.students.selectAll}
                        checked={allOnPage}
                        onChange={() => setSelected(allOnPage ? new Set() : new Set(rows.map((r) => r.id)))}
                        className="size-4 accent-blue-600"
                      />
                    ),
                    className: 'w-10',
                    cell: (s: Student) => (
                      <input
                        type="checkbox"
                        aria-label={ts.students.select(s.name)}
                        checked={selected.has(s.id)}
                        onChange={() => toggle(s.id)}
                        className="size-4 accent-blue-600"
                      />
                    ),
                  },
                ]
              : []),
            {
              key: 'name',
              header: ts.students.name,
              cell: (s) => <span className="font-medium">{s.name}</span>,
            },
            {
              key: 'no',
              header: ts.students.studentNo,
              cell: (s) => <span className="tabular-nums">{s.studentNo}</span>,
            },
            { key: 'gender', header: ts.students.gender, cell: (s) => s.gender ?? '—' },
            { key: 'class', header: ts.students.class, cell: (s) => s.className },
            {
              key: 'status',
              header: ts.students.status,
              cell: (s) =>
                s.graduated ? (
                  <span className="text-amber-700">{ts.students.graduated}</span>
                ) : (
                  <span className="text-slate-500">—</span>
                ),
            },
            ...(writable
              ? [
                  {
                    key: 'actions',
                    header: <span className="sr-only">{ts.students.actions}</span>,
                    align: 'right' as const,
                    cell: (s: Student) => (
                      <Button
                        variant="link"
                        size="sm"
                        onClick={() => setEditing(s)}
                        aria-label={`${ts.students.edit} ${s.name}`}
                      >
                        {ts.students.edit}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {data && (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-500">
          <span>{ts.students.total(data.total)}</span>
          <Pagination
            page={f.page}
            total={data.total}
            size={STUDENT_PAGE_SIZE}
            onChange={(page) => setF({ ...f, yearId, page })}
          />
        </div>
      )}

      <StudentDialog
        open={editing !== null}
        student={editing === 'new' ? null : editing}
        classId={f.classId}
        onClose={() => setEditing(null)}
        onSaved={revalidate}
      />
      <Dialog open={moving} onClose={() => setMoving(false)} title={ts.students.moveTitle(selected.size)}>
        <Listbox
          label={ts.students.moveTarget}
          value={target}
          placeholder={ts.students.pickClass}
          options={(classes ?? []).map((c) => ({ value: c.id, label: c.name }))}
          onChange={setTarget}
        />
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setMoving(false)}>
            {ts.cancel}
          </Button>
          <Button disabled={!target} loading={busy} onClick={() => void doMove()}>
            {ts.students.moveConfirm}
          </Button>
        </div>
      </Dialog>
      {year && (
        <ImportDialog
          open={importing}
          years={yearList}
          initialYearId={year.id}
          onClose={() => setImporting(false)}
          onImported={revalidate}
        />
      )}
    </div>
  );
}
