import { useState } from 'react';
import type { AnswerSample, Commentary, CommentaryQuestion, PaperScore } from '@zhzy/contracts';
import { Chart } from '../../../components/charts/chart';
import { RichText } from '../../../components/rich-text';
import { ReportTable } from '../../../components/ui/report-table';
import { fmt, zhAnalysis as ta } from '../../../i18n/analysis';
import { cn } from '../../../lib/utils';
import { usePaperScores } from '../../../api/homework';
import { useCommentary } from '../api/analysis';
import { optionsOption, scoreDistributionOption } from '../utils/chart-options';
import { CropImage } from '../../../components/ui/crop-image';
import { HomeworkHeader, HomeworkLinks, LoadState, NoHomework, NoResults, Panel } from './parts';
import { HomeworkToolbar, useNoHomework, useAnalysisSelection } from './selection';

const tc = ta.commentary;

function Sample({ s, tone }: { s: AnswerSample; tone: 'bad' | 'good' }) {
  return (
    <figure
      className={cn(
        'space-y-1 rounded-lg border p-2',
        tone === 'bad' ? 'border-rose-100' : 'border-emerald-100',
      )}
    >
      <figcaption className="flex justify-between text-xs text-slate-600">
        <span>
          {s.className} {s.name}
        </span>
        <span className={tone === 'bad' ? 'text-rose-600' : 'text-emerald-700'}>
          {tc.scoreOf(fmt.num(s.score), fmt.num(s.fullScore))}
          {s.response !== null && ` · ${tc.responseOf(s.response)}`}
        </span>
      </figcaption>
      {s.cropUrl ? (
        <CropImage url={s.cropUrl} alt={`${s.name}`} className="max-h-48 w-full object-contain" />
      ) : (
        s.response === null && <p className="text-xs text-slate-500">{tc.noCrop}</p>
      )}
    </figure>
  );
}

/** The answers of an objective question as bars: the key (full marks) in green, each wrong response in red. */
function responseStats(q: CommentaryQuestion) {
  const n = Math.max(1, q.answerCount);
  return [
    { option: q.correctAnswer, count: q.fullCount, rate: q.fullCount / n, correct: true },
    ...q.wrongResponses.map((w) => ({
      option: w.response || ta.person.blank,
      count: w.count,
      rate: w.rate,
      correct: false,
    })),
  ];
}

/** Paper-marked crops shown per question: the lowest scores, for 讲评. */
const PAPER_CROPS = 4;

/**
 * A question marked on paper (纸上批阅, ADR 0065): the crops of the answers with the teacher's red marks and score
 * boxes, lowest score first, for 讲评 beside the typical errors.
 */
function PaperMarked({ scores }: { scores: PaperScore[] }) {
  const shown = scores.slice(0, PAPER_CROPS);
  return (
    <div className="mt-4 space-y-2" data-testid="paper-marked">
      <h4 className="text-sm font-medium text-rose-700">
        {tc.paperMarked}
        <span className="ml-2 text-xs font-normal text-slate-500">
          {tc.paperMarkedHint(shown.length, scores.length)}
        </span>
      </h4>
      <div className="grid gap-3 sm:grid-cols-2">
        {shown.map((p) => (
          <figure key={p.id} className="space-y-1 rounded-lg border border-rose-100 p-2">
            <figcaption className="flex justify-between text-xs text-slate-600">
              <span>
                {p.className} {p.studentName}
              </span>
              <span className="text-rose-600">{tc.scoreOf(fmt.num(p.score ?? 0), fmt.num(p.fullScore))}</span>
            </figcaption>
            <CropImage url={p.cropUrl} alt={`${p.studentName}`} className="max-h-48 w-full object-contain" />
          </figure>
        ))}
      </div>
    </div>
  );
}

/** The paper-marked boxes of a homework with a score, by question, lowest score first (within the class scope). */
function usePaperMarked(c: Commentary): Map<string, PaperScore[]> {
  const { data } = usePaperScores(c.homework.id, 'all');
  const byQuestion = new Map<string, PaperScore[]>();
  for (const p of data ?? []) {
    if (p.score === null || !p.cropUrl) continue;
    if (c.scope.classId && p.className !== c.scope.name) continue;
    byQuestion.set(p.questionId, [...(byQuestion.get(p.questionId) ?? []), p]);
  }
  for (const list of byQuestion.values())
    list.sort((a, b) => a.score! / a.fullScore - b.score! / b.fullScore);
  return byQuestion;
}

function QuestionCard({ q, paper }: { q: CommentaryQuestion; paper: PaperScore[] | undefined }) {
  const [stem, setStem] = useState(false);
  return (
    <Panel
      title={`${ta.charts.question(q.no)} · ${q.typeName}`}
      description={
        <span className="flex flex-wrap gap-x-3">
          <span>{tc.priority(q.priority)}</span>
          <span>{tc.lost(fmt.num(q.lostScore))}</span>
          <span>{tc.rateLine(fmt.pct(q.scoreRate), q.difficultyName, fmt.num(q.discrimination, 2))}</span>
          {q.needsDiscussion && (
            <span className="rounded bg-rose-50 px-1.5 font-medium text-rose-700">{tc.needs}</span>
          )}
        </span>
      }
      actions={
        <button
          type="button"
          className="text-sm text-blue-600 hover:underline"
          onClick={() => setStem((v) => !v)}
        >
          {tc.showStem}
        </button>
      }
    >
      {stem && (
        <div className="mb-3 space-y-2 rounded-md bg-slate-50 p-3 text-sm leading-7">
          <RichText html={q.stem} />
          {q.options.map((o) => (
            <div key={o.label} className="flex gap-1">
              <span>{o.label}.</span>
              <RichText html={o.content} />
            </div>
          ))}
          <p className="text-emerald-700">
            {tc.answer}：<RichText html={q.correctAnswer} inline />
          </p>
          {q.analysis && (
            <div>
              {tc.analysis}：<RichText html={q.analysis} inline />
            </div>
          )}
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <div>
          <h4 className="mb-1 text-sm font-medium text-slate-700">{tc.wrongResponses}</h4>
          {q.objective ? (
            <>
              <Chart
                option={optionsOption(responseStats(q))}
                label={ta.charts.optionsLabel(q.no)}
                height={200}
              />
              <ul className="mt-2 space-y-1 text-xs text-slate-600">
                {q.wrongResponses.map((w) => (
                  <li key={w.response}>
                    <span className="font-medium text-rose-600">{tc.responseOf(w.response)}</span>{' '}
                    {tc.studentsOf(w.count)}（{fmt.pct(w.rate, 0)}）：{w.students.join('、')}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <Chart
              option={scoreDistributionOption(q.scoreDistribution)}
              label={ta.charts.scoreDistribution(q.no)}
              height={200}
            />
          )}
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-2">
            <h4 className="text-sm font-medium text-rose-700">{tc.typical}</h4>
            {q.typicalAnswers.length === 0 ? (
              <p className="text-xs text-slate-500">{tc.noSamples}</p>
            ) : (
              q.typicalAnswers.map((s) => <Sample key={s.studentId} s={s} tone="bad" />)
            )}
          </div>
          <div className="space-y-2">
            <h4 className="text-sm font-medium text-emerald-700">{tc.exemplary}</h4>
            {q.exemplaryAnswers.length === 0 ? (
              <p className="text-xs text-slate-500">{tc.noSamples}</p>
            ) : (
              q.exemplaryAnswers.map((s) => <Sample key={s.studentId} s={s} tone="good" />)
            )}
          </div>
        </div>
      </div>
      {paper && paper.length > 0 && <PaperMarked scores={paper} />}
      {q.wrongStudents.length > 0 && (
        <p className="mt-3 text-xs leading-5 text-slate-500">
          {tc.wrongStudents}（{q.wrongStudents.length}）：{q.wrongStudents.join('、')}
        </p>
      )}
    </Panel>
  );
}

function CommentaryBody({ c }: { c: Commentary }) {
  const [onlyNeeds, setOnlyNeeds] = useState(true);
  const paper = usePaperMarked(c);
  const shown =
    onlyNeeds && c.questions.some((q) => q.needsDiscussion)
      ? c.questions.filter((q) => q.needsDiscussion)
      : c.questions;
  const col = ta.tables.col;
  return (
    <div className="space-y-4">
      <HomeworkHeader
        homework={c.homework}
        summary={c.summary}
        scopeName={c.scope.name}
        generatedAt={c.generatedAt}
        links={<HomeworkLinks homeworkId={c.homework.id} classId={c.scope.classId} except="commentary" />}
      />
      {c.summary.scoredCount === 0 ? (
        <NoResults homework={c.homework} summary={c.summary} />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-blue-100 bg-blue-50 px-4 py-3 text-sm text-blue-900">
            <p>{tc.intro}</p>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={onlyNeeds} onChange={(e) => setOnlyNeeds(e.target.checked)} />
              {tc.onlyNeeds}
            </label>
          </div>
          {shown.map((q) => (
            <QuestionCard key={q.questionId} q={q} paper={paper.get(q.questionId)} />
          ))}
          <Panel>
            <ReportTable
              title={tc.followUp}
              columns={[
                { key: 'name', header: col.name, value: (s) => s.name },
                { key: 'no', header: col.studentNo, value: (s) => s.studentNo },
                { key: 'class', header: col.className, value: (s) => s.className },
                { key: 'total', header: col.total, value: (s) => s.total, align: 'right' },
                {
                  key: 'rate',
                  header: col.scoreRate,
                  value: (s) => Math.round(s.scoreRate * 1000) / 10,
                  cell: (s) => fmt.pct(s.scoreRate),
                  align: 'right',
                },
                { key: 'reason', header: col.status, value: (s) => s.reasonText },
              ]}
              rows={c.followUp}
              rowKey={(s) => s.studentId}
              fileName={[c.homework.title, c.scope.name]}
              empty={tc.followUpEmpty}
            />
          </Panel>
        </>
      )}
    </div>
  );
}

/** /assistant/commentary: 讲评 — questions by need, wrong answers, typical and exemplary answers, follow-up. */
export function CommentaryScreen() {
  const sel = useAnalysisSelection();
  const none = useNoHomework();
  const commentary = useCommentary(sel.homeworkId, sel.classId);
  return (
    <div className="space-y-4">
      <HomeworkToolbar classMode="optional" />
      {none.empty ? (
        <NoHomework />
      ) : commentary.data ? (
        <CommentaryBody c={commentary.data} />
      ) : (
        <LoadState error={commentary.error as unknown} onRetry={() => void commentary.mutate()} />
      )}
    </div>
  );
}
