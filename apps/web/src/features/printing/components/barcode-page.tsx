import { useEffect, useId, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Listbox } from '../../../components/ui/listbox';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import {
  BARCODE_DEFAULTS,
  BARCODE_FORMATS,
  BARCODE_LIMITS,
  barcodeLines,
  checkBarcode,
  clampOption,
  type BarcodeFormat,
  type BarcodeOptions,
  type BarcodeProblem,
} from '../utils/barcode-rules';
import type { BarcodeSvg } from '../utils/barcode-engine';
import type * as EngineModule from '../utils/barcode-engine';
import { Checkbox } from '../../../components/ui/checkbox';
import { PrintFrame, ScreenNote } from './print-frame';

type Engine = typeof EngineModule;

/** The Chinese sentence of a refused input, naming the rule. */
export function problemText(format: BarcodeFormat, p: BarcodeProblem): string {
  const m = tp.barcode.problems;
  const name = tp.barcode.formats[format];
  switch (p.code) {
    case 'empty':
      return m.empty;
    case 'tooLong':
      return m.tooLong(name, p.max);
    case 'code128Char':
      return m.code128Char(p.char);
    case 'code39Char':
      return m.code39Char(p.char);
    case 'digitsOnly':
      return m.digitsOnly(name);
    case 'digitCount':
      return m.digitCount(name, p.expected, p.actual, p.completed);
    case 'checkDigit':
      return m.checkDigit(name, p.expected, p.actual);
    case 'pharmacodeNumber':
      return m.pharmacodeNumber;
    case 'pharmacodeRange':
      return m.pharmacodeRange(p.value);
  }
}

type Item =
  | { line: number; text: string; ok: true; code: BarcodeSvg }
  | { line: number; text: string; ok: false; message: string };

function NumberOption({
  id,
  label,
  value,
  onChange,
  min,
  max,
}: {
  id: string;
  label: string;
  value: number;
  onChange: (v: number) => void;
  min: number;
  max: number;
}) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-slate-600">
      {label}
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="h-8 w-20 rounded-md border border-slate-300 px-2 text-slate-900"
      />
    </label>
  );
}

/**
 * /printBarcode: CODE128, EAN-13, EAN-8, UPC-A, ITF-14, CODE39, pharmacode and QR codes, one per line, drawn by bwip-js
 * (its own lazy chunk) after the format's rule has been checked; SPEC §9's defaults (width 2, height 100, font size 20,
 * margin 10). Student-number stickers for barcode cards are CODE128 of the number.
 */
export function BarcodePage() {
  const ids = useId();
  const [format, setFormat] = useState<BarcodeFormat>('code128');
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<BarcodeOptions>({ ...BARCODE_DEFAULTS });
  const [engine, setEngine] = useState<Engine | null>(null);

  useEffect(() => {
    let live = true;
    void import('../utils/barcode-engine').then((m) => {
      if (live) setEngine(m);
    });
    return () => {
      live = false;
    };
  }, []);

  const lines = useMemo(() => barcodeLines(input), [input]);
  const items = useMemo<Item[]>(() => {
    const out: Item[] = [];
    for (const { line, text } of lines) {
      const check = checkBarcode(format, text);
      if (!check.ok) {
        out.push({ line, text, ok: false, message: problemText(format, check.problem) });
        continue;
      }
      if (!engine) continue;
      try {
        out.push({
          line,
          text: check.text,
          ok: true,
          code: engine.renderBarcodeSvg(format, check.text, options),
        });
      } catch (error) {
        out.push({
          line,
          text,
          ok: false,
          message: tp.barcode.renderFailed(String((error as Error).message)),
        });
      }
    }
    return out;
  }, [lines, format, options, engine]);
  const errors = items.filter((i): i is Extract<Item, { ok: false }> => !i.ok);
  const codes = items.filter((i): i is Extract<Item, { ok: true }> => i.ok);

  const setOption = (key: keyof typeof BARCODE_LIMITS) => (v: number) =>
    setOptions((o) => ({ ...o, [key]: clampOption(key, v) }));

  return (
    <PrintFrame
      title={tp.barcode.title}
      subtitle={tp.barcode.subtitle}
      page={{ size: 'A4 portrait', margin: '10mm' }}
      canPrint={codes.length > 0}
      options={
        <>
          <Listbox
            label={tp.barcode.format}
            value={format}
            options={BARCODE_FORMATS.map((f) => ({ value: f, label: tp.barcode.formats[f] }))}
            placeholder={tp.barcode.format}
            onChange={setFormat}
            buttonClassName="min-w-40"
          />
          <NumberOption
            id={`${ids}-w`}
            label={tp.barcode.width}
            value={options.width}
            onChange={setOption('width')}
            {...BARCODE_LIMITS.width}
          />
          <NumberOption
            id={`${ids}-h`}
            label={tp.barcode.height}
            value={options.height}
            onChange={setOption('height')}
            {...BARCODE_LIMITS.height}
          />
          <NumberOption
            id={`${ids}-f`}
            label={tp.barcode.fontSize}
            value={options.fontSize}
            onChange={setOption('fontSize')}
            {...BARCODE_LIMITS.fontSize}
          />
          <NumberOption
            id={`${ids}-m`}
            label={tp.barcode.margin}
            value={options.margin}
            onChange={setOption('margin')}
            {...BARCODE_LIMITS.margin}
          />
          <Checkbox
            className="text-slate-600"
            checked={options.displayValue}
            onChange={(displayValue) => setOptions((o) => ({ ...o, displayValue }))}
          >
            {tp.barcode.showText}
          </Checkbox>
          <Button variant="link" onClick={() => setOptions({ ...BARCODE_DEFAULTS })}>
            {tp.barcode.defaults}
          </Button>
        </>
      }
    >
      <div data-print="hide" className="mx-auto mb-4 max-w-4xl space-y-2 print:hidden">
        <label htmlFor={`${ids}-input`} className="block text-sm font-medium text-slate-700">
          {tp.barcode.content}
        </label>
        <textarea
          id={`${ids}-input`}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          rows={4}
          placeholder={tp.barcode.placeholder[format]}
          aria-describedby={`${ids}-rule`}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
        />
        <p id={`${ids}-rule`} className="text-xs text-slate-600">
          {tp.barcode.rules[format]}
        </p>
        {errors.length > 0 && (
          <ul role="alert" className="space-y-1 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {errors.map((e) => (
              <li key={e.line}>{tp.barcode.lineError(e.line, e.message)}</li>
            ))}
          </ul>
        )}
      </div>
      {lines.length === 0 ? (
        <ScreenNote>{tp.barcode.empty}</ScreenNote>
      ) : (
        <div
          data-testid="barcode-sheet"
          className="print-sheet mx-auto flex max-w-4xl flex-wrap justify-center gap-6 bg-white p-6 shadow-sm print:max-w-none print:justify-start print:p-0"
        >
          {!engine && errors.length < lines.length && (
            <p className="text-sm text-slate-600">{tp.barcode.loading}</p>
          )}
          {codes.map((c) => (
            <figure key={c.line} className="break-inside-avoid" data-testid="barcode" data-value={c.text}>
              <div
                role="img"
                aria-label={tp.barcode.codeLabel(tp.barcode.formats[format], c.text)}
                style={{ width: c.code.width, height: c.code.height }}
                // bwip-js draws the human-readable text as glyph paths: its SVG carries no text from the input.
                dangerouslySetInnerHTML={{
                  __html: c.code.svg.replace('<svg ', '<svg width="100%" height="100%" '),
                }}
              />
            </figure>
          ))}
        </div>
      )}
    </PrintFrame>
  );
}
