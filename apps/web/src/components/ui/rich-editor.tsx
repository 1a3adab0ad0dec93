import DOMPurify from 'dompurify';
import { RICH_TEXT_TAGS } from '@zhzy/contracts';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { RichText } from '../rich-text';
import { composition } from '../../i18n/composition';
import { toast } from '../../lib/toast';
import { cn } from '../../lib/utils';
import { FormulaDialog, TableDialog } from './editor-dialogs';

/** The subset a question may hold (the host sanitises again, to the same subset). */
const ALLOWED_TAGS = [...RICH_TEXT_TAGS];
const ALLOWED_ATTR = ['src', 'alt', 'colspan', 'rowspan'];
/** An image travels inside the content as a data URL; the content may hold 200,000 characters. */
const MAX_IMAGE_BYTES = 140 * 1024;
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,/i;

/** Cleans what the editor produced: the allowed subset only, Chrome's <div> lines as paragraphs. */
export function cleanRich(html: string): string {
  const paragraphs = html.replace(/<div>/gi, '<p>').replace(/<\/div>/gi, '</p>');
  const clean = DOMPurify.sanitize(paragraphs, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:data:image\/(?:png|jpe?g|gif|webp);base64,|https?:|\/)/i,
  });
  const trimmed = clean.replace(/^(?:<br>|\s)+|(?:<br>|\s)+$/g, '');
  return trimmed === '<p></p>' || trimmed === '<p><br></p>' ? '' : trimmed;
}

const hasMath = (html: string) => html.includes('\\(') || html.includes('\\[');

/**
 * Pasted HTML (Word, WPS, a web page) as the editor keeps it: text, emphasis, tables, lists and inline pictures;
 * `dropped` counts the pictures it cannot read (Word's are local files the browser may not open).
 */
export function cleanPasted(html: string): { html: string; dropped: number } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let dropped = 0;
  for (const img of Array.from(doc.querySelectorAll('img'))) {
    if (DATA_IMAGE.test(img.getAttribute('src') ?? '')) continue;
    dropped += 1;
    img.remove();
  }
  return { html: cleanRich(doc.body.innerHTML), dropped };
}

const dataUrlBytes = (url: string) => Math.floor(((url.length - url.indexOf(',') - 1) * 3) / 4);

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable'));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/**
 * An image file as a data URL within the content's image budget: as it is when small enough, otherwise drawn
 * smaller (a screenshot or a phone photo) until it fits — the teacher is not sent off to compress it by hand.
 */
export async function imageWithinBudget(file: Blob): Promise<{ url: string; shrunk: boolean }> {
  const original = await readAsDataUrl(file);
  if (dataUrlBytes(original) <= MAX_IMAGE_BYTES && DATA_IMAGE.test(original))
    return { url: original, shrunk: false };
  const bitmap = await createImageBitmap(file);
  let scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d')!;
    // JPEG has no transparency: a white page under the picture, as it would print.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const url = canvas.toDataURL('image/jpeg', 0.85);
    if (dataUrlBytes(url) <= MAX_IMAGE_BYTES) return { url, shrunk: true };
    scale *= 0.75;
  }
  throw new Error('too large');
}

function command(name: string, value?: string) {
  // execCommand is deprecated but remains the one way to edit a contentEditable that every browser keeps.
  document.execCommand(name, false, value);
}

/**
 * A small rich-text editor: bold, italic, underline, super- and subscript, a blank line (＿＿＿＿), formulas in
 * \( \) (typeset in the preview below) and images. What it hands back is already cleaned.
 */
export function RichEditor({
  label,
  value,
  onChange,
  placeholder,
  minRows = 3,
  error,
  hint,
  compact = false,
}: {
  label: string;
  value: string;
  onChange: (html: string) => void;
  placeholder?: string;
  minRows?: number;
  error?: string | null;
  hint?: ReactNode;
  /** Only the tools an option needs: super- and subscript, formulas, images. */
  compact?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const last = useRef<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const saved = useRef<Range | null>(null);
  const pending = useRef<{ name: string; arg: string } | null>(null);
  const [dialog, setDialog] = useState<null | { kind: 'formula'; initial: string } | { kind: 'table' }>(null);
  const id = useId();

  // Only a value that did not come from typing here is written into the DOM (the caret stays put).
  useEffect(() => {
    const el = ref.current;
    if (!el || value === last.current) return;
    el.innerHTML = value;
    last.current = value;
  }, [value]);

  const emit = () => {
    const el = ref.current;
    if (!el) return;
    const html = cleanRich(el.innerHTML);
    last.current = html;
    onChange(html);
  };

  const run = (name: string, arg?: string) => {
    ref.current?.focus();
    command(name, arg);
    emit();
  };

  /** Keeps where the caret is in the editor while a dialog has the focus. */
  const keepSelection = () => {
    const selection = window.getSelection();
    const range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
    saved.current = range && ref.current?.contains(range.commonAncestorContainer) ? range.cloneRange() : null;
    return selection?.toString() ?? '';
  };

  /** Puts the caret back where it was (the end of the text when it was not in the editor) and runs a command. */
  const runAtSelection = (name: string, arg: string) => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    const selection = window.getSelection();
    selection?.removeAllRanges();
    if (saved.current) selection?.addRange(saved.current);
    else {
      const end = document.createRange();
      end.selectNodeContents(el);
      end.collapse(false);
      selection?.addRange(end);
    }
    command(name, arg);
    emit();
  };

  // A dialog's insertion runs once the dialog is gone: while it is open it holds the focus, and editing commands
  // act only where the focus is.
  useEffect(() => {
    if (dialog !== null || !pending.current) return;
    const action = pending.current;
    pending.current = null;
    const frame = requestAnimationFrame(() => runAtSelection(action.name, action.arg));
    return () => cancelAnimationFrame(frame);
  });

  const openFormula = () => {
    const selected = keepSelection().trim();
    const bare = /^\\\(([\s\S]*)\\\)$/.exec(selected)?.[1] ?? selected;
    setDialog({ kind: 'formula', initial: bare });
  };

  const insertImage = async (file: Blob) => {
    try {
      const { url, shrunk } = await imageWithinBudget(file);
      if (shrunk) toast.success(composition.editor.imageShrunk);
      run('insertImage', url);
    } catch {
      toast.error(composition.editor.imageUnreadable);
    }
  };

  const onImage = (file: File | undefined) => {
    if (file) void insertImage(file);
  };

  /** Word, WPS and web pages keep their text, emphasis, tables and pictures; a screenshot comes in as a picture. */
  const onPaste = (data: DataTransfer) => {
    const images = Array.from(data.files).filter((f) => f.type.startsWith('image/'));
    const html = data.getData('text/html');
    if (html) {
      const pasted = cleanPasted(html);
      if (pasted.html) command('insertHTML', pasted.html);
      // A picture copied from a web page comes as a link (dropped) and as the picture itself: keep the picture.
      if (pasted.dropped > 0 && images.length > 0) images.forEach((f) => void insertImage(f));
      else if (pasted.dropped > 0) toast.error(composition.editor.pasteImagesDropped(pasted.dropped));
    } else if (images.length > 0) {
      images.forEach((f) => void insertImage(f));
    } else {
      command('insertText', data.getData('text/plain'));
    }
    emit();
  };

  const allTools: { key: string; label: string; title: string; onClick: () => void; className?: string }[] = [
    {
      key: 'b',
      label: 'B',
      title: composition.editor.bold,
      onClick: () => run('bold'),
      className: 'font-bold',
    },
    {
      key: 'i',
      label: 'I',
      title: composition.editor.italic,
      onClick: () => run('italic'),
      className: 'italic',
    },
    {
      key: 'u',
      label: 'U',
      title: composition.editor.underline,
      onClick: () => run('underline'),
      className: 'underline',
    },
    { key: 'sup', label: 'x²', title: composition.editor.sup, onClick: () => run('superscript') },
    { key: 'sub', label: 'x₂', title: composition.editor.sub, onClick: () => run('subscript') },
    {
      key: 'f',
      label: composition.editor.formula,
      title: composition.editor.formulaHint,
      onClick: openFormula,
    },
    {
      key: 'table',
      label: composition.editor.table,
      title: composition.editor.tableHint,
      onClick: () => {
        keepSelection();
        setDialog({ kind: 'table' });
      },
    },
    {
      key: 'blank',
      label: composition.editor.blank,
      title: composition.editor.blankHint,
      onClick: () => run('insertText', '＿＿＿＿'),
    },
    {
      key: 'img',
      label: composition.editor.image,
      title: composition.editor.imageHint,
      onClick: () => fileRef.current?.click(),
    },
    {
      key: 'clear',
      label: composition.editor.clear,
      title: composition.editor.clearHint,
      onClick: () => run('removeFormat'),
    },
  ];
  const tools = compact ? allTools.filter((x) => ['sup', 'sub', 'f', 'img'].includes(x.key)) : allTools;

  return (
    <div>
      <div id={`${id}-label`} className="mb-1.5 text-sm font-medium text-slate-700">
        {label}
      </div>
      <div
        className={cn(
          'rounded-md border bg-white focus-within:border-blue-500 focus-within:ring-2 focus-within:ring-blue-500/20',
          error ? 'border-red-400' : 'border-slate-300',
        )}
      >
        <div
          role="toolbar"
          aria-label={composition.editor.toolbar(label)}
          className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1"
        >
          {tools.map((tool) => (
            <button
              key={tool.key}
              type="button"
              title={tool.title}
              aria-label={tool.title}
              onMouseDown={(e) => e.preventDefault()}
              onClick={tool.onClick}
              className={cn(
                'h-7 min-w-7 rounded px-1.5 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600',
                tool.className,
              )}
            >
              {tool.label}
            </button>
          ))}
          <input
            ref={fileRef}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            className="hidden"
            tabIndex={-1}
            onChange={(e) => {
              onImage(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
        <div
          ref={ref}
          role="textbox"
          aria-multiline="true"
          aria-labelledby={`${id}-label`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          contentEditable
          suppressContentEditableWarning
          data-placeholder={placeholder}
          onInput={emit}
          onBlur={emit}
          onPaste={(e) => {
            e.preventDefault();
            onPaste(e.clipboardData);
          }}
          style={{ minHeight: `${minRows * 1.75 + 1}rem` }}
          className="rich-text px-3 py-2 text-[15px] leading-7 text-slate-900 empty:before:text-slate-500 empty:before:content-[attr(data-placeholder)] focus:outline-none"
        />
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            {hint}
          </p>
        )
      )}
      <FormulaDialog
        open={dialog?.kind === 'formula'}
        initial={dialog?.kind === 'formula' ? dialog.initial : ''}
        onClose={() => setDialog(null)}
        onInsert={(latex) => {
          pending.current = { name: 'insertText', arg: `\\(${latex}\\)` };
          setDialog(null);
        }}
      />
      <TableDialog
        open={dialog?.kind === 'table'}
        onClose={() => setDialog(null)}
        onInsert={(html) => {
          pending.current = { name: 'insertHTML', arg: html };
          setDialog(null);
        }}
      />
      {hasMath(value) && (
        <div className="mt-2 rounded-md bg-slate-50 px-3 py-2 text-sm">
          <span className="mr-2 text-xs text-slate-500">{composition.editor.preview}</span>
          <RichText html={value} inline />
        </div>
      )}
    </div>
  );
}
