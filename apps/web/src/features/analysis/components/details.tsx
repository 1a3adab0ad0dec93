import { useMemo, useState } from 'react';
import type { DetailCell, HomeworkDetails } from '@zhzy/contracts';
import { Dialog } from '../../../components/ui/dialog';
import { ExportButton } from '../../../components/ui/export-button';
import { Segmented } from '../../../components/ui/segmented';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { cn } from '../../../lib/utils';
import { useHomeworkDetails } from '../api/analysis';
import { CropImage } from '../../../components/ui/crop-image';
import { HomeworkHeader, HomeworkLinks, LoadState, NoHomework, Panel } from './parts';
import { HomeworkToolbar, useNoHomework, useAnalysisSelection } from './selection';

const td = ta.details;
type Filter = 'all' | 'wrong' | 'pending' | 'absent';

/** The colour of a cell: full marks, part, zero, blank, waiting for a marker. */
export function cellTone(c: DetailCell, full: number): keyof typeof td.legend {
  if (c.score === null) return c.response === null && !c.cropUrl && !c.blank ? 'absent' : 'pending';
  if (c.blank) return 'blank';
  if (c.score >= full) return 'correct';
  return c.score > 0 ? 'partial' : 'wrong';
}

const TONES: Record<keyof typeof td.legend, string> = {
  correct: 'bg-emerald-50 text-emerald-700',
  partial: 'bg-amber-50 text-amber-700',
  wrong: 'bg-rose-50 text-rose-700',
  blank: 'bg-slate-100 text-slate-600',
  pending: 'bg-blue-50 text-blue-600',
  absent: 'text-slate-500',
};

interface Open {
  row: HomeworkDetails['rows'][number];
  index: number;
}

function Matrix({ d }: { d: HomeworkDetails }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [keyword, setKeyword] = useState('');
  const [open, setOpen] = useState<Open | null>(null);
  const col = ta.tables.col;
  const rows = useMemo(
    () =>
      d.rows.filter((r) => {
        if (keyword && !r.name.includes(keyword) && !r.studentNo.includes(keyword)) return false;
        if (filter === 'wrong') return r.cells.some((c) => c.correct === false);
        if (filter === 'pending') return r.status === 'pending';
        if (filter === 'absent') return r.status === 'absent';
        return true;
      }),
    [d.rows, filter, keyword],
  );
  const withClass = d.scope.classId === null;
  const sheet = () => [
    {
      name: td.matrix,
      title: [d.homework.title, d.scope.name],
      header: [
        col.name,
        col.studentNo,
        ...(withClass ? [col.className] : []),
        col.total,
        col.objective,
        col.subjective,
        ...(d.showRank ? [col.classRank, col.gradeRank] : []),
        ...d.columns.map((c) => `${c.no}（${c.fullScore}）`),
      ],
      rows: rows.map((r) => [
        r.name,
        r.studentNo,
        ...(withClass ? [r.className] : []),
        r.total,
        r.objective,
        r.subjective,
        ...(d.showRank ? [r.classRank, r.gradeRank] : []),
        ...r.cells.map((c, i) =>
          d.columns[i]!.objective && c.response !== null
            ? `${c.response || '-'} ${c.score ?? ''}`.trim()
            : c.score,
        ),
      ]),
    },
  ];
  const openCell = open ? open.row.cells[open.index] : null;
  const openCol = open ? d.columns[open.index] : null;
  return (
    <Panel
      title={td.matrix}
      description={td.hint}
      actions={
        <>
          <input
            type="search"
            value={keyword}
            onChange={(e) => setKeyword(e.target.value.trim())}
            placeholder={td.search}
            aria-label={td.search}
            className="h-8 w-40 rounded-md border border-slate-300 px-2 text-sm"
          />
          <Segmented
            label={td.only}
            value={filter}
            options={(Object.keys(td.filters) as Filter[]).map((f) => ({ value: f, label: td.filters[f] }))}
            onChange={setFilter}
          />
          <ExportButton sheets={sheet} fileName={[d.homework.title, d.scope.name, td.matrix]} />
        </>
      }
    >
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        {(Object.keys(td.legend) as (keyof typeof td.legend)[]).map((k) => (
          <span key={k} className={cn('rounded px-1.5 py-0.5', TONES[k])}>
            {td.legend[k]}
          </span>
        ))}
        <span className="ml-auto text-slate-500">{td.count(rows.length, d.rows.length)}</span>
      </div>
      <div className="max-h-[70vh] overflow-auto rounded-lg border border-slate-200">
        <table className="border-collapse text-xs">
          <caption className="sr-only">{td.matrix}</caption>
          <thead className="sticky top-0 z-10 bg-slate-50 text-slate-500">
            <tr>
              <th scope="col" className="sticky left-0 z-20 bg-slate-50 px-2 py-2 text-left font-medium">
                {col.name}
              </th>
              {withClass && (
                <th scope="col" className="px-2 py-2 text-left font-medium">
                  {col.className}
                </th>
              )}
              <th scope="col" className="px-2 py-2 text-right font-medium">
                {col.total}
              </th>
              {d.showRank && (
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  {col.gradeRank}
                </th>
              )}
              {d.columns.map((c) => (
                <th
                  key={c.questionId}
                  scope="col"
                  className="min-w-11 px-1 py-2 text-center font-medium"
                  title={`${c.typeName} ${fmt.pct(c.scoreRate)}`}
                >
                  {c.no}
                  <span className="block text-[10px] font-normal text-slate-500">
                    {fmt.pct(c.scoreRate, 0)}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.studentId}>
                <th
                  scope="row"
                  className="sticky left-0 bg-white px-2 py-1 text-left font-normal whitespace-nowrap text-slate-800"
                >
                  {r.name}
                  <span className="ml-1 text-slate-500">{r.studentNo}</span>
                </th>
                {withClass && <td className="px-2 py-1 whitespace-nowrap text-slate-600">{r.className}</td>}
                <td className="px-2 py-1 text-right font-medium tabular-nums">
                  {r.status === 'absent' ? r.statusName : fmt.num(r.total)}
                </td>
                {d.showRank && <td className="px-2 py-1 text-right tabular-nums">{fmt.rank(r.gradeRank)}</td>}
                {r.cells.map((c, i) => {
                  const column = d.columns[i]!;
                  const tone = cellTone(c, column.fullScore);
                  const text = column.objective && c.response !== null ? c.response || '—' : fmt.num(c.score);
                  return (
                    <td key={column.questionId} className="p-0.5 text-center">
                      {tone === 'absent' ? (
                        <span className="text-slate-300">·</span>
                      ) : (
                        <button
                          type="button"
                          className={cn(
                            'h-7 w-full min-w-10 rounded tabular-nums hover:ring-2 hover:ring-blue-300',
                            TONES[tone],
                          )}
                          aria-label={td.cellLabel(r.name, column.no, text, fmt.num(c.score))}
                          onClick={() => setOpen({ row: r, index: i })}
                        >
                          {text}
                        </button>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open && openCol ? td.crop(open.row.name, openCol.no) : ''}
        className="max-w-3xl"
      >
        {open && openCell && openCol && (
          <div className="mt-3 space-y-3">
            <p className="flex flex-wrap gap-x-4 text-sm text-slate-600">
              <span>{td.score(fmt.num(openCell.score), fmt.num(openCol.fullScore))}</span>
              {openCell.response !== null && <span>{td.response(openCell.response)}</span>}
              {openCol.answer && <span>{td.key(openCol.answer)}</span>}
            </p>
            <CropImage url={openCell.cropUrl} alt={td.crop(open.row.name, openCol.no)} />
          </div>
        )}
      </Dialog>
    </Panel>
  );
}

/** /assistant/details: the student × question matrix; a cell opens that answer's crop. */
export function DetailsScreen() {
  const sel = useAnalysisSelection();
  const none = useNoHomework();
  const details = useHomeworkDetails(sel.homeworkId, sel.classId);
  const d = details.data;
  return (
    <div className="space-y-4">
      <HomeworkToolbar classMode="optional" />
      {none.empty ? (
        <NoHomework />
      ) : !d ? (
        <LoadState error={details.error as unknown} onRetry={() => void details.mutate()} />
      ) : (
        <>
          <HomeworkHeader
            homework={d.homework}
            summary={{
              studentCount: d.rows.length,
              scoredCount: d.rows.filter((r) => r.status === 'scored').length,
              pendingCount: d.rows.filter((r) => r.status === 'pending').length,
              absentCount: d.rows.filter((r) => r.status === 'absent').length,
            }}
            scopeName={d.scope.name}
            links={<HomeworkLinks homeworkId={d.homework.id} classId={d.scope.classId} except="details" />}
          />
          <Matrix d={d} />
        </>
      )}
    </div>
  );
}
