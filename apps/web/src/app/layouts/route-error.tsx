import { Button } from '../../components/ui/button';
import { Empty } from '../../components/ui/empty';
import { SkeletonLines } from '../../components/ui/skeleton';
import { AlertIcon } from '../../components/icons';
import { t } from '../../i18n/zh-CN';

/** Shown when a screen's chunk fails to load (e.g. after a new release) or a screen throws. */
export function RouteError() {
  return (
    <div className="mx-auto max-w-lg px-6 py-20">
      <Empty
        icon={<AlertIcon />}
        title={t.pageLoadFailed}
        action={<Button onClick={() => window.location.reload()}>{t.refresh}</Button>}
      />
    </div>
  );
}

/** While the first screen's chunk loads. */
export function InitialLoading() {
  return (
    <div className="mx-auto max-w-6xl px-6 py-10">
      <SkeletonLines lines={6} />
    </div>
  );
}
