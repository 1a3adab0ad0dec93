import type { ReactNode } from 'react';
import { Page } from '../../../components/page';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { Skeleton } from '../../../components/ui/skeleton';
import { zhCNAccount as ta } from '../../../i18n/account';
import { cn } from '../../../lib/utils';
import { useMyTeaching, useProfile } from '../api/account';
import { FeedbackPanel, SchoolFeedbackPanel } from './feedback-panel';
import { PasswordPanel } from './password-panel';
import { ProfilePanel } from './profile-panel';

/** The sections of the personal centre, by their `nav` query value (SPEC §2: nav=2 opens feedback). */
export const USERSET_SECTIONS = ['profile', 'password', 'feedback', 'teaching', 'schoolFeedback'] as const;
export type UsersetSection = (typeof USERSET_SECTIONS)[number];

function TeachingPanel() {
  const { data } = useMyTeaching(true);
  if (!data) return <Skeleton className="h-40" />;
  if (!data.orgId) return <Empty title={ta.teaching.noSchool} />;
  return (
    <div className="max-w-3xl space-y-6">
      <p className="text-sm text-slate-500">
        {ta.teaching.school}：<span className="font-medium text-slate-800">{data.orgName}</span>
        {data.gradeDirectorOf.length > 0 && (
          <span className="ml-3 rounded-full bg-blue-50 px-2 py-0.5 text-xs text-blue-700">
            {ta.teaching.director}：{data.gradeDirectorOf.join('、')}
          </span>
        )}
      </p>
      <section aria-label={ta.teaching.subjects}>
        <h3 className="mb-3 text-base font-semibold text-slate-900">{ta.teaching.subjects}</h3>
        {data.teaching.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 p-5 text-sm">
            <p className="font-medium text-slate-700">{ta.teaching.noTeaching}</p>
            <p className="mt-1 text-slate-500">{ta.teaching.noTeachingHint}</p>
          </div>
        ) : (
          <ul className="space-y-2">
            {data.teaching.map((t) => (
              <li
                key={t.id}
                className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-3"
              >
                <span className="w-28 font-medium text-slate-800">
                  {t.stageName}
                  {t.name}
                </span>
                {t.classes.map((c) => (
                  <span
                    key={c.id}
                    className="rounded bg-slate-100 px-2 py-0.5 text-sm text-slate-700"
                    title={c.yearName}
                  >
                    {c.name}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-label={ta.teaching.groups}>
        <h3 className="mb-3 text-base font-semibold text-slate-900">{ta.teaching.groups}</h3>
        {data.groups.length === 0 ? (
          <p className="text-sm text-slate-500">{ta.teaching.noGroups}</p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {data.groups.map((g) => (
              <li key={g.id} className="rounded-lg border border-slate-200 px-3 py-2 text-sm">
                <span className="font-medium text-slate-800">{g.name}</span>
                <span className="ml-2 text-xs text-slate-500">{g.kindName}</span>
                {g.isLeader && <span className="ml-2 text-xs text-amber-700">{ta.teaching.leader}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/**
 * /userset: profile, password, feedback, my teaching and — for administrators of the current school — the
 * school's feedback. The section is in the URL (`nav`), so the side bar's 问题反馈 lands on feedback.
 */
export function UsersetScreen({
  section,
  onSection,
}: {
  section: UsersetSection;
  onSection: (s: UsersetSection) => void;
}) {
  const profileQuery = useProfile();
  const { data: profile, mutate } = profileQuery;
  const error: unknown = profileQuery.error;
  const current = profile?.schools.find((s) => s.isDefault) ?? null;
  const isAdmin = Boolean(current && (current.isAdministrator || current.isCreator));
  const sections = USERSET_SECTIONS.filter((s) => s !== 'schoolFeedback' || isAdmin);
  const shown: UsersetSection = sections.includes(section) ? section : 'profile';

  let body: ReactNode;
  if (error) {
    body = (
      <Empty
        title={error instanceof Error ? error.message : ta.loadFailed}
        action={
          <Button variant="secondary" onClick={() => void mutate()}>
            {ta.loadFailed}
          </Button>
        }
      />
    );
  } else if (!profile && shown !== 'feedback' && shown !== 'password') {
    body = <Skeleton className="h-64" />;
  } else if (shown === 'profile') body = <ProfilePanel profile={profile!} />;
  else if (shown === 'password') body = <PasswordPanel />;
  else if (shown === 'feedback') body = <FeedbackPanel />;
  else if (shown === 'teaching') body = <TeachingPanel />;
  else body = <SchoolFeedbackPanel orgId={current!.id} />;

  return (
    <Page title={ta.title} wide>
      <div className="flex flex-col gap-5 md:flex-row">
        <nav aria-label={ta.nav.label} className="shrink-0 md:w-52">
          <div className="mb-3 hidden items-center gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 md:flex">
            {profile?.avatar ? (
              <img src={profile.avatar} alt="" className="size-11 rounded-full object-cover" />
            ) : (
              <span className="flex size-11 items-center justify-center rounded-full bg-blue-100 font-medium text-blue-700">
                {profile?.nickname.slice(0, 1)}
              </span>
            )}
            <span className="min-w-0">
              <span className="block truncate font-medium text-slate-900">{profile?.nickname}</span>
              <span className="block truncate text-xs text-slate-500">{profile?.username}</span>
            </span>
          </div>
          <ul className="flex gap-1 overflow-x-auto rounded-xl bg-white p-2 shadow-sm ring-1 ring-slate-200 md:flex-col">
            {sections.map((s) => (
              <li key={s}>
                <button
                  type="button"
                  aria-current={s === shown ? 'page' : undefined}
                  onClick={() => onSection(s)}
                  className={cn(
                    'w-full rounded-md px-3 py-2 text-left text-sm whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-600',
                    s === shown ? 'bg-blue-50 font-medium text-blue-700' : 'text-slate-600 hover:bg-slate-50',
                  )}
                >
                  {ta.nav[s]}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <section
          aria-label={ta.nav[shown]}
          className="min-w-0 flex-1 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        >
          <h2 className="mb-5 text-lg font-semibold text-slate-900">{ta.nav[shown]}</h2>
          {body}
        </section>
      </div>
    </Page>
  );
}
