import { TasksPage } from '../../features/marking/components/tasks-page';

/** /correct: marking home — my tasks with progress, and the assignment screen for my own homework. */
export function Component() {
  return <TasksPage />;
}
