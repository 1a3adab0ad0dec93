import { useState } from 'react';
import { SCHOOL_ROLES, SCHOOL_ROLE_NAMES, type Member, type SchoolRole } from '@zhzy/contracts';
import { Page } from '../../../components/page';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table } from '../../../components/ui/table';
import { Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import { formatDate } from '../../../lib/utils';
import { useSchoolDetail, useSchoolMembers } from '../../../api/school';
import { removeMember, useRevalidateTeam } from '../api/team';
import { InvitationsPanel } from './invitations-panel';
import { RolesDialog, TeachingDialog } from './member-dialogs';

export function Avatar({ src, name }: { src: string | null; name: string }) {
  return src ? (
    <img src={src} alt="" className="size-9 shrink-0 rounded-full object-cover" />
  ) : (
    <span
      aria-hidden="true"
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-100 text-sm font-medium text-blue-700"
    >
      {name.slice(0, 1)}
    </span>
  );
}

function MembersPanel({ orgId, myMemberId }: { orgId: string; myMemberId: string }) {
  const [keyword, setKeyword] = useState('');
  const [query, setQuery] = useState('');
  const [role, setRole] = useState<SchoolRole | ''>('');
  const { data, isLoading } = useSchoolMembers(orgId, query, role);
  const revalidate = useRevalidateTeam();
  const [roles, setRoles] = useState<Member | null>(null);
  const [teaching, setTeaching] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [busy, setBusy] = useState(false);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <form
          role="search"
          className="flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery(keyword);
          }}
        >
          <label htmlFor="member-keyword" className="text-sm text-slate-500">
            {ts.members.keyword}
          </label>
          <input
            id="member-keyword"
            type="search"
            value={keyword}
            placeholder={ts.members.keywordPlaceholder}
            onChange={(e) => setKeyword(e.target.value)}
            className="h-9 w-44 rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:outline-none"
          />
        </form>
        <Listbox
          label={ts.members.role}
          value={role}
          placeholder={ts.members.allRoles}
          options={[
            { value: '', label: ts.members.allRoles },
            ...SCHOOL_ROLES.map((r) => ({ value: r, label: SCHOOL_ROLE_NAMES[r] })),
          ]}
          onChange={setRole}
        />
        {data && <span className="ml-auto text-sm text-slate-500">{ts.members.count(data.length)}</span>}
      </div>
      {isLoading && !data ? (
        <Skeleton className="h-64" />
      ) : (
        <Table
          caption={ts.members.title}
          minWidth="min-w-[760px]"
          rows={data ?? []}
          rowKey={(m) => m.memberId}
          empty={ts.members.empty}
          columns={[
            {
              key: 'member',
              header: ts.members.member,
              cell: (m) => (
                <div className="flex items-center gap-3">
                  <Avatar src={m.avatar} name={m.nickname} />
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {m.nickname}
                      {m.memberId === myMemberId && (
                        <span className="ml-1.5 text-xs font-normal text-slate-500">（{ts.members.me}）</span>
                      )}
                    </p>
                    <p className="text-xs text-slate-500">
                      {m.username}
                      {m.phone ? ` · ${m.phone}` : ''}
                    </p>
                  </div>
                </div>
              ),
            },
            {
              key: 'roles',
              header: ts.members.roles,
              cell: (m) => (
                <div className="flex flex-wrap gap-1">
                  {m.roleNames.map((r) => (
                    <span key={r} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                      {r}
                    </span>
                  ))}
                  {m.grades.length > 0 && (
                    <span className="text-xs text-slate-500">{m.grades.join('、')}</span>
                  )}
                </div>
              ),
            },
            {
              key: 'teaching',
              header: ts.members.teaching,
              cell: (m) =>
                m.teaching.length ? (
                  <ul className="space-y-0.5 text-xs">
                    {m.teaching.map((t) => (
                      <li key={t.subjectId}>
                        <span className="font-medium text-slate-700">{t.subjectName}</span>
                        {t.classes.length > 0 && (
                          <span className="text-slate-500">：{t.classes.map((c) => c.name).join('、')}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="text-xs text-slate-500">{ts.members.noTeaching}</span>
                ),
            },
            {
              key: 'groups',
              header: ts.members.groups,
              cell: (m) => <span className="text-xs">{m.groups.map((g) => g.name).join('、') || '—'}</span>,
            },
            { key: 'joined', header: ts.members.joinedAt, cell: (m) => formatDate(m.joinedAt) },
            {
              key: 'actions',
              header: <span className="sr-only">{ts.members.actions}</span>,
              align: 'right',
              className: 'whitespace-nowrap',
              cell: (m) => (
                <div className="flex justify-end gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setRoles(m)}
                    aria-label={ts.members.rolesTitle(m.nickname)}
                  >
                    {ts.members.editRoles}
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setTeaching(m)}
                    aria-label={ts.members.teachingTitle(m.nickname)}
                  >
                    {ts.members.editTeaching}
                  </Button>
                  {!m.isCreator && m.memberId !== myMemberId && (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-red-600! hover:bg-red-50"
                      onClick={() => setRemoving(m)}
                    >
                      {ts.members.remove}
                    </Button>
                  )}
                </div>
              ),
            },
          ]}
        />
      )}
      <RolesDialog member={roles} onClose={() => setRoles(null)} onSaved={revalidate} />
      <TeachingDialog
        orgId={orgId}
        member={teaching}
        onClose={() => setTeaching(null)}
        onSaved={revalidate}
      />
      <ConfirmDialog
        open={removing !== null}
        title={ts.members.removeTitle}
        confirmLabel={ts.members.remove}
        danger
        busy={busy}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          setBusy(true);
          removeMember(removing.memberId)
            .then(() => {
              toast.success(ts.members.removed(removing.nickname));
              revalidate();
            })
            .catch(() => undefined)
            .finally(() => {
              setBusy(false);
              setRemoving(null);
            });
        }}
      >
        {removing && ts.members.removeBody(removing.nickname)}
      </ConfirmDialog>
    </div>
  );
}

/** /team/member: administrators manage members and invitations; others are pointed to their groups. */
export function MemberScreen({ orgId }: { orgId: string | null }) {
  const detail = useSchoolDetail(orgId);
  const { data: school, isLoading } = detail;
  const error: unknown = detail.error;
  if (isLoading) {
    return (
      <Page title={ts.members.title}>
        <Skeleton className="h-72" />
      </Page>
    );
  }
  if (error || !school || !school.me.canManage) {
    return (
      <Page title={ts.members.title}>
        <div className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          <Empty
            title={school ? ts.members.onlyAdmin : error instanceof Error ? error.message : ts.loadFailed}
            description={ts.members.onlyAdminHint}
            action={<ButtonLink to={paths.teamGroup}>{ts.members.toGroups}</ButtonLink>}
          />
        </div>
      </Page>
    );
  }
  return (
    <Page title={ts.members.title} lead={`${school.name} · ${ts.members.lead}`} wide>
      <div className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <Tabs
          label={ts.members.tabs.label}
          items={[
            {
              key: 'members',
              label: ts.members.tabs.members,
              content: <MembersPanel orgId={school.id} myMemberId={school.me.memberId} />,
            },
            {
              key: 'invites',
              label: ts.members.tabs.invites,
              content: <InvitationsPanel orgId={school.id} />,
            },
          ]}
        />
      </div>
    </Page>
  );
}
