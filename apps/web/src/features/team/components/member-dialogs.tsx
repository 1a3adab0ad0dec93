import { useEffect, useState } from 'react';
import { GRADES, type Grade, type Member } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { Listbox } from '../../../components/ui/listbox';
import { Skeleton } from '../../../components/ui/skeleton';
import { zhCNSchool as ts } from '../../../i18n/school';
import { useBusy } from '../../../lib/use-busy';
import { cn } from '../../../lib/utils';
import { useSchoolSubjects } from '../../../api/school';
import { setMemberRoles, setMemberTeaching, useTeachableClasses } from '../api/team';
import { saved } from './saved';

function Chip({ on, label, onToggle }: { on: boolean; label: string; onToggle: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={onToggle}
      className={cn(
        'rounded-md border px-2.5 py-1 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
        on
          ? 'border-blue-500 bg-blue-50 text-blue-700'
          : 'border-slate-200 text-slate-600 hover:border-slate-300',
      )}
    >
      {label}
    </button>
  );
}

/** Administrator and grade-director roles of one member (the creator is always an administrator). */
export function RolesDialog({
  member,
  onClose,
  onSaved,
}: {
  member: Member | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [admin, setAdmin] = useState(false);
  const [grades, setGrades] = useState<Set<Grade>>(new Set());
  const [busy, run] = useBusy();
  useEffect(() => {
    if (!member) return;
    setAdmin(member.isAdministrator);
    setGrades(new Set(member.grades as Grade[]));
  }, [member]);
  const save = async () => {
    if (!member) return;
    if (await run(() => setMemberRoles(member.memberId, admin, [...grades])))
      saved(ts.members.rolesSaved, onSaved, onClose);
  };
  return (
    <LargeDialog
      open={member !== null}
      onClose={onClose}
      width="md"
      title={member ? ts.members.rolesTitle(member.nickname) : ''}
      footer={
        <DialogActions onCancel={onClose} busy={busy} submitLabel={ts.save} onSubmit={() => void save()} />
      }
    >
      <div className="space-y-5">
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={admin}
            disabled={member?.isCreator}
            onChange={(e) => setAdmin(e.target.checked)}
            className="size-4 accent-blue-600"
          />
          {ts.members.isAdministrator}
        </label>
        {member?.isCreator && <p className="-mt-3 text-xs text-slate-500">{ts.members.creatorAlways}</p>}
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-700">{ts.members.directorOf}</legend>
          <div className="flex flex-wrap gap-2">
            {GRADES.map((g) => (
              <Chip
                key={g}
                label={g}
                on={grades.has(g)}
                onToggle={() =>
                  setGrades((s) => {
                    const next = new Set(s);
                    if (next.has(g)) next.delete(g);
                    else next.add(g);
                    return next;
                  })
                }
              />
            ))}
          </div>
        </fieldset>
      </div>
    </LargeDialog>
  );
}

interface Row {
  key: number;
  subjectId: string;
  classIds: Set<string>;
}

/** Subjects a member teaches and, per subject, the classes. */
export function TeachingDialog({
  orgId,
  member,
  onClose,
  onSaved,
}: {
  orgId: string;
  member: Member | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const open = member !== null;
  const { data: subjects } = useSchoolSubjects(orgId, open);
  const { data: years } = useTeachableClasses(orgId, open);
  const [rows, setRows] = useState<Row[]>([]);
  const [busy, run] = useBusy();
  useEffect(() => {
    if (!member) return;
    setRows(
      member.teaching.map((t, i) => ({
        key: i,
        subjectId: t.subjectId,
        classIds: new Set(t.classes.map((c) => c.id)),
      })),
    );
  }, [member]);

  const subjectOptions = (subjects ?? []).flatMap((stage) =>
    stage.subjects
      .filter((s) => s.offered)
      .map((s) => ({ value: s.id, label: `${stage.stageName}${s.name}` })),
  );
  const update = (key: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const save = async () => {
    if (!member) return;
    const teaching = rows
      .filter((r) => r.subjectId)
      .map((r) => ({ subjectId: r.subjectId, classIds: [...r.classIds] }));
    if (await run(() => setMemberTeaching(member.memberId, teaching)))
      saved(ts.members.teachingSaved, onSaved, onClose);
  };

  return (
    <LargeDialog
      open={open}
      onClose={onClose}
      width="lg"
      title={member ? ts.members.teachingTitle(member.nickname) : ''}
      footer={
        <DialogActions onCancel={onClose} busy={busy} submitLabel={ts.save} onSubmit={() => void save()} />
      }
    >
      {!subjects || !years ? (
        <Skeleton className="h-40" />
      ) : (
        <div className="space-y-4">
          {rows.map((row) => (
            <div key={row.key} className="rounded-lg border border-slate-200 p-4">
              <div className="flex items-center justify-between gap-3">
                <Listbox
                  label={ts.members.subject}
                  value={row.subjectId}
                  placeholder={ts.members.subjectPlaceholder}
                  options={subjectOptions}
                  onChange={(subjectId) => update(row.key, { subjectId })}
                />
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-600! hover:bg-red-50"
                  onClick={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}
                >
                  {ts.members.removeSubject}
                </Button>
              </div>
              <div className="mt-3 space-y-2">
                <p className="text-sm text-slate-500">{ts.members.classes}</p>
                {years.length === 0 && <p className="text-sm text-slate-500">{ts.members.noYear}</p>}
                {years.map(({ year, classes }) => (
                  <div key={year.id} className="flex flex-wrap items-center gap-2">
                    <span className="w-32 shrink-0 truncate text-xs text-slate-500">{year.name}</span>
                    {classes.map((c) => (
                      <Chip
                        key={c.id}
                        label={c.name}
                        on={row.classIds.has(c.id)}
                        onToggle={() => {
                          const next = new Set(row.classIds);
                          if (next.has(c.id)) next.delete(c.id);
                          else next.add(c.id);
                          update(row.key, { classIds: next });
                        }}
                      />
                    ))}
                  </div>
                ))}
              </div>
            </div>
          ))}
          <Button
            variant="secondary"
            size="sm"
            onClick={() =>
              setRows((rs) => [
                ...rs,
                { key: Math.max(0, ...rs.map((r) => r.key)) + 1, subjectId: '', classIds: new Set() },
              ])
            }
          >
            {ts.members.addSubject}
          </Button>
        </div>
      )}
    </LargeDialog>
  );
}
