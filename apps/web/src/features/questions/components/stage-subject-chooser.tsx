import type { Stage } from '@zhzy/contracts';
import { Skeleton } from '../../../components/ui/skeleton';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';

/** Chips of every stage's subjects; the chosen one is the shared stage/subject selection. */
export function StageSubjectChooser({
  stages,
  value,
  onChange,
}: {
  stages: Stage[] | undefined;
  value: { stageId: string; subjectId: string } | null;
  onChange: (v: { stageId: string; subjectId: string }) => void;
}) {
  if (!stages) return <Skeleton className="h-9 w-80" />;
  return (
    <div className="space-y-2" role="group" aria-label={composition.questions.stageSubject}>
      {stages.map((stage) => (
        <div key={stage.id} className="flex flex-wrap items-center gap-2">
          <span className="w-10 text-sm font-medium text-slate-500">{stage.name}</span>
          {stage.subjects.map((s) => {
            const active = value?.subjectId === s.id;
            return (
              <button
                key={s.id}
                type="button"
                aria-pressed={active}
                onClick={() => onChange({ stageId: stage.id, subjectId: s.id })}
                className={cn(
                  'h-8 rounded-full border px-4 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
                  active
                    ? 'border-blue-600 bg-blue-600 text-white'
                    : 'border-slate-200 bg-white text-slate-600 hover:border-blue-300 hover:text-blue-700',
                )}
              >
                {s.name}
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}
