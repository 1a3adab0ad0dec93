import { Button } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/icons';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';
import type { Progress } from './use-word-import';
import {
  blockingCount,
  questionCount,
  warningCount,
  type Destination,
  type ImportItem,
} from './word-import-model';

const w = composition.word;

/** The batch: reading progress, each paper with its question count and warnings, and where to save. */
export function WordImportList({
  items,
  progress,
  typeName,
  onReview,
}: {
  items: ImportItem[];
  progress: Progress | null;
  typeName: (id: string) => string;
  onReview: (key: string) => void;
}) {
  const done = items.filter((x) => x.status !== 'waiting' && x.status !== 'reading').length;
  return (
    <div className="space-y-4">
      <div>
        <p className="mb-1.5 text-sm text-slate-600" aria-live="polite">
          {progress ? w.progress(progress.at, progress.total, progress.name) : w.parsedAll(items.length)}
        </p>
        <div
          role="progressbar"
          aria-label={w.papersTitle}
          aria-valuemin={0}
          aria-valuemax={items.length}
          aria-valuenow={done}
          className="h-2 overflow-hidden rounded-full bg-slate-100"
        >
          <div
            className="h-full rounded-full bg-blue-600 transition-all"
            style={{ width: `${items.length ? (done / items.length) * 100 : 0}%` }}
          />
        </div>
      </div>
      <ul aria-label={w.papersTitle} className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {items.map((item) => {
          const blocking = item.status === 'ready' ? blockingCount(item.sections, typeName) : 0;
          const warnings = item.status === 'ready' ? warningCount(item) : 0;
          return (
            <li
              key={item.key}
              data-testid="import-paper"
              className="flex flex-wrap items-center gap-3 px-4 py-3"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-slate-800">{item.file.name}</p>
                <p className="mt-0.5 flex flex-wrap gap-3 text-xs text-slate-500">
                  {item.status === 'waiting' && <span>{w.waiting}</span>}
                  {item.status === 'reading' && <span>{w.reading}</span>}
                  {(item.status === 'ready' || item.status === 'saved') && (
                    <span>{w.questionCount(questionCount(item.sections))}</span>
                  )}
                  {warnings > 0 && <span className="text-amber-700">{w.warningCount(warnings)}</span>}
                  {blocking > 0 && <span className="text-red-600">{w.blocking(blocking)}</span>}
                  {item.status === 'saved' && <span className="text-emerald-700">{w.savedMark}</span>}
                </p>
                {item.status === 'failed' && (
                  <p className="mt-1 flex items-start gap-1 text-xs text-red-600">
                    <AlertIcon className="mt-0.5 size-3.5 shrink-0" />
                    {w.failedMark}：{item.error}
                  </p>
                )}
              </div>
              {item.status === 'ready' && (
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={w.reviewOf(item.file.name)}
                  onClick={() => onReview(item.key)}
                >
                  {w.review}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Where the papers go: 我的试卷 and/or 我的题库, and whether their questions are shared to the school. */
export function DestinationPicker({
  value,
  onChange,
}: {
  value: Destination;
  onChange: (next: Destination) => void;
}) {
  const box = 'size-4 rounded border-slate-300 text-blue-600 focus:ring-blue-500';
  return (
    <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-slate-700">
      <legend className="sr-only">{w.destination}</legend>
      <span className="font-medium text-slate-600">{w.destination}</span>
      <label className="flex items-center gap-1.5">
        <input
          type="checkbox"
          className={box}
          checked={value.paper}
          onChange={(e) => onChange({ ...value, paper: e.target.checked })}
        />
        {w.toPaper}
      </label>
      <label
        className={cn('flex items-center gap-1.5', value.paper && 'text-slate-400')}
        title={value.paper ? w.toBankWithPaper : undefined}
      >
        <input
          type="checkbox"
          className={box}
          checked={value.bank || value.paper}
          disabled={value.paper}
          onChange={(e) => onChange({ ...value, bank: e.target.checked })}
        />
        {w.toBank}
      </label>
      <label className="flex items-center gap-1.5">
        <input
          type="checkbox"
          className={box}
          checked={value.share}
          disabled={!value.paper && !value.bank}
          onChange={(e) => onChange({ ...value, share: e.target.checked })}
        />
        {w.toSchool}
      </label>
    </fieldset>
  );
}
