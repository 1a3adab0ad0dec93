import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { HomeworkClass, HomeworkDetail, PrintGrade, PrintGradeRow } from '@zhzy/contracts';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths, withQuery } from '../../../config/paths';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import { useHomeworkDetail, useRecentHomework } from '../../../api/homework';
import { usePrintGrade } from '../api/printing';
import { parseRoster, type RosterStudent } from '../utils/roster';
import { FitWidth, PrintFrame, ScreenNote } from './print-frame';

const PX_PER_MM = 96 / 25.4;
/** Per-question sheets with more questions than this print landscape. */
const PORTRAIT_MAX_COLUMNS = 14;

export type GradeSheetVariant = 'questions' | 'test';

interface Column {
  key: string;
  label: string;
  sub?: string;
}

/** The score columns: one per question (作业), or one per section plus 客观题 / 主观题 / 名次 (考试). */
export function scoreColumns(homework: HomeworkDetail, variant: GradeSheetVariant): Column[] {
  const sections = homework.paper.sections;
  if (variant === 'questions') {
    return sections.flatMap((s) =>
      s.items.map((i) => ({ key: i.id, label: String(i.no), sub: tp.grade.points(i.score) })),
    );
  }
  return [
    ...sections.map((s) => ({ key: s.id, label: s.number, sub: tp.grade.points(s.totalScore) })),
    { key: 'objective', label: tp.grade.objective },
    { key: 'subjective', label: tp.grade.subjective },
  ];
}

/** Whether the homework has any result yet (a sheet scanned for at least one student). */
export function hasResults(grade: PrintGrade | undefined): grade is PrintGrade {
  return Boolean(grade?.classes.some((c) => c.rows.some((r) => r.status !== 'absent')));
}

/**
 * A student's figures in the score columns: the score of each question (作业), or each section's sum and the
 * objective and written parts (考试). Empty where nothing is scored.
 */
export function scoreCells(
  homework: HomeworkDetail,
  variant: GradeSheetVariant,
  grade: PrintGrade,
  row: PrintGradeRow,
): (number | null)[] {
  const index = new Map(grade.columns.map((c, i) => [c.questionId, i]));
  const scoreOf = (questionId: string) => {
    const i = index.get(questionId);
    return i === undefined ? null : (row.scores[i] ?? null);
  };
  const sections = homework.paper.sections;
  if (variant === 'questions')
    return sections.flatMap((s) => s.items.map((item) => scoreOf(item.questionId)));
  return [
    ...sections.map((s) => {
      const scores = s.items.map((item) => scoreOf(item.questionId)).filter((v): v is number => v !== null);
      return scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) * 10) / 10 : null;
    }),
    row.status === 'absent' ? null : row.objective,
    row.status === 'absent' ? null : row.subjective,
  ];
}

const shown = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** The rows of a class: the pasted list when there is one, else one numbered empty row per student. */
export function sheetRows(klass: HomeworkClass, roster: RosterStudent[] | null): (RosterStudent | null)[] {
  if (roster && roster.length > 0) return roster;
  return Array.from({ length: klass.studentCount }, () => null);
}

function HomeworkPicker({ route }: { route: string }) {
  const recent = useRecentHomework(20);
  const data = recent.data;
  if (recent.error) return <Empty title={tp.grade.pickFailed} />;
  if (!data) return <SkeletonLines lines={6} />;
  if (data.records.length === 0)
    return (
      <Empty
        title={tp.grade.noHomework}
        action={
          <Link className="text-blue-600 hover:underline" to={paths.paperlist}>
            {tp.backToList}
          </Link>
        }
      />
    );
  return (
    <ul className="divide-y divide-slate-100">
      {data.records.map((h) => (
        <li key={h.id}>
          <Link
            to={withQuery(route, { homeworkId: h.id })}
            className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 hover:bg-slate-50"
          >
            <span className="font-medium text-slate-800">{h.title}</span>
            <span className="text-sm text-slate-500">
              {h.subjectName} · {h.classes.map((c) => c.name).join('、')} · {h.startDate}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * /printgrade (per question) and /printgradetest (a test's sheet by section, with ranks): a score sheet per class of a
 * homework, filled from its results (the same figures as the analysis). Before any sheet is scanned it prints the
 * class's rows with empty score columns for entering scores by hand.
 */
export function GradeSheetPage({
  homeworkId,
  variant,
}: {
  homeworkId: string | null;
  variant: GradeSheetVariant;
}) {
  const ids = useId();
  const detail = useHomeworkDetail(homeworkId);
  const homework = detail.data;
  const error = Boolean(detail.error);
  const [classId, setClassId] = useState('');
  const [rosterText, setRosterText] = useState('');
  const [order, setOrder] = useState<'number' | 'rank'>(variant === 'questions' ? 'number' : 'rank');
  const gradeQuery = usePrintGrade(homeworkId, classId || null, order);
  const grade = hasResults(gradeQuery.data) ? gradeQuery.data : undefined;
  const route = variant === 'questions' ? paths.print.grade : paths.print.gradeTest;
  const title = variant === 'questions' ? tp.grade.title : tp.grade.testTitle;

  const columns = useMemo(() => (homework ? scoreColumns(homework, variant) : []), [homework, variant]);
  const landscape = variant === 'questions' && columns.length > PORTRAIT_MAX_COLUMNS;
  const pageW = landscape ? 297 : 210;
  const pageH = landscape ? 210 : 297;
  const classes = homework ? homework.classes.filter((c) => !classId || c.id === classId) : [];
  const roster = classId ? parseRoster(rosterText).students : null;
  const rankColumn = variant === 'test' && (!grade || grade.showRank);
  const pending = grade
    ? grade.classes.reduce((n, c) => n + c.rows.filter((r) => r.status === 'pending').length, 0)
    : 0;

  return (
    <PrintFrame
      title={title}
      subtitle={homework?.title}
      page={{ size: `A4 ${landscape ? 'landscape' : 'portrait'}`, margin: '12mm' }}
      canPrint={classes.length > 0}
      options={
        homework && (
          <>
            <Listbox
              label={tp.grade.classLabel}
              value={classId}
              options={[
                { value: '', label: tp.grade.allClasses },
                ...homework.classes.map((c) => ({ value: c.id, label: c.name })),
              ]}
              placeholder={tp.grade.allClasses}
              onChange={(v) => {
                setClassId(v);
                setRosterText('');
              }}
            />
            {grade && (
              <Listbox
                label={tp.grade.orderLabel}
                value={order}
                options={[
                  { value: 'number', label: tp.grade.orderNumber },
                  { value: 'rank', label: tp.grade.orderRank },
                ]}
                placeholder={tp.grade.orderNumber}
                onChange={setOrder}
              />
            )}
            <Link
              className="text-blue-600 hover:underline"
              to={withQuery(variant === 'questions' ? paths.print.gradeTest : paths.print.grade, {
                homeworkId,
              })}
            >
              {variant === 'questions' ? tp.grade.toTest : tp.grade.toQuestions}
            </Link>
          </>
        )
      }
    >
      {!homeworkId ? (
        <div className="mx-auto max-w-3xl rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          <h2 className="border-b border-slate-100 px-4 py-3 font-semibold text-slate-800">
            {tp.grade.pick}
          </h2>
          <HomeworkPicker route={route} />
        </div>
      ) : !homework ? (
        <div className="mx-auto max-w-3xl rounded-xl bg-white p-8">
          {error ? <Empty title={tp.grade.failed} /> : <SkeletonLines lines={8} />}
        </div>
      ) : (
        <>
          {grade ? (
            <ScreenNote>
              {tp.grade.fromResults(new Date(grade.printedAt).toLocaleString('zh-CN', { hour12: false }))}
              {pending > 0 && <> {tp.grade.pendingNote(pending)}</>}
            </ScreenNote>
          ) : (
            <ScreenNote tone="warn">
              {gradeQuery.error ? tp.grade.resultsFailed : tp.grade.noScores(homework.stateName)}
            </ScreenNote>
          )}
          {classId && !grade && (
            <div data-print="hide" className="mx-auto mb-4 max-w-4xl space-y-1 print:hidden">
              <label htmlFor={`${ids}-roster`} className="block text-sm font-medium text-slate-700">
                {tp.grade.roster}
              </label>
              <textarea
                id={`${ids}-roster`}
                rows={3}
                value={rosterText}
                onChange={(e) => setRosterText(e.target.value)}
                placeholder={tp.code.rosterPlaceholder}
                className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              />
            </div>
          )}
          <FitWidth widthPx={pageW * PX_PER_MM}>
            <div className="space-y-6 print:space-y-0">
              {classes.map((c, index) => {
                const results = grade?.classes.find((x) => x.classId === c.id);
                const rows = sheetRows(c, roster);
                return (
                  <section
                    key={c.id}
                    aria-label={tp.grade.sheetLabel(c.name)}
                    data-testid="grade-sheet"
                    className="print-sheet bg-white p-[12mm] text-black shadow-lg print:p-0"
                    style={{
                      width: `${pageW}mm`,
                      minHeight: `${pageH}mm`,
                      breakAfter: index < classes.length - 1 ? 'page' : 'auto',
                      fontSize: '9.5pt',
                    }}
                  >
                    <header className="mb-[3mm] text-center">
                      <h2 className="text-[14pt] font-bold">{tp.grade.sheetTitle(homework.title, c.name)}</h2>
                      <p className="text-[9pt] text-slate-700">
                        {tp.grade.meta(
                          homework.subjectName,
                          homework.typeName,
                          homework.startDate,
                          homework.dueDate,
                          homework.totalScore,
                          c.studentCount,
                        )}
                      </p>
                    </header>
                    <table
                      className="w-full table-fixed border-collapse text-center"
                      data-testid="grade-table"
                    >
                      <thead>
                        <tr>
                          <th className="w-[9mm] border border-black py-[1mm] font-semibold">
                            {tp.grade.seq}
                          </th>
                          <th className="w-[20mm] border border-black font-semibold">
                            {variant === 'questions' ? tp.grade.number : tp.grade.examNumber}
                          </th>
                          <th className="w-[18mm] border border-black font-semibold">{tp.grade.name}</th>
                          {columns.map((col) => (
                            <th
                              key={col.key}
                              className="border border-black px-[0.5mm] leading-tight font-semibold"
                            >
                              {col.label}
                              {col.sub && <span className="block text-[7pt] font-normal">{col.sub}</span>}
                            </th>
                          ))}
                          <th className="w-[13mm] border border-black font-semibold">
                            {tp.grade.total}
                            <span className="block text-[7pt] font-normal">
                              {tp.grade.points(homework.totalScore)}
                            </span>
                          </th>
                          {rankColumn && (
                            <th className="w-[12mm] border border-black font-semibold">{tp.grade.rank}</th>
                          )}
                        </tr>
                      </thead>
                      <tbody>
                        {grade && results
                          ? results.rows.map((r) => (
                              <tr key={r.studentId} className="h-[5.8mm] break-inside-avoid">
                                <td className="border border-black">{r.index}</td>
                                <td className="border border-black">{r.studentNo}</td>
                                <td className="truncate border border-black">{r.name}</td>
                                {scoreCells(homework, variant, grade, r).map((v, i) => (
                                  <td key={columns[i]?.key ?? i} className="border border-black">
                                    {shown(v)}
                                  </td>
                                ))}
                                <td className="border border-black font-semibold">
                                  {r.status === 'scored' ? shown(r.total) : r.statusName}
                                </td>
                                {rankColumn && <td className="border border-black">{shown(r.classRank)}</td>}
                              </tr>
                            ))
                          : rows.map((s, i) => (
                              <tr key={i} className="h-[5.8mm] break-inside-avoid">
                                <td className="border border-black">{i + 1}</td>
                                <td className="border border-black">{s?.number ?? ''}</td>
                                <td className="truncate border border-black">{s?.name ?? ''}</td>
                                {columns.map((col) => (
                                  <td key={col.key} className="border border-black" />
                                ))}
                                <td className="border border-black" />
                                {rankColumn && <td className="border border-black" />}
                              </tr>
                            ))}
                      </tbody>
                    </table>
                    {grade && results && (
                      <p className="mt-[2mm] text-[8.5pt]" data-testid="grade-summary">
                        {results.summary.scoredCount > 0 &&
                          `${tp.grade.summary(
                            results.summary.average,
                            results.summary.max,
                            results.summary.min,
                            results.summary.passRate,
                          )} · `}
                        {tp.grade.counts(
                          results.summary.scoredCount,
                          results.summary.pendingCount,
                          results.summary.absentCount,
                        )}
                      </p>
                    )}
                    <p className="mt-[2mm] text-right text-[8pt] text-slate-600">{tp.grade.footer}</p>
                  </section>
                );
              })}
            </div>
          </FitWidth>
        </>
      )}
    </PrintFrame>
  );
}
