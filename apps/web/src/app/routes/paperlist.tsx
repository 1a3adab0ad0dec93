import { lazy, Suspense, useEffect } from 'react';
import { HomeworkListScreen } from '../../features/homework/components/homework-list';
import { useSession } from '../../lib/session';

/** The print dialog loads when first opened (or once the list is idle), not with the landing page (issue #25). */
const loadPrintDialog = () => import('../../features/printing/components/card-print-dialog');
const CardPrintDialog = lazy(() => loadPrintDialog().then((m) => ({ default: m.CardPrintDialog })));

/** 作业列表: the signed-in landing page — homework and tests, publishing, and what each one lets the teacher do. */
export function Component() {
  const { user } = useSession();
  useEffect(() => {
    const warm = window.setTimeout(() => void loadPrintDialog(), 1500);
    return () => window.clearTimeout(warm);
  }, []);
  return (
    <HomeworkListScreen
      orgId={user?.orgDefaultId ?? null}
      renderPrintDialog={(homework, onClose) => (
        <Suspense fallback={null}>
          <CardPrintDialog homework={homework} open onClose={onClose} />
        </Suspense>
      )}
    />
  );
}
