import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Listbox } from '../../../components/ui/listbox';
import { Segmented } from '../../../components/ui/segmented';
import { paths } from '../../../config/paths';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import { useClassStudents, useDefaultYearClasses } from '../../../api/classes';
import { useHomeworkDetail } from '../../../api/homework';
import {
  labelSheet,
  labelsPerSheet,
  layoutLabels,
  LABEL_SHEETS,
  qrSideMm,
  type LabelSheetId,
} from '../utils/label-layout';
import type * as EngineModule from '../utils/barcode-engine';
import { FitWidth, PrintFrame, ScreenNote } from './print-frame';
import { QrSvg } from './qr-svg';

const PX_PER_MM = 96 / 25.4;
type CodeKind = 'qr' | 'barcode';
type Engine = typeof EngineModule;

/** A CODE128 of the number, as wide as the label allows (bwip-js, loaded only when barcodes are chosen). */
function LabelBarcode({
  engine,
  value,
  widthMm,
  heightMm,
}: {
  engine: Engine;
  value: string;
  widthMm: number;
  heightMm: number;
}) {
  const svg = useMemo(() => {
    try {
      return engine.renderBarcodeSvg('code128', value, {
        width: 2,
        height: 60,
        fontSize: 20,
        margin: 0,
        displayValue: false,
      }).svg;
    } catch {
      return null;
    }
  }, [engine, value]);
  if (!svg) return null;
  return (
    <div
      style={{ width: `${widthMm}mm`, height: `${heightMm}mm` }}
      // bwip-js output: bars as paths, no text from the input.
      dangerouslySetInnerHTML={{
        __html: svg.replace('<svg ', '<svg width="100%" height="100%" preserveAspectRatio="none" '),
      }}
    />
  );
}

/**
 * /printcode: a label per student — a QR code (or a CODE128 barcode for the sticker zone of barcode cards) of the
 * student number with the name and number under it — laid out for common A4 label sheets. The students come from the
 * school's roster for the chosen class; opened from a homework (?homeworkId=) the classes are that homework's.
 */
export function LabelPage({ orgId, homeworkId }: { orgId: string | null; homeworkId: string | null }) {
  const ids = useId();
  const { data: years } = useDefaultYearClasses(homeworkId ? null : orgId);
  const { data: homework } = useHomeworkDetail(homeworkId);
  const classes = homeworkId ? (homework?.classes ?? []) : (years?.classes ?? []);
  const [sheetId, setSheetId] = useState<LabelSheetId>('a4-3x8');
  const [kind, setKind] = useState<CodeKind>('qr');
  const [classId, setClassId] = useState<string>('');
  const [skip, setSkip] = useState(0);
  const [engine, setEngine] = useState<Engine | null>(null);

  useEffect(() => {
    if (kind !== 'barcode' || engine) return;
    let live = true;
    void import('../utils/barcode-engine').then((m) => {
      if (live) setEngine(m);
    });
    return () => {
      live = false;
    };
  }, [kind, engine]);

  const sheet = labelSheet(sheetId);
  // The first class is chosen until the teacher picks another.
  const chosen = classId || classes[0]?.id || '';
  const { data: roster, isLoading } = useClassStudents(chosen || null);
  const students = useMemo(
    () => (roster ?? []).map((r) => ({ number: r.studentNo, name: r.name })),
    [roster],
  );
  const pages = useMemo(() => layoutLabels(sheet, students.length, skip), [sheet, students.length, skip]);
  const className = classes.find((c) => c.id === chosen)?.name ?? '';
  const side = qrSideMm(sheet);
  const nameMm = Math.min(4.2, sheet.labelHeightMm * 0.12);
  const lineMm = Math.min(3.2, sheet.labelHeightMm * 0.095);

  return (
    <PrintFrame
      title={tp.code.title}
      subtitle={tp.code.subtitle}
      page={{ size: `${sheet.pageWidthMm}mm ${sheet.pageHeightMm}mm`, margin: '0' }}
      canPrint={students.length > 0}
      options={
        <>
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-slate-500">{tp.code.sheet}</span>
            <Segmented
              label={tp.code.sheet}
              value={sheetId}
              options={LABEL_SHEETS.map((s) => ({ value: s.id, label: tp.code.sheets[s.id] }))}
              onChange={setSheetId}
            />
          </div>
          <div className="flex items-center gap-2">
            <span className="text-slate-500">{tp.code.kind}</span>
            <Segmented
              label={tp.code.kind}
              value={kind}
              options={[
                { value: 'qr', label: tp.code.kinds.qr },
                { value: 'barcode', label: tp.code.kinds.barcode },
              ]}
              onChange={setKind}
            />
          </div>
          <Listbox
            label={tp.code.className}
            value={chosen || null}
            options={classes.map((c) => ({ value: c.id, label: c.name }))}
            placeholder={tp.code.chooseClass}
            onChange={setClassId}
          />
          <label htmlFor={`${ids}-skip`} className="flex items-center gap-2 text-slate-600">
            {tp.code.skip}
            <input
              id={`${ids}-skip`}
              type="number"
              min={0}
              max={labelsPerSheet(sheet) - 1}
              value={skip}
              onChange={(e) =>
                setSkip(Math.max(0, Math.min(labelsPerSheet(sheet) - 1, Number(e.target.value) || 0)))
              }
              className="h-8 w-16 rounded-md border border-slate-300 px-2 text-slate-900"
            />
          </label>
        </>
      }
    >
      <div data-print="hide" className="mx-auto mb-4 max-w-4xl space-y-2 print:hidden">
        {homework && (
          <p className="text-sm font-medium text-slate-800">{tp.code.forHomework(homework.title)}</p>
        )}
        <p className="text-xs leading-5 text-slate-600" data-testid="label-summary">
          {isLoading
            ? tp.code.loading
            : tp.code.summary(students.length, pages.length, labelsPerSheet(sheet))}
          {!isLoading && chosen && students.length > 0 && <span> {tp.code.fromRoster(className)}</span>}
        </p>
        {kind === 'barcode' ? (
          <p className="text-xs leading-5 text-slate-600">{tp.code.barcodeNote}</p>
        ) : (
          <p className="text-xs leading-5 text-slate-600">
            {tp.code.qrNote}{' '}
            <Link
              to={paths.print.barcode}
              className="text-blue-700 underline underline-offset-2 hover:text-blue-800"
            >
              {tp.code.toBarcode}
            </Link>
          </p>
        )}
      </div>
      {pages.length === 0 ? (
        <ScreenNote>{chosen ? tp.code.emptyClass : tp.code.empty}</ScreenNote>
      ) : (
        <FitWidth widthPx={sheet.pageWidthMm * PX_PER_MM}>
          <div className="space-y-6 print:space-y-0">
            {pages.map((page) => (
              <div
                key={page.index}
                data-testid="label-page"
                className="print-sheet relative overflow-hidden bg-white shadow-lg"
                style={{
                  width: `${sheet.pageWidthMm}mm`,
                  height: `${sheet.pageHeightMm}mm`,
                  breakAfter: page.index < pages.length - 1 ? 'page' : 'auto',
                }}
              >
                {page.labels.map((l) => {
                  const s = students[l.item]!;
                  return (
                    <div
                      key={l.item}
                      data-testid="label"
                      className="absolute flex flex-col items-center justify-center overflow-hidden border border-dashed border-slate-200 text-center text-black print:border-transparent"
                      style={{
                        left: `${l.x}mm`,
                        top: `${l.y}mm`,
                        width: `${l.w}mm`,
                        height: `${l.h}mm`,
                        padding: '1.5mm',
                      }}
                    >
                      {kind === 'qr' ? (
                        <QrSvg
                          value={s.number}
                          title={tp.code.qrLabel(s.number)}
                          className="block shrink-0"
                          style={{ width: `${side}mm`, height: `${side}mm` }}
                        />
                      ) : engine ? (
                        <LabelBarcode
                          engine={engine}
                          value={s.number}
                          widthMm={Math.min(l.w - 8, 50)}
                          heightMm={side * 0.55}
                        />
                      ) : null}
                      <div
                        className="mt-[0.8mm] max-w-full truncate font-semibold"
                        style={{ fontSize: `${nameMm}mm`, lineHeight: 1.2 }}
                      >
                        {s.name}
                      </div>
                      <div
                        className="max-w-full truncate"
                        style={{ fontSize: `${lineMm}mm`, lineHeight: 1.2 }}
                      >
                        {className ? tp.code.line(s.number, className) : s.number}
                      </div>
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        </FitWidth>
      )}
    </PrintFrame>
  );
}
