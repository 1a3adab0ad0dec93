import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { BlockProgress } from '@zhzy/contracts';
import { Page } from '../../../components/page';
import { Button, buttonClass } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { MARKING_TEXT as T } from '../../../i18n/marking';
import { useMarkTasks } from '../api/marking';
import { AssignmentDialog } from './assignment';

/**
 * /correct: my marking tasks with progress; for my own homework, the assignment screen. Opened for a homework
 * (`?homeworkId=`, the 阅卷 button of the homework list) it shows only that homework's tasks, with a way back to all.
 */
export function TasksPage() {
  const { data, mutate } = useMarkTasks();
  const [assigning, setAssigning] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const homeworkId = params.get('homeworkId');
  const tasks = data && homeworkId ? data.filter((t) => t.homeworkId === homeworkId) : data;
  const showAll = () =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('homeworkId');
        return next;
      },
      { replace: true },
    );
  return (
    <Page title={T.tasksTitle} lead={T.tasksLead}>
      {homeworkId && data && data.length > 0 && (
        <div
          className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-blue-100 bg-blue-50 px-4 py-2.5 text-sm text-blue-900"
          data-testid="task-filter"
        >
          <p>{tasks?.[0] ? T.onlyHomework(tasks[0].homeworkTitle) : T.noHomeworkTasks}</p>
          <Button variant="secondary" size="sm" onClick={showAll}>
            {T.showAll}
          </Button>
        </div>
      )}
      {!data || !tasks ? (
        <SkeletonLines lines={6} />
      ) : data.length === 0 ? (
        <Empty title={T.noTasks} description={T.noTasksHint} />
      ) : tasks.length === 0 ? (
        <Empty title={T.noHomeworkTasks} description={T.noHomeworkTasksHint} />
      ) : (
        <div className="space-y-5">
          {tasks.map((task) => (
            <section
              key={task.homeworkId}
              className="rounded-lg border border-slate-200 bg-white shadow-sm"
              aria-label={task.homeworkTitle}
            >
              <header className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-4 py-3">
                <h2 className="text-base font-semibold text-slate-900">{task.homeworkTitle}</h2>
                <span className="text-sm text-slate-500">{task.subjectName}</span>
                {task.mine && (
                  <span className="rounded bg-blue-50 px-1.5 py-0.5 text-xs text-blue-700">{T.mine}</span>
                )}
                {task.mine && (
                  <Button
                    variant="secondary"
                    size="sm"
                    className="ml-auto"
                    onClick={() => setAssigning(task.homeworkId)}
                  >
                    {T.settings}
                  </Button>
                )}
              </header>
              <ul className="divide-y divide-slate-100">
                {task.blocks.map((b) => (
                  <li key={b.id} className="flex flex-wrap items-center gap-4 px-4 py-3">
                    <div className="w-40">
                      <p className="font-medium text-slate-800">{b.title}</p>
                      <p className="text-xs text-slate-500">
                        {T.fullScore(b.fullScore)} · {T.modeNames[b.mode]}
                      </p>
                    </div>
                    <ProgressBar progress={b.progress} />
                    <p className="w-48 text-sm text-slate-600">{T.myProgress(b.myMarks, b.myRemaining)}</p>
                    <div className="ml-auto flex items-center gap-2">
                      {b.progress.problems > 0 && (
                        <span className="text-xs text-red-600">{T.problems(b.progress.problems)}</span>
                      )}
                      {b.progress.arbitration > 0 && (
                        <span className="text-xs text-amber-700">
                          {T.arbitrationPending(b.progress.arbitration)}
                        </span>
                      )}
                      {b.canMark && (
                        <Link
                          to={`${paths.write}?block=${b.id}`}
                          className={buttonClass(
                            b.myRemaining + b.myArbitration > 0 ? 'primary' : 'secondary',
                            'sm',
                          )}
                          aria-label={`${task.homeworkTitle} ${b.title} ${b.myMarks > 0 ? T.continue : T.start}`}
                        >
                          {b.myArbitration > 0
                            ? T.arbitrate(b.myArbitration)
                            : b.myRemaining === 0 && b.myMarks > 0
                              ? T.review
                              : b.myMarks > 0
                                ? T.continue
                                : T.start}
                        </Link>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      {assigning && (
        <AssignmentDialog
          homeworkId={assigning}
          onClose={() => {
            setAssigning(null);
            void mutate();
          }}
        />
      )}
    </Page>
  );
}

function ProgressBar({ progress }: { progress: BlockProgress }) {
  const pct = progress.marksNeeded === 0 ? 0 : Math.round((progress.marks / progress.marksNeeded) * 100);
  return (
    <div className="min-w-48 flex-1">
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label={T.progress}
      >
        <div className="h-full bg-blue-500" style={{ width: `${pct}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-500">
        {T.items(progress.done, progress.items, progress.expected)}
      </p>
    </div>
  );
}
