import { HomeworkListScreen } from '../../features/homework/components/homework-list';
import { CardPrintDialog } from '../../features/printing/components/card-print-dialog';
import { useSession } from '../../lib/session';

/** 作业列表: the signed-in landing page — homework and tests, publishing, and what each one lets the teacher do. */
export function Component() {
  const { user } = useSession();
  return (
    <HomeworkListScreen
      orgId={user?.orgDefaultId ?? null}
      renderPrintDialog={(homework, onClose) => (
        <CardPrintDialog homework={homework} open onClose={onClose} />
      )}
    />
  );
}
