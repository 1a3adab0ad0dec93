import { useEffect, useRef, useState } from 'react';
import { STUDENT_IMPORT_LIMITS, SCHOOL_MESSAGES, type SchoolYearInfo } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { Listbox } from '../../../components/ui/listbox';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import { downloadTemplate, importStudents, useClasses } from '../api/school';

/** The host's message names the row (第3行：…); the table shows the row in its own column. */
function stripRow(message: string, row: number): string {
  const prefix = ts.importDialog.rowLabel(row);
  return message.startsWith(prefix) ? message.slice(prefix.length).replace(/^[：:]\s*/, '') : message;
}

/**
 * Excel import: the template, the year and the class for rows without one, then either every student imported
 * or every broken row listed (nothing is imported then).
 */
export function ImportDialog({
  open,
  years,
  initialYearId,
  onClose,
  onImported,
}: {
  open: boolean;
  years: SchoolYearInfo[];
  initialYearId: string;
  onClose: () => void;
  onImported: () => void;
}) {
  const [yearId, setYearId] = useState(initialYearId);
  const [classId, setClassId] = useState('');
  const [createMissing, setCreateMissing] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [failure, setFailure] = useState<{
    message: string;
    errors: { row: number; message: string }[];
  } | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const { data: classes } = useClasses(yearId || null);

  useEffect(() => {
    if (!open) return;
    setYearId(initialYearId);
    setClassId('');
    setFile(null);
    setFileError(null);
    setFailure(null);
  }, [open, initialYearId]);

  const pick = (f: File | null) => {
    setFailure(null);
    setFileError(null);
    if (!f) return setFile(null);
    if (!/\.xlsx$/i.test(f.name)) {
      setFile(null);
      return setFileError(SCHOOL_MESSAGES.importNotXlsx);
    }
    if (f.size > STUDENT_IMPORT_LIMITS.maxBytes) {
      setFile(null);
      return setFileError(SCHOOL_MESSAGES.importTooLarge);
    }
    setFile(f);
  };

  const submit = async () => {
    if (!file) return setFileError(SCHOOL_MESSAGES.importFile);
    setBusy(true);
    const outcome = await importStudents({ file, yearId, classId, createMissingClasses: createMissing });
    setBusy(false);
    if (outcome.ok) {
      toast.success(
        outcome.createdClasses.length
          ? `${ts.importDialog.done(outcome.imported)}；${ts.importDialog.createdClasses(outcome.createdClasses.join('、'))}`
          : ts.importDialog.done(outcome.imported),
      );
      onImported();
      onClose();
    } else {
      setFailure({ message: outcome.message, errors: outcome.errors });
    }
  };

  const writableYears = years.filter((y) => !y.archived);
  const classOptions = classes ?? [];

  return (
    <LargeDialog
      open={open}
      onClose={onClose}
      title={ts.importDialog.title}
      width="md"
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {ts.cancel}
          </Button>
          <Button loading={busy} disabled={!yearId} onClick={() => void submit()}>
            {ts.importDialog.submit}
          </Button>
        </div>
      }
    >
      <div className="space-y-5">
        <ol className="list-decimal space-y-1.5 rounded-lg bg-slate-50 py-3 pr-4 pl-8 text-sm leading-6 text-slate-600">
          {ts.importDialog.steps.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ol>
        <Button variant="secondary" size="sm" onClick={() => void downloadTemplate(ts.students.templateName)}>
          {ts.students.template}
        </Button>
        <div className="grid gap-4 sm:grid-cols-2">
          <Listbox
            label={ts.importDialog.year}
            value={yearId}
            placeholder={ts.years.pick}
            options={writableYears.map((y) => ({ value: y.id, label: y.name }))}
            onChange={(v) => {
              setYearId(v);
              setClassId('');
              setFailure(null);
            }}
            className="flex-col items-start"
            buttonClassName="w-full"
          />
          <Listbox
            label={ts.importDialog.defaultClass}
            value={classId}
            placeholder={ts.importDialog.noDefaultClass}
            options={[
              { value: '', label: ts.importDialog.noDefaultClass },
              ...classOptions.map((c) => ({ value: c.id, label: c.name })),
            ]}
            onChange={setClassId}
            className="flex-col items-start"
            buttonClassName="w-full"
          />
        </div>
        <Checkbox checked={createMissing} onChange={setCreateMissing}>
          {ts.importDialog.createMissing}
        </Checkbox>
        <div>
          <input
            ref={input}
            type="file"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="sr-only"
            aria-label={ts.importDialog.file}
            onChange={(e) => {
              pick(e.target.files?.[0] ?? null);
              e.target.value = '';
            }}
          />
          <div className="flex flex-wrap items-center gap-3 rounded-lg border border-dashed border-slate-300 p-4">
            <Button variant="secondary" onClick={() => input.current?.click()}>
              {ts.importDialog.file}
            </Button>
            <span className="text-sm text-slate-700">{file ? file.name : ts.importDialog.noFile}</span>
            <span className="w-full text-xs text-slate-500">{ts.importDialog.fileHint}</span>
          </div>
          {fileError && (
            <p role="alert" className="mt-2 text-sm text-red-600">
              {fileError}
            </p>
          )}
        </div>
        {failure && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4">
            <p className="font-medium text-red-700">{failure.message}</p>
            {failure.errors.length > 0 && (
              <div className="mt-3 max-h-64 overflow-auto rounded-md bg-white ring-1 ring-red-100">
                <table className="w-full text-sm">
                  <thead className="sticky top-0 bg-white text-left text-slate-500">
                    <tr>
                      <th scope="col" className="w-24 px-3 py-2 font-medium">
                        {ts.importDialog.row}
                      </th>
                      <th scope="col" className="px-3 py-2 font-medium">
                        {ts.importDialog.message}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-red-50 text-slate-700">
                    {failure.errors.map((e, i) => (
                      <tr key={`${e.row}-${i}`}>
                        <td className="px-3 py-1.5 whitespace-nowrap">{ts.importDialog.rowLabel(e.row)}</td>
                        <td className="px-3 py-1.5">{stripRow(e.message, e.row)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )}
      </div>
    </LargeDialog>
  );
}
