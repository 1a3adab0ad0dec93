import { useState } from 'react';
import { RichText } from '../../../components/rich-text';
import { ButtonLink } from '../../../components/ui/button';
import { paths, withQuery } from '../../../config/paths';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import { PaperState, PrintQuestion, Sheet, paperPage, usePrintablePaper } from './paper-print';
import { Checkbox } from '../../../components/ui/checkbox';
import { PrintFrame } from './print-frame';

/**
 * /printanswer: the teacher copy — a quick table of the choice answers, then every question's answer and analysis
 * (and, if wanted, the question itself), laid out on the paper's own page settings in one column.
 */
export function AnswerPrintPage({
  paperId,
  homeworkId,
}: {
  paperId: string | null;
  homeworkId: string | null;
}) {
  const { paper, error } = usePrintablePaper({ paperId, homeworkId });
  const [withQuestions, setWithQuestions] = useState(false);
  const [withAnalysis, setWithAnalysis] = useState(true);
  const missing = !paperId && !homeworkId;
  // The teacher copy reads best in one column whatever the paper uses.
  const settings = paper ? { ...paper.settings, columns: 1 as const, sealingLine: false } : null;
  const g = settings ? paperPage(settings) : null;
  const choices = paper
    ? paper.sections.flatMap((s) => s.items).filter((i) => i.question && i.question.options.length > 0)
    : [];
  const paperHref = withQuery(paths.print.printing, homeworkId ? { homeworkId } : { paperId });

  return (
    <PrintFrame
      title={tp.answer.title}
      subtitle={paper?.title}
      page={g?.spec ?? { size: 'A4 portrait', margin: '20mm' }}
      canPrint={Boolean(paper)}
      actions={
        paper && (
          <ButtonLink variant="secondary" to={paperHref}>
            {tp.answer.toPaper}
          </ButtonLink>
        )
      }
      options={
        paper && (
          <>
            <Checkbox className="text-slate-600" checked={withAnalysis} onChange={setWithAnalysis}>
              {tp.answer.withAnalysis}
            </Checkbox>
            <Checkbox className="text-slate-600" checked={withQuestions} onChange={setWithQuestions}>
              {tp.answer.withQuestions}
            </Checkbox>
          </>
        )
      }
    >
      {!paper || !settings ? (
        <PaperState error={error} missing={missing} />
      ) : (
        <Sheet settings={settings} label={tp.answer.sheetLabel(paper.title)}>
          <header className="mb-[5mm] text-center">
            <h2 className="text-[1.5em] font-bold">{paper.title}</h2>
            <p className="text-[1.05em]">{tp.answer.heading}</p>
          </header>
          {choices.length > 0 && (
            <section aria-label={tp.answer.quick} className="mb-[5mm]">
              <h3 className="mb-[1.5mm] font-bold">{tp.answer.quick}</h3>
              <table className="w-full table-fixed border-collapse text-center text-[0.92em]">
                <tbody>
                  {Array.from({ length: Math.ceil(choices.length / 10) }, (_, row) => {
                    const part = choices.slice(row * 10, row * 10 + 10);
                    return [
                      <tr key={`n${row}`}>
                        <th className="w-[14mm] border border-black bg-slate-50 font-normal">
                          {tp.answer.no}
                        </th>
                        {part.map((i) => (
                          <td key={i.id} className="border border-black">
                            {i.no}
                          </td>
                        ))}
                      </tr>,
                      <tr key={`a${row}`}>
                        <th className="border border-black bg-slate-50 font-normal">{tp.answer.key}</th>
                        {part.map((i) => (
                          <td
                            key={i.id}
                            className="border border-black font-semibold"
                            data-testid="quick-answer"
                          >
                            <RichText html={i.question!.answer} inline />
                          </td>
                        ))}
                      </tr>,
                    ];
                  })}
                </tbody>
              </table>
            </section>
          )}
          {paper.sections.map((s) => (
            <section key={s.id} aria-label={s.heading} className="mb-[4mm]">
              <h3 className="mb-[1.5mm] font-bold break-after-avoid">{s.heading}</h3>
              {s.items.map((item) =>
                withQuestions ? (
                  <div key={item.id} className="break-inside-avoid-page">
                    <PrintQuestion item={item} showAnswer />
                    {withAnalysis && item.question?.analysis && (
                      <div className="-mt-[2mm] mb-[3mm] pl-[5mm] text-[0.92em]">
                        <span className="font-semibold">{tp.answer.analysis}</span>
                        <RichText html={item.question.analysis} inline />
                      </div>
                    )}
                  </div>
                ) : (
                  <div key={item.id} className="mb-[2.5mm] break-inside-avoid" data-testid="answer-item">
                    <div className="flex gap-[1.5mm]">
                      <span className="shrink-0 font-semibold">{item.no}.</span>
                      {item.question?.answer ? (
                        <RichText html={item.question.answer} className="min-w-0 flex-1" />
                      ) : (
                        <span className="text-slate-500">
                          {item.question ? tp.paper.none : tp.paper.deleted}
                        </span>
                      )}
                    </div>
                    {withAnalysis && item.question?.analysis && (
                      <div className="flex gap-[1mm] pl-[5mm] text-[0.92em] text-slate-800">
                        <span className="shrink-0 font-semibold">{tp.answer.analysis}</span>
                        <RichText html={item.question.analysis} className="min-w-0 flex-1" />
                      </div>
                    )}
                    {withAnalysis && item.question && item.question.knowledgePoints.length > 0 && (
                      <p className="pl-[5mm] text-[0.85em] text-slate-600">
                        {tp.answer.points(item.question.knowledgePoints.map((k) => k.name).join('、'))}
                      </p>
                    )}
                  </div>
                ),
              )}
            </section>
          ))}
        </Sheet>
      )}
    </PrintFrame>
  );
}
