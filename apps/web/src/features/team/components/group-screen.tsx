import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  GROUP_KINDS,
  GROUP_KIND_NAMES,
  SCHOOL_MESSAGES,
  type Grade,
  type Group,
  type GroupKind,
} from '@zhzy/contracts';
import { ChevronLeftIcon } from '../../../components/icons';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { TextField } from '../../../components/ui/field';
import { GradePicker } from '../../../components/ui/grade-picker';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { Listbox } from '../../../components/ui/listbox';
import { Segmented } from '../../../components/ui/segmented';
import { Skeleton } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import { useBusy } from '../../../lib/use-busy';
import { cn } from '../../../lib/utils';
import { useSchoolDetail, useSchoolMembers, useSchoolSubjects } from '../../../api/school';
import {
  createGroup,
  deleteGroup,
  setGroupMembers,
  updateGroup,
  useGroups,
  useRevalidateTeam,
  type GroupInput,
} from '../api/team';
import { Avatar } from './member-screen';
import { saved } from './saved';

function GroupDialog({
  orgId,
  group,
  open,
  onClose,
  onSaved,
}: {
  orgId: string;
  group: Group | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { data: subjects } = useSchoolSubjects(orgId, open);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<GroupKind>('research');
  const [subjectId, setSubjectId] = useState('');
  const [grade, setGrade] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setName(group?.name ?? '');
    setKind(group?.kind ?? 'research');
    setSubjectId(group?.subjectId ?? '');
    setGrade(group?.grade ?? '');
    setError(null);
  }, [open, group]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError(SCHOOL_MESSAGES.groupNameRequired);
    const input: GroupInput = {
      name: name.trim(),
      kind,
      subjectId: subjectId || null,
      grade: kind === 'preparation' ? ((grade || null) as Grade | null) : null,
    };
    setBusy(true);
    try {
      if (group) {
        await updateGroup(group.id, input);
        toast.success(ts.groups.saved);
      } else {
        const g = await createGroup(orgId, input);
        toast.success(ts.groups.created(g.name));
      }
      onSaved();
      onClose();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };
  const subjectOptions = (subjects ?? []).flatMap((stage) =>
    stage.subjects
      .filter((s) => s.offered)
      .map((s) => ({ value: s.id, label: `${stage.stageName}${s.name}` })),
  );
  return (
    <Dialog open={open} onClose={onClose} title={group ? ts.groups.editTitle : ts.groups.createTitle}>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <div className="space-y-1.5">
          <Segmented<GroupKind>
            label={ts.groups.kind}
            value={kind}
            options={GROUP_KINDS.map((k) => ({ value: k, label: GROUP_KIND_NAMES[k] }))}
            onChange={setKind}
          />
          <p className="text-xs text-slate-500">{ts.groups.kindHint}</p>
        </div>
        <TextField
          label={ts.groups.name}
          placeholder={ts.groups.namePlaceholder}
          value={name}
          maxLength={30}
          error={error}
          autoFocus
          onChange={(e) => setName(e.target.value)}
        />
        <Listbox
          label={ts.groups.subject}
          value={subjectId}
          placeholder={ts.groups.subjectNone}
          options={[{ value: '', label: ts.groups.subjectNone }, ...subjectOptions]}
          onChange={setSubjectId}
        />
        {kind === 'preparation' && (
          <GradePicker
            label={ts.groups.grade}
            value={grade}
            placeholder={ts.groups.gradeNone}
            noneLabel={ts.groups.gradeNone}
            onChange={setGrade}
          />
        )}
        <DialogActions onCancel={onClose} busy={busy} submitLabel={ts.save} />
      </form>
    </Dialog>
  );
}

function MembersDialog({
  orgId,
  group,
  onClose,
  onSaved,
}: {
  orgId: string;
  group: Group | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { data: members } = useSchoolMembers(orgId, '', '', group !== null);
  const [chosen, setChosen] = useState<Map<string, boolean>>(new Map());
  const [filter, setFilter] = useState('');
  const [busy, run] = useBusy();
  useEffect(() => {
    if (group) setChosen(new Map(group.members.map((m) => [m.memberId, m.isLeader])));
    setFilter('');
  }, [group]);
  const save = async () => {
    if (!group) return;
    const members = [...chosen].map(([memberId, isLeader]) => ({ memberId, isLeader }));
    if (await run(() => setGroupMembers(group.id, members))) saved(ts.groups.membersSaved, onSaved, onClose);
  };
  const shown = (members ?? []).filter(
    (m) => !filter.trim() || m.nickname.includes(filter.trim()) || m.username.includes(filter.trim()),
  );
  return (
    <LargeDialog
      open={group !== null}
      onClose={onClose}
      width="md"
      title={group ? ts.groups.membersTitle(group.name) : ''}
      footer={
        <div className="flex items-center justify-between gap-2">
          <span className="text-sm text-slate-500">{ts.groups.memberCount(chosen.size)}</span>
          <DialogActions onCancel={onClose} busy={busy} submitLabel={ts.save} onSubmit={() => void save()} />
        </div>
      }
    >
      <input
        type="search"
        value={filter}
        aria-label={ts.groups.filterMembers}
        placeholder={ts.members.keywordPlaceholder}
        onChange={(e) => setFilter(e.target.value)}
        className="mb-3 h-9 w-full rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:outline-none"
      />
      {!members ? (
        <Skeleton className="h-48" />
      ) : (
        <ul className="divide-y divide-slate-100">
          {shown.map((m) => {
            const inGroup = chosen.has(m.memberId);
            return (
              <li key={m.memberId} className="flex items-center gap-3 py-2">
                <input
                  type="checkbox"
                  aria-label={m.nickname}
                  checked={inGroup}
                  onChange={() =>
                    setChosen((c) => {
                      const next = new Map(c);
                      if (next.has(m.memberId)) next.delete(m.memberId);
                      else next.set(m.memberId, false);
                      return next;
                    })
                  }
                  className="size-4 accent-blue-600"
                />
                <Avatar src={m.avatar} name={m.nickname} />
                <span className="min-w-0 flex-1">
                  <span className="block text-sm text-slate-800">{m.nickname}</span>
                  <span className="block text-xs text-slate-500">{m.username}</span>
                </span>
                <label
                  className={cn(
                    'flex items-center gap-1.5 text-sm',
                    inGroup ? 'text-slate-700' : 'text-slate-300',
                  )}
                >
                  <input
                    type="checkbox"
                    disabled={!inGroup}
                    checked={chosen.get(m.memberId) === true}
                    onChange={(e) => setChosen((c) => new Map(c).set(m.memberId, e.target.checked))}
                    className="size-4 accent-blue-600"
                  />
                  {ts.groups.isLeader}
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </LargeDialog>
  );
}

function GroupCard({
  group,
  canManage,
  onEdit,
  onMembers,
  onDelete,
}: {
  group: Group;
  canManage: boolean;
  onEdit: () => void;
  onMembers: () => void;
  onDelete: () => void;
}) {
  const others = group.members.filter((m) => !m.isLeader);
  return (
    <article
      aria-label={group.name}
      className="flex flex-col rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-slate-900">{group.name}</h2>
          <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-500">
            <span
              className={cn(
                'rounded px-1.5 py-0.5 font-medium',
                group.kind === 'research' ? 'bg-violet-50 text-violet-700' : 'bg-teal-50 text-teal-700',
              )}
            >
              {group.kindName}
            </span>
            {[group.subjectName, group.grade].filter(Boolean).join(' · ')}
          </p>
        </div>
        <div className="flex shrink-0 gap-1">
          {group.amLeader ? (
            <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-800">
              {ts.groups.amLeader}
            </span>
          ) : (
            group.mine && (
              <span className="rounded-full bg-blue-50 px-2 py-0.5 text-xs text-blue-700">
                {ts.groups.mine}
              </span>
            )
          )}
        </div>
      </div>
      <div className="mt-4">
        <p className="text-xs text-slate-500">{ts.groups.leaders}</p>
        <div className="mt-1.5 flex flex-wrap gap-2">
          {group.leaders.length ? (
            group.leaders.map((m) => (
              <span key={m.memberId} className="flex items-center gap-1.5 text-sm text-slate-800">
                <Avatar src={m.avatar} name={m.nickname} />
                {m.nickname}
              </span>
            ))
          ) : (
            <span className="text-sm text-slate-500">{ts.groups.noLeader}</span>
          )}
        </div>
      </div>
      <div className="mt-4 flex-1">
        <p className="text-xs text-slate-500">
          {ts.groups.members} · {ts.groups.memberCount(group.memberCount)}
        </p>
        <p className="mt-1.5 text-sm leading-6 text-slate-700">
          {others.map((m) => m.nickname).join('、') ||
            (group.memberCount > 0 ? <span className="text-slate-500">{ts.groups.onlyLeaders}</span> : '—')}
        </p>
      </div>
      {canManage && (
        <div className="mt-4 flex gap-1 border-t border-slate-100 pt-3">
          <Button variant="ghost" size="sm" onClick={onMembers}>
            {ts.groups.editMembers}
          </Button>
          <Button variant="ghost" size="sm" onClick={onEdit}>
            {ts.edit}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto text-red-600! hover:bg-red-50"
            onClick={onDelete}
          >
            {ts.groups.delete}
          </Button>
        </div>
      )}
    </article>
  );
}

/**
 * /team/group (shown without the top nav, SPEC §2): the teaching groups. Members see their own groups;
 * administrators see every group and create, edit and staff them.
 */
export function GroupScreen({ orgId }: { orgId: string | null }) {
  const detail = useSchoolDetail(orgId);
  const school = detail.data;
  const schoolError: unknown = detail.error;
  const canManage = school?.me.canManage ?? false;
  const [onlyMine, setOnlyMine] = useState(false);
  const { data: groups, isLoading } = useGroups(school?.id ?? null, !canManage || onlyMine);
  const revalidate = useRevalidateTeam();
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [staffing, setStaffing] = useState<Group | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [busy, setBusy] = useState(false);

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-4 sm:px-6">
          <Link
            to={paths.paperlist}
            className="inline-flex items-center gap-1 text-sm text-blue-600 hover:underline"
          >
            <ChevronLeftIcon className="size-4" />
            {ts.groups.back}
          </Link>
          <div className="min-w-0 flex-1">
            <h1 className="text-xl font-semibold text-slate-900">
              {ts.groups.title}
              {school && <span className="ml-2 text-base font-normal text-slate-500">{school.name}</span>}
            </h1>
            <p className="text-sm text-slate-500">{canManage ? ts.groups.adminLead : ts.groups.memberLead}</p>
          </div>
          {canManage && (
            <>
              <Checkbox className="text-sm text-slate-600" checked={onlyMine} onChange={setOnlyMine}>
                {ts.groups.onlyMine}
              </Checkbox>
              <Button onClick={() => setEditing('new')}>{ts.groups.create}</Button>
            </>
          )}
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
        {schoolError ? (
          <div className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            <Empty title={schoolError instanceof Error ? schoolError.message : ts.loadFailed} />
          </div>
        ) : !school || (isLoading && !groups) ? (
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            <Skeleton className="h-56" />
            <Skeleton className="h-56" />
            <Skeleton className="h-56" />
          </div>
        ) : (groups ?? []).length === 0 ? (
          <div className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            <Empty
              title={canManage ? ts.groups.empty : ts.groups.emptyMember}
              description={canManage ? ts.groups.adminLead : ts.groups.emptyMemberHint}
              action={
                canManage ? <Button onClick={() => setEditing('new')}>{ts.groups.create}</Button> : undefined
              }
            />
          </div>
        ) : (
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {(groups ?? []).map((g) => (
              <GroupCard
                key={g.id}
                group={g}
                canManage={canManage}
                onEdit={() => setEditing(g)}
                onMembers={() => setStaffing(g)}
                onDelete={() => setDeleting(g)}
              />
            ))}
          </div>
        )}
      </main>
      {school && (
        <>
          <GroupDialog
            orgId={school.id}
            group={editing === 'new' ? null : editing}
            open={editing !== null}
            onClose={() => setEditing(null)}
            onSaved={revalidate}
          />
          <MembersDialog
            orgId={school.id}
            group={staffing}
            onClose={() => setStaffing(null)}
            onSaved={revalidate}
          />
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={ts.groups.deleteTitle}
        confirmLabel={ts.groups.delete}
        danger
        busy={busy}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          setBusy(true);
          deleteGroup(deleting.id)
            .then(() => {
              toast.success(ts.groups.deleted);
              revalidate();
            })
            .catch(() => undefined)
            .finally(() => {
              setBusy(false);
              setDeleting(null);
            });
        }}
      >
        {deleting && ts.groups.deleteBody(deleting.name)}
      </ConfirmDialog>
    </div>
  );
}
