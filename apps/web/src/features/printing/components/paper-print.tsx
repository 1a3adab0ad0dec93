import { useState, type ReactNode } from 'react';
import { PAPER_LAYOUT_MM, type PaperItem, type PaperSection, type PaperSettings } from '@zhzy/contracts';
import { RichText } from '../../../components/rich-text';
import { ButtonLink } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { optionColumns } from '../../../components/ui/question-body';
import { paths, withQuery } from '../../../config/paths';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';
import { useHomeworkDetail } from '../../../api/homework';
import { usePaperDetail } from '../../../api/papers';
import { CardPrintButton } from './card-print-dialog';
import { Checkbox } from '../../../components/ui/checkbox';
import { FitWidth, PrintFrame, ScreenNote, type PageSpec } from './print-frame';

const PX_PER_MM = 96 / 25.4;
const COLUMN_GAP_MM = 8;

/** What the print pages need of a paper: a saved paper or the frozen paper of a homework. */
export interface PrintablePaper {
  title: string;
  subtitle: string;
  totalScore: number;
  settings: PaperSettings;
  sections: PaperSection[];
}

/** The paper of `homeworkId` (as published) or of `paperId` (as saved now). */
export function usePrintablePaper(q: { paperId: string | null; homeworkId: string | null }) {
  const hw = useHomeworkDetail(q.homeworkId);
  const doc = usePaperDetail(q.homeworkId ? null : q.paperId);
  const paper: PrintablePaper | undefined = q.homeworkId ? hw.data?.paper : doc.data;
  const error = q.homeworkId ? Boolean(hw.error) : Boolean(doc.error);
  return { paper, error, homework: hw.data ?? null };
}

/** Page geometry of the settings: A3 and B4 in two columns print landscape. */
export function paperPage(settings: PaperSettings): {
  spec: PageSpec;
  widthMm: number;
  heightMm: number;
  columns: number;
} {
  const size = PAPER_LAYOUT_MM[settings.paperSize];
  const wide = settings.paperSize === 'A3' || settings.paperSize === 'B4';
  const columns = settings.columns ?? (wide ? 2 : 1);
  const landscape = wide && columns === 2;
  const widthMm = landscape ? size.height : size.width;
  const heightMm = landscape ? size.width : size.height;
  const m = settings.margins;
  return {
    spec: { size: `${widthMm}mm ${heightMm}mm`, margin: `${m.top}mm ${m.right}mm ${m.bottom}mm ${m.left}mm` },
    widthMm,
    heightMm,
    columns,
  };
}

/** The sheet on screen: the page's width and margins; in print the `@page` rule gives the margins instead. */
export function Sheet({
  settings,
  children,
  label,
}: {
  settings: PaperSettings;
  children: ReactNode;
  label: string;
}) {
  const g = paperPage(settings);
  const m = settings.margins;
  return (
    <FitWidth widthPx={g.widthMm * PX_PER_MM}>
      <article
        aria-label={label}
        className="print-sheet paper-sheet relative bg-white text-black shadow-lg"
        style={{
          width: `${g.widthMm}mm`,
          minHeight: `${g.heightMm}mm`,
          padding: `${m.top}mm ${m.right}mm ${m.bottom}mm ${m.left}mm`,
          fontSize: `${settings.fontSize}pt`,
          lineHeight: 1.75,
        }}
      >
        {children}
      </article>
      <style>{`@media print { .paper-sheet { width: auto !important; min-height: 0 !important; padding: 0 !important; } }`}</style>
    </FitWidth>
  );
}

/** 密封线 down the left margin: on screen along the sheet, in print on every page (fixed elements repeat). */
function SealingLine() {
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute top-0 bottom-0 left-[6mm] flex w-[5mm] items-center justify-center border-r border-dashed border-slate-400 print:fixed print:left-[-12mm]"
    >
      <span className="[writing-mode:vertical-rl] text-[9pt] tracking-[0.6em] text-slate-500">
        {tp.paper.sealing}
      </span>
    </div>
  );
}

function PaperHeader({ paper }: { paper: PrintablePaper }) {
  const h = paper.settings.header;
  const info = [
    h.examMinutes ? tp.paper.examMinutes(h.examMinutes) : null,
    h.showFullScore ? tp.paper.fullScore(paper.totalScore) : null,
  ].filter(Boolean);
  return (
    <header className="mb-[5mm] text-center" style={{ columnSpan: 'all' }}>
      {h.school && <p className="text-[1.1em] font-semibold">{h.school}</p>}
      {h.showTitle && <h2 className="text-[1.6em] leading-snug font-bold">{paper.title}</h2>}
      {h.showSubtitle && paper.subtitle && <p className="text-[1.05em]">{paper.subtitle}</p>}
      {info.length > 0 && <p className="mt-[1mm] text-[0.95em]">{info.join('\u3000')}</p>}
      {paper.settings.studentInfo.show && (
        <p className="mt-[3mm] flex flex-wrap justify-center gap-x-[6mm] gap-y-[1mm] text-[0.95em]">
          {paper.settings.studentInfo.fields.map((f) => (
            <span key={f} className="whitespace-nowrap">
              {f}：<span className="inline-block w-[24mm] border-b border-black align-bottom" />
            </span>
          ))}
        </p>
      )}
      {paper.settings.scoreTable && (
        <table className="mx-auto mt-[3mm] border-collapse text-[0.9em]">
          <tbody>
            <tr>
              <th className="border border-black px-[3mm] py-[0.5mm] font-normal">{tp.paper.scoreNo}</th>
              {paper.sections.map((s) => (
                <td key={s.id} className="min-w-[12mm] border border-black px-[2mm] py-[0.5mm]">
                  {s.number}
                </td>
              ))}
              <td className="min-w-[14mm] border border-black px-[2mm] py-[0.5mm]">{tp.paper.scoreTotal}</td>
            </tr>
            <tr>
              <th className="border border-black px-[3mm] py-[2.5mm] font-normal">{tp.paper.scoreGot}</th>
              {paper.sections.map((s) => (
                <td key={s.id} className="border border-black" />
              ))}
              <td className="border border-black" />
            </tr>
          </tbody>
        </table>
      )}
      {h.showNotice && h.notice.length > 0 && (
        <div className="mt-[3mm] text-left text-[0.9em]">
          <p className="font-semibold">{tp.paper.notice}</p>
          <ol className="list-decimal pl-[6mm]">
            {h.notice.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ol>
        </div>
      )}
    </header>
  );
}

/** One question as printed: number and stem, then its options in four, two or one columns. */
export function PrintQuestion({ item, showAnswer = false }: { item: PaperItem; showAnswer?: boolean }) {
  const q = item.question;
  if (!q) {
    return (
      <p className="break-inside-avoid text-slate-500">
        {item.no}. {tp.paper.deleted}
      </p>
    );
  }
  const cols = optionColumns(q.options);
  return (
    <div className="break-inside-avoid-page mb-[3mm]" data-testid="print-question">
      <div className="flex gap-[1.5mm]">
        <span className="shrink-0">{item.no}.</span>
        <RichText html={q.stem} className="min-w-0 flex-1" />
      </div>
      {q.options.length > 0 && (
        <ol
          className={cn(
            'mt-[1mm] grid gap-x-[6mm] pl-[5mm]',
            cols === 4 && 'grid-cols-4',
            cols === 2 && 'grid-cols-2',
          )}
        >
          {q.options.map((o) => (
            <li key={o.label} className="flex gap-[1mm]">
              <span className="shrink-0">{o.label}.</span>
              <RichText html={o.content} inline />
            </li>
          ))}
        </ol>
      )}
      {showAnswer && (
        <div className="mt-[1mm] pl-[5mm] text-[0.92em]">
          <span className="font-semibold">{tp.paper.answer}</span>
          {q.answer ? <RichText html={q.answer} inline /> : tp.paper.none}
        </div>
      )}
    </div>
  );
}

/** Loading, failure or the missing query of a print page that shows a paper. */
export function PaperState({ error, missing }: { error: boolean; missing: boolean }) {
  if (missing || error) {
    return (
      <div className="mx-auto max-w-xl rounded-xl bg-white">
        <Empty
          title={missing ? tp.paper.missing : tp.paper.failed}
          description={missing ? tp.paper.missingHint : undefined}
          action={
            <div className="flex gap-2">
              <ButtonLink to={paths.paperlist}>{tp.backToList}</ButtonLink>
              <ButtonLink to={paths.cloudResources.personPaper} variant="secondary">
                {tp.paper.myPapers}
              </ButtonLink>
            </div>
          }
        />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl rounded-xl bg-white p-8">
      <SkeletonLines lines={10} />
    </div>
  );
}

/**
 * /printing: the paper itself as its settings lay it out (size, margins, columns, header, sealing line, font size),
 * formulas typeset by KaTeX, optionally with the answers at the end; printed with the browser's 打印.
 */
export function PaperPrintPage({
  paperId,
  homeworkId,
}: {
  paperId: string | null;
  homeworkId: string | null;
}) {
  const { paper, error, homework } = usePrintablePaper({ paperId, homeworkId });
  const [answers, setAnswers] = useState<boolean | null>(null);
  const missing = !paperId && !homeworkId;
  const withAnswers = answers ?? paper?.settings.answers === 'end';
  const g = paper ? paperPage(paper.settings) : null;
  const answerHref = withQuery(paths.print.answer, homeworkId ? { homeworkId } : { paperId });

  return (
    <PrintFrame
      title={tp.paper.title}
      subtitle={paper?.title}
      page={g?.spec ?? { size: 'A4 portrait', margin: '20mm' }}
      canPrint={Boolean(paper)}
      actions={
        paper && (
          <>
            {/* The homework's answer cards print directly through the scan agent (or download as a PDF). */}
            {homework && <CardPrintButton homework={homework} variant="secondary" />}
            <ButtonLink variant="secondary" to={answerHref}>
              {tp.paper.toAnswers}
            </ButtonLink>
          </>
        )
      }
      options={
        paper && (
          <Checkbox className="text-slate-600" checked={withAnswers} onChange={setAnswers}>
            {tp.paper.withAnswers}
          </Checkbox>
        )
      }
    >
      {!paper || !g ? (
        <PaperState error={error} missing={missing} />
      ) : (
        <>
          <ScreenNote>{tp.paper.note(tp.paper.sizeName(paper.settings.paperSize, g.columns))}</ScreenNote>
          <Sheet settings={paper.settings} label={paper.title}>
            {paper.settings.sealingLine && <SealingLine />}
            <div
              style={{
                columnCount: g.columns,
                columnGap: `${COLUMN_GAP_MM}mm`,
                columnRule: g.columns > 1 ? '1px solid #d4d4d4' : undefined,
              }}
            >
              <PaperHeader paper={paper} />
              {paper.sections.map((s) => (
                <section key={s.id} aria-label={s.heading} className="mb-[4mm]">
                  <h3 className="mb-[1.5mm] font-bold break-after-avoid">{s.heading}</h3>
                  {s.note && <p className="mb-[1.5mm] text-[0.92em]">{s.note}</p>}
                  {s.items.map((item) => (
                    <PrintQuestion key={item.id} item={item} />
                  ))}
                </section>
              ))}
              {withAnswers && (
                <section aria-label={tp.paper.answersHeading} className="break-before-page">
                  <h3 className="mb-[2mm] text-center text-[1.2em] font-bold">{tp.paper.answersHeading}</h3>
                  {paper.sections.map((s) => (
                    <div key={s.id} className="mb-[3mm]">
                      <h4 className="font-bold">{s.heading}</h4>
                      {s.items.map((item) => (
                        <div key={item.id} className="flex gap-[1.5mm] break-inside-avoid">
                          <span className="shrink-0">{item.no}.</span>
                          {item.question?.answer ? (
                            <RichText html={item.question.answer} className="min-w-0 flex-1" />
                          ) : (
                            <span>{tp.paper.none}</span>
                          )}
                        </div>
                      ))}
                    </div>
                  ))}
                </section>
              )}
            </div>
          </Sheet>
        </>
      )}
    </PrintFrame>
  );
}
