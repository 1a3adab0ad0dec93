import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { PAPER_LAYOUT_MM, type PaperSection, type PaperSettings } from '@zhzy/contracts';
import { RichText } from '../../../components/rich-text';
import { optionColumns } from '../../../components/ui/question-body';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';

const s = composition.paperset;
/** CSS pixels per millimetre at 96 dpi. */
const PX_PER_MM = 96 / 25.4;
/** Gap between two columns, in millimetres. */
const COLUMN_GAP_MM = 8;

export interface PreviewPaper {
  title: string;
  subtitle: string;
  totalScore: number;
  sections: PaperSection[];
}

/** Page geometry of the settings, in CSS pixels: A3 and B4 in two columns are printed landscape. */
export function pageGeometry(settings: PaperSettings) {
  const size = PAPER_LAYOUT_MM[settings.paperSize];
  const wide = settings.paperSize === 'A3' || settings.paperSize === 'B4';
  const columns = settings.columns ?? (wide ? 2 : 1);
  const landscape = wide && columns === 2;
  const widthMm = landscape ? size.height : size.width;
  const heightMm = landscape ? size.width : size.height;
  const m = settings.margins;
  const contentW = (widthMm - m.left - m.right) * PX_PER_MM;
  const contentH = (heightMm - m.top - m.bottom) * PX_PER_MM;
  const gap = COLUMN_GAP_MM * PX_PER_MM;
  return {
    width: widthMm * PX_PER_MM,
    height: heightMm * PX_PER_MM,
    columns,
    columnWidth: (contentW - gap * (columns - 1)) / columns,
    columnHeight: contentH,
    gap,
  };
}

interface Block {
  key: string;
  node: ReactNode;
}

/**
 * Packs blocks of known heights into columns of a fixed height, in order; a block taller than a column gets a
 * column of its own. Returns the block indexes of every column.
 */
export function packColumns(heights: number[], columnHeight: number): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let used = 0;
  heights.forEach((h, i) => {
    if (current.length > 0 && used + h > columnHeight) {
      out.push(current);
      current = [];
      used = 0;
    }
    current.push(i);
    used += h;
  });
  if (current.length > 0) out.push(current);
  return out;
}

const fmt = (n: number) => String(Math.round(n * 10) / 10);

function PrintQuestion({
  no,
  html,
  options,
  answer,
}: {
  no: number;
  html: string;
  options: { label: string; content: string }[];
  answer?: string;
}) {
  const cols = optionColumns(options);
  return (
    <div className="pb-[0.6em]">
      <div className="flex gap-[0.3em]">
        <span className="shrink-0">{no}.</span>
        <RichText html={html} className="min-w-0 flex-1" />
      </div>
      {options.length > 0 && (
        <div
          className={cn(
            'grid gap-x-[1em] pl-[1.2em]',
            cols === 4 ? 'grid-cols-4' : cols === 2 ? 'grid-cols-2' : 'grid-cols-1',
          )}
        >
          {options.map((o) => (
            <div key={o.label} className="flex gap-[0.25em]">
              <span>{o.label}.</span>
              <RichText html={o.content} inline />
            </div>
          ))}
        </div>
      )}
      {answer !== undefined && (
        <div className="mt-[0.2em] flex gap-[0.3em] text-[0.92em] text-blue-800">
          <span className="shrink-0">{s.answerLabel}</span>
          <RichText html={answer || s.noAnswer} className="min-w-0" />
        </div>
      )}
    </div>
  );
}

/** The blocks of a paper, in reading order, as the settings lay them out. */
function blocksOf(paper: PreviewPaper, settings: PaperSettings, copy: 'student' | 'teacher'): Block[] {
  const blocks: Block[] = [];
  const h = settings.header;
  const info: string[] = [];
  if (h.examMinutes !== null) info.push(s.examLine(h.examMinutes));
  if (h.showFullScore) info.push(s.fullScoreLine(fmt(paper.totalScore)));
  blocks.push({
    key: 'header',
    node: (
      <div className="pb-[0.8em] text-center">
        {h.school && <p className="text-[1.1em]">{h.school}</p>}
        {h.showTitle && <p className="text-[1.45em] leading-snug font-bold">{paper.title}</p>}
        {h.showSubtitle && paper.subtitle && <p className="text-[1.05em]">{paper.subtitle}</p>}
        {copy === 'teacher' && <p className="text-[0.95em] text-blue-800">{s.teacherCopyMark}</p>}
        {info.length > 0 && <p className="mt-[0.3em] text-[0.95em]">{info.join('　　')}</p>}
        {settings.studentInfo.show && settings.studentInfo.fields.length > 0 && (
          <p className="mt-[0.4em] flex flex-wrap justify-center gap-x-[1.2em] text-[0.95em]">
            {settings.studentInfo.fields.map((f) => (
              <span key={f}>
                {f}：<span className="inline-block w-[5em] border-b border-current" />
              </span>
            ))}
          </p>
        )}
        {settings.scoreTable && paper.sections.length > 0 && (
          <table className="mx-auto mt-[0.5em] border-collapse text-[0.9em]">
            <tbody>
              <tr>
                <th className="border border-current px-[0.6em] font-normal">{s.scoreTableNo}</th>
                {paper.sections.map((x) => (
                  <td key={x.id} className="border border-current px-[0.8em]">
                    {x.number}
                  </td>
                ))}
                <td className="border border-current px-[0.6em]">{s.scoreTableTotal}</td>
              </tr>
              <tr>
                <th className="border border-current px-[0.6em] font-normal">{s.scoreTableScore}</th>
                {paper.sections.map((x) => (
                  <td key={x.id} className="h-[1.6em] border border-current" />
                ))}
                <td className="border border-current" />
              </tr>
            </tbody>
          </table>
        )}
        {h.showNotice && h.notice.length > 0 && (
          <div className="mt-[0.5em] text-left text-[0.9em]">
            <p className="font-bold">{s.noticeTitle}</p>
            {h.notice.map((line, i) => (
              <p key={i}>
                {i + 1}. {line}
              </p>
            ))}
          </div>
        )}
      </div>
    ),
  });
  let no = 0;
  const withAnswers = copy === 'teacher';
  for (const section of paper.sections) {
    if (settings.numbering === 'perSection') no = 0;
    blocks.push({
      key: `h-${section.id}`,
      node: (
        <div className="pt-[0.3em] pb-[0.4em]">
          <p className="font-bold">{section.heading}</p>
          {section.note && <p className="text-[0.92em]">{section.note}</p>}
        </div>
      ),
    });
    for (const item of section.items) {
      no += 1;
      const q = item.question;
      blocks.push({
        key: `q-${item.id}`,
        node: q ? (
          <PrintQuestion
            no={no}
            html={q.stem}
            options={q.options}
            answer={withAnswers ? q.answer : undefined}
          />
        ) : (
          <p className="pb-[0.6em] text-slate-500">
            {no}. {composition.compose.deletedQuestion}
          </p>
        ),
      });
    }
  }
  if (copy === 'student' && settings.answers === 'end') {
    blocks.push({
      key: 'answers',
      node: <p className="pt-[0.6em] pb-[0.4em] text-center font-bold">{s.answersTitle}</p>,
    });
    no = 0;
    for (const section of paper.sections) {
      if (settings.numbering === 'perSection') no = 0;
      for (const item of section.items) {
        no += 1;
        blocks.push({
          key: `a-${item.id}`,
          node: (
            <div className="flex gap-[0.3em] pb-[0.3em] text-[0.92em]">
              <span className="shrink-0">{no}.</span>
              <RichText html={item.question?.answer || s.noAnswer} className="min-w-0" />
            </div>
          ),
        });
      }
    }
  }
  return blocks;
}

/** 密封线 down the left margin: the student fields, then the dashed line with its warning. */
function SealingLine({ settings, height }: { settings: PaperSettings; height: number }) {
  const left = settings.margins.left * PX_PER_MM;
  return (
    <div
      className="absolute top-0 left-0 flex items-center"
      style={{ width: left, height }}
      aria-hidden="true"
    >
      <div
        className="absolute flex items-center gap-[2em] whitespace-nowrap text-[0.85em]"
        style={{ left: left * 0.3, top: height / 2, transform: 'translate(-50%, -50%) rotate(-90deg)' }}
      >
        {settings.studentInfo.fields.map((f) => (
          <span key={f}>
            {f}：<span className="inline-block w-[5em] border-b border-current" />
          </span>
        ))}
      </div>
      <div
        className="absolute top-[5%] bottom-[5%] border-l border-dashed border-slate-500"
        style={{ left: left * 0.62 }}
      />
      <div
        className="absolute bg-white px-[0.3em] text-[0.8em] tracking-[1em] whitespace-nowrap text-slate-600"
        style={{ left: left * 0.62, top: height / 2, transform: 'translate(-50%, -50%) rotate(-90deg)' }}
      >
        {s.sealingText}
      </div>
    </div>
  );
}

/**
 * A live preview of the printed paper: the real questions laid out on scaled pages of the chosen size, margins,
 * columns and font size, with the header, student line, 密封线 and answers as the settings say.
 */
export function PaperPreview({
  paper,
  settings,
  copy = 'student',
  maxPages = 12,
}: {
  paper: PreviewPaper;
  settings: PaperSettings;
  copy?: 'student' | 'teacher';
  maxPages?: number;
}) {
  const geo = pageGeometry(settings);
  const blocks = useMemo(() => blocksOf(paper, settings, copy), [paper, settings, copy]);
  const measureRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [heights, setHeights] = useState<number[]>([]);
  const [boxWidth, setBoxWidth] = useState(0);
  const fontPx = (settings.fontSize * 96) / 72;

  // Measure every block at the column width; measure again whenever something inside changes size (formulas
  // are typeset after their chunk loads).
  useLayoutEffect(() => {
    const el = measureRef.current;
    if (!el) return;
    const read = () => setHeights([...el.children].map((c) => (c as HTMLElement).offsetHeight));
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, [blocks, geo.columnWidth, fontPx]);

  useLayoutEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const read = () => setBoxWidth(el.clientWidth);
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const columns =
    heights.length === blocks.length ? packColumns(heights, geo.columnHeight) : [blocks.map((_, i) => i)];
  const pages: number[][][] = [];
  for (let i = 0; i < columns.length; i += geo.columns) pages.push(columns.slice(i, i + geo.columns));
  const scale = boxWidth > 0 ? Math.min(1, boxWidth / geo.width) : 0.5;
  const shown = pages.slice(0, maxPages);
  const text = { fontSize: fontPx, lineHeight: 1.65 };

  return (
    <div ref={boxRef} className="w-full" data-testid="paper-preview">
      {/* Off-screen copy at the column width, only for measuring. */}
      <div
        ref={measureRef}
        aria-hidden="true"
        className="pointer-events-none invisible absolute top-0 left-[-10000px] font-serif text-black"
        style={{ width: geo.columnWidth, ...text }}
      >
        {blocks.map((b) => (
          <div key={b.key} className="flow-root">
            {b.node}
          </div>
        ))}
      </div>
      <p className="mb-3 text-sm text-slate-600" aria-live="polite">
        {s.previewSummary(s.sizeNames[settings.paperSize], geo.columns, pages.length)}
      </p>
      <div className="space-y-4">
        {shown.map((pageColumns, pi) => (
          <div
            key={pi}
            className="mx-auto overflow-hidden"
            style={{ width: geo.width * scale, height: geo.height * scale }}
          >
            <div
              role="img"
              aria-label={s.pageLabel(pi + 1, pages.length)}
              className="relative origin-top-left bg-white font-serif text-black shadow ring-1 ring-slate-200"
              style={{ width: geo.width, height: geo.height, transform: `scale(${scale})`, ...text }}
            >
              {settings.sealingLine && <SealingLine settings={settings} height={geo.height} />}
              <div
                className="absolute flex"
                style={{
                  left: settings.margins.left * PX_PER_MM,
                  top: settings.margins.top * PX_PER_MM,
                  width: geo.width - (settings.margins.left + settings.margins.right) * PX_PER_MM,
                  height: geo.columnHeight,
                  gap: geo.gap,
                }}
              >
                {pageColumns.map((col, ci) => (
                  <div
                    key={ci}
                    className="overflow-hidden"
                    style={{ width: geo.columnWidth, height: geo.columnHeight }}
                  >
                    {col.map((bi) => (
                      <div key={blocks[bi]!.key} className="flow-root">
                        {blocks[bi]!.node}
                      </div>
                    ))}
                  </div>
                ))}
              </div>
              <p
                className="absolute inset-x-0 text-center text-[0.85em]"
                style={{ bottom: (settings.margins.bottom * PX_PER_MM) / 2 - fontPx }}
              >
                {s.pageFooter(paper.title, pi + 1, pages.length)}
              </p>
            </div>
          </div>
        ))}
        {pages.length > shown.length && (
          <p className="text-center text-sm text-slate-500">{s.morePages(pages.length - shown.length)}</p>
        )}
      </div>
    </div>
  );
}
