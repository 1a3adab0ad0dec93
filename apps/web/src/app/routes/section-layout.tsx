import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Page } from '../../components/page';
import { NavTabs } from '../../components/ui/tabs';
import { SkeletonLines } from '../../components/ui/skeleton';

/** A screen with child routes: its title, tabs for the children, and the child below. */
export function SectionLayout({
  title,
  tabs,
  lead,
}: {
  title: string;
  tabs: { to: string; label: string }[];
  lead?: string;
}) {
  return (
    <Page title={title} lead={lead} wide>
      <NavTabs label={title} items={tabs} />
      <div className="pt-6">
        <Suspense fallback={<SkeletonLines lines={6} />}>
          <Outlet />
        </Suspense>
      </div>
    </Page>
  );
}
