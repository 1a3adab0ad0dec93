import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { BlockProgress } from '@zhzy/contracts';
import { Page } from '../../../components/page';
import { Button, buttonClass } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { MARKING_TEXT as T } from '../../../i18n/marking';
import { useMarkTasks } from '../api/marking';
import { AssignmentDialog } from './assignment';

/** /correct: my marking tasks with progress; for my own homework, the assignment screen. */
export function TasksPage() {
  const { data, mutate } = useMarkTasks();
  const [assigning, setAssigning] = useState<string | null>(null);
  return (
    <Page title={T.tasksTitle} lead={T.tasksLead}>
      {!data ? (
        <SkeletonLines lines={6} />
      ) : data.length === 0 ? (
        <Empty title={T.noTasks} description={T.noTasksHint} />
      ) : (
        <div className="space-y-5">
          {data.map((task) => (
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
