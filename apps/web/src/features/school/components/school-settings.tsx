import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { SchoolDetail } from '@zhzy/contracts';
import { Page } from '../../../components/page';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { zhCNSchool as ts } from '../../../i18n/school';
import { cn } from '../../../lib/utils';
import { useSchoolDetail } from '../../../api/school';
import { CreateSchoolForm } from './create-school';
import { AuditPanel, DirectorsPanel, InfoPanel, SchoolLogo, SubjectsPanel } from './school-panels';
import { StudentsPanel } from './students-panel';
import { YearsPanel } from './years-panel';

function RoleBadges({ me }: { me: SchoolDetail['me'] }) {
  const roles = [
    me.isCreator && ts.roles.creator,
    me.isAdministrator && !me.isCreator && ts.roles.administrator,
    me.isGradeDirector && `${ts.roles.gradeDirector}${me.grades.length ? `（${me.grades.join('、')}）` : ''}`,
    !me.canManage && !me.isGradeDirector && ts.roles.teacher,
  ].filter((r): r is string => Boolean(r));
  return (
    <span className="flex flex-wrap gap-1.5">
      {roles.map((r) => (
        <span key={r} className="rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-700">
          {r}
        </span>
      ))}
    </span>
  );
}

function SchoolHeader({ school }: { school: SchoolDetail }) {
  const counts: [string, number][] = [
    [ts.counts.members, school.counts.members],
    [ts.counts.years, school.counts.years],
    [ts.counts.classes, school.counts.classes],
    [ts.counts.students, school.counts.students],
    [ts.counts.groups, school.counts.groups],
  ];
  return (
    <section className="flex flex-col gap-5 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center">
      <SchoolLogo school={school} canManage={school.me.canManage} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="text-xl font-semibold text-slate-900">{school.name}</h2>
          <RoleBadges me={school.me} />
        </div>
        <p className="mt-1 text-sm text-slate-500">
          {[school.region, school.address].filter(Boolean).join(' · ') || ts.info.none}
        </p>
        <dl className="mt-4 flex flex-wrap gap-x-8 gap-y-2">
          {counts.map(([label, n]) => (
            <div key={label}>
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="text-lg font-semibold text-slate-900 tabular-nums">{n}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="flex flex-col gap-2 sm:items-end">
        {school.me.canManage && (
          <Link to={paths.teamMember} className="text-sm text-blue-600 hover:underline">
            {ts.links.members}
          </Link>
        )}
        <Link to={paths.teamGroup} className="text-sm text-blue-600 hover:underline">
          {ts.links.groups}
        </Link>
      </div>
    </section>
  );
}

/**
 * /team/details: the school's settings. `orgId` picks the school (the current one when absent); the route's
 * isCreator / isAdministrator are hints only — what the screen offers follows the host's answer (`me`).
 * A user without a school is offered to create one.
 */
export function SchoolSettingsScreen({ orgId, hasSchool }: { orgId: string | null; hasSchool: boolean }) {
  const detail = useSchoolDetail(orgId, hasSchool || orgId !== null);
  const { data: school, isLoading, mutate } = detail;
  const error: unknown = detail.error;
  const navigate = useNavigate();
  const [tab, setTab] = useState(0);
  const [focus, setFocus] = useState<{ yearId: string; classId: string } | null>(null);
  const [creating, setCreating] = useState(false);

  const onCreated = (s: SchoolDetail) => {
    setCreating(false);
    void navigate(
      paths.schoolSettings({ orgId: s.id, isCreator: s.me.isCreator, isAdministrator: s.me.isAdministrator }),
      { replace: true },
    );
    void mutate();
  };

  const items = useMemo(() => {
    if (!school) return [];
    const canManage = school.me.canManage;
    const list: { key: string; label: string; content: ReactNode }[] = [
      { key: 'info', label: ts.tabs.info, content: <InfoPanel school={school} canManage={canManage} /> },
      {
        key: 'years',
        label: ts.tabs.years,
        content: (
          <YearsPanel
            orgId={school.id}
            canManage={canManage}
            onShowStudents={(yearId, classId) => {
              setFocus({ yearId, classId });
              setTab(2);
            }}
          />
        ),
      },
      {
        key: 'students',
        label: ts.tabs.students,
        content: <StudentsPanel orgId={school.id} canManage={canManage} focus={focus} />,
      },
      {
        key: 'subjects',
        label: ts.tabs.subjects,
        content: <SubjectsPanel orgId={school.id} canManage={canManage} />,
      },
      {
        key: 'directors',
        label: ts.tabs.directors,
        content: <DirectorsPanel orgId={school.id} canManage={canManage} />,
      },
    ];
    if (canManage)
      list.push({ key: 'audit', label: ts.tabs.audit, content: <AuditPanel orgId={school.id} /> });
    return list;
  }, [school, focus]);

  const createAction = (
    <Button variant="secondary" size="sm" onClick={() => setCreating(true)}>
      {ts.create.another}
    </Button>
  );

  if (!hasSchool && orgId === null) {
    return (
      <Page title={ts.title}>
        <div className="mx-auto max-w-xl rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <Empty title={ts.noSchool.title} description={ts.noSchool.description} className="py-6" />
          <CreateSchoolForm onCreated={onCreated} />
        </div>
      </Page>
    );
  }

  return (
    <Page title={ts.title} lead={ts.lead} actions={createAction} wide>
      {isLoading ? (
        <div className="space-y-4">
          <Skeleton className="h-36" />
          <Skeleton className="h-72" />
        </div>
      ) : error || !school ? (
        <div className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          <Empty
            title={error instanceof Error ? error.message : ts.loadFailed}
            action={
              <Button variant="secondary" onClick={() => void mutate()}>
                {ts.retry}
              </Button>
            }
          />
        </div>
      ) : (
        <div className="space-y-5">
          <SchoolHeader school={school} />
          {!school.me.canManage && (
            <p className="rounded-lg bg-amber-50 px-4 py-2.5 text-sm text-amber-800">{ts.readOnly}</p>
          )}
          <div className={cn('rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200')}>
            <Tabs label={ts.tabs.label} items={items} selectedIndex={tab} onChange={setTab} />
          </div>
        </div>
      )}
      <Dialog open={creating} onClose={() => setCreating(false)} title={ts.create.title} className="max-w-lg">
        <CreateSchoolForm onCreated={onCreated} onCancel={() => setCreating(false)} />
      </Dialog>
    </Page>
  );
}
