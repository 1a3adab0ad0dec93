import { useEffect, useRef, useState } from 'react';
import { composition } from '../../i18n/composition';
import { RichText } from '../rich-text';
import { Button } from './button';
import { Dialog } from './dialog';

const e = composition.editor;

/** Structures and symbols a 初中 teacher writes most, as LaTeX; `|` marks where the caret goes. */
const TEMPLATES: { key: keyof typeof e.templates; tex: string; shows: string }[] = [
  { key: 'frac', tex: '\\frac{|}{}', shows: '\\frac{a}{b}' },
  { key: 'sqrt', tex: '\\sqrt{|}', shows: '\\sqrt{x}' },
  { key: 'root', tex: '\\sqrt[|]{}', shows: '\\sqrt[n]{x}' },
  { key: 'pow', tex: '^{|}', shows: 'x^{2}' },
  { key: 'sub', tex: '_{|}', shows: 'x_{1}' },
  {
    key: 'cases',
    tex: '\\begin{cases} | \\\\  \\end{cases}',
    shows: '\\begin{cases}x+y=1\\\\x-y=3\\end{cases}',
  },
  { key: 'abs', tex: '\\left|{|}\\right|', shows: '|x|' },
  { key: 'le', tex: '\\le |', shows: '\\le' },
  { key: 'ge', tex: '\\ge |', shows: '\\ge' },
  { key: 'ne', tex: '\\ne |', shows: '\\ne' },
  { key: 'pm', tex: '\\pm |', shows: '\\pm' },
  { key: 'times', tex: '\\times |', shows: '\\times' },
  { key: 'div', tex: '\\div |', shows: '\\div' },
  { key: 'pi', tex: '\\pi |', shows: '\\pi' },
  { key: 'angle', tex: '\\angle |', shows: '\\angle A' },
  { key: 'triangle', tex: '\\triangle |', shows: '\\triangle ABC' },
  { key: 'degree', tex: '^{\\circ}|', shows: '90^{\\circ}' },
  { key: 'parallel', tex: '\\parallel |', shows: 'a\\parallel b' },
  { key: 'perp', tex: '\\perp |', shows: 'a\\perp b' },
  { key: 'vec', tex: '\\overrightarrow{|}', shows: '\\overrightarrow{AB}' },
];

type FormulaCheck = (latex: string) => string | null;
let check: FormulaCheck | null = null;

/**
 * 插入公式: LaTeX typed or built from the structure buttons, typeset live by KaTeX beside it, with KaTeX's reason
 * when it cannot be typeset. `onInsert` gets the LaTeX without delimiters.
 */
export function FormulaDialog({
  open,
  initial,
  onInsert,
  onClose,
}: {
  open: boolean;
  initial: string;
  onInsert: (latex: string) => void;
  onClose: () => void;
}) {
  const [latex, setLatex] = useState(initial);
  const [, setLoaded] = useState(check !== null);
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!open) return;
    setLatex(initial);
    if (!check)
      void import('../../lib/math').then((m) => {
        check = m.formulaError;
        setLoaded(true);
      });
  }, [open, initial]);

  const put = (tex: string) => {
    const el = input.current;
    const at = el?.selectionStart ?? latex.length;
    const end = el?.selectionEnd ?? at;
    const [before, after = ''] = tex.split('|');
    const next = latex.slice(0, at) + before + latex.slice(at, end) + after + latex.slice(end);
    setLatex(next);
    requestAnimationFrame(() => {
      el?.focus();
      const caret = at + before!.length + (end - at);
      el?.setSelectionRange(caret, caret);
    });
  };

  const trimmed = latex.trim();
  const error = trimmed && check ? check(trimmed) : null;

  return (
    <Dialog open={open} onClose={onClose} title={e.formulaTitle} className="max-w-2xl">
      <div className="space-y-3">
        <div>
          <div className="mb-1 text-xs text-slate-500">{e.formulaTemplates}</div>
          <div className="flex flex-wrap gap-1">
            {TEMPLATES.map((t) => (
              <button
                key={t.key}
                type="button"
                title={e.templates[t.key]}
                aria-label={e.templates[t.key]}
                onClick={() => put(t.tex)}
                className="flex h-9 min-w-10 items-center justify-center rounded border border-slate-200 px-1.5 text-sm text-slate-700 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                <RichText html={`\\(${t.shows}\\)`} inline />
              </button>
            ))}
          </div>
        </div>
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">{e.formulaLatex}</span>
          <textarea
            ref={input}
            value={latex}
            onChange={(ev) => setLatex(ev.target.value)}
            placeholder={e.formulaPlaceholder}
            rows={3}
            spellCheck={false}
            className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
            autoFocus
          />
        </label>
        <div>
          <div className="mb-1 text-xs text-slate-500">{e.formulaPreview}</div>
          <div
            data-testid="formula-preview"
            className="flex min-h-16 items-center justify-center rounded-md bg-slate-50 px-3 py-3 text-lg"
          >
            {!trimmed ? (
              <span className="text-sm text-slate-500">{e.formulaEmpty}</span>
            ) : error ? (
              <span role="alert" className="text-sm text-red-600">
                {e.formulaError(error)}
              </span>
            ) : (
              <RichText html={`\\[${trimmed}\\]`} />
            )}
          </div>
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {e.cancel}
          </Button>
          <Button disabled={!trimmed || error !== null} onClick={() => onInsert(trimmed)}>
            {e.insert}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** 插入表格: rows and columns, and whether the first row is a header. */
export function TableDialog({
  open,
  onInsert,
  onClose,
}: {
  open: boolean;
  onInsert: (html: string) => void;
  onClose: () => void;
}) {
  const [rows, setRows] = useState(3);
  const [cols, setCols] = useState(3);
  const [header, setHeader] = useState(true);
  const clamp = (n: number) => Math.min(Math.max(Math.round(n) || 1, 1), 12);
  const number = (label: string, value: number, set: (n: number) => void) => (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      {label}
      <input
        type="number"
        min={1}
        max={12}
        value={value}
        onChange={(ev) => set(clamp(Number(ev.target.value)))}
        className="w-20 rounded-md border border-slate-300 px-2 py-1.5"
      />
    </label>
  );
  return (
    <Dialog open={open} onClose={onClose} title={e.tableTitle}>
      <div className="space-y-4">
        <div className="flex gap-6">
          {number(e.tableRows, rows, setRows)}
          {number(e.tableCols, cols, setCols)}
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={header} onChange={(ev) => setHeader(ev.target.checked)} />
          {e.tableHeader}
        </label>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {e.cancel}
          </Button>
          <Button onClick={() => onInsert(tableHtml(rows, cols, header))}>{e.insert}</Button>
        </div>
      </div>
    </Dialog>
  );
}

/** An empty table: every cell holds a line break so the caret can go in. */
export function tableHtml(rows: number, cols: number, header: boolean): string {
  const row = (tag: 'td' | 'th') => `<tr>${`<${tag}><br></${tag}>`.repeat(cols)}</tr>`;
  const head = header ? `<thead>${row('th')}</thead>` : '';
  const body = Array.from({ length: header ? rows - 1 : rows }, () => row('td')).join('');
  return `<table>${head}<tbody>${body}</tbody></table><p><br></p>`;
}
