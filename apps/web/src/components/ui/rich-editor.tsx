import DOMPurify from 'dompurify';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { RichText } from '../rich-text';
import { composition } from '../../i18n/composition';
import { toast } from '../../lib/toast';
import { cn } from '../../lib/utils';

/** The subset a question may hold (the host sanitises again): paragraphs, emphasis, sub/superscripts, images. */
const ALLOWED_TAGS = ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'sub', 'sup', 'img'];
const ALLOWED_ATTR = ['src', 'alt'];
/** An image travels inside the content as a data URL; the content may hold 200,000 characters. */
const MAX_IMAGE_BYTES = 140 * 1024;

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

  const insertFormula = () => {
    ref.current?.focus();
    const selected = window.getSelection()?.toString() ?? '';
    command('insertText', `\\(${selected || 'x'}\\)`);
    emit();
  };

  const onImage = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_IMAGE_BYTES) {
      toast.error(composition.editor.imageTooLarge);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') run('insertImage', reader.result);
    };
    reader.readAsDataURL(file);
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
      onClick: insertFormula,
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
            // Pasted Word or web content keeps its text and line breaks only; formatting comes from the toolbar.
            e.preventDefault();
            command('insertText', e.clipboardData.getData('text/plain'));
            emit();
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
      {hasMath(value) && (
        <div className="mt-2 rounded-md bg-slate-50 px-3 py-2 text-sm">
          <span className="mr-2 text-xs text-slate-500">{composition.editor.preview}</span>
          <RichText html={value} inline />
        </div>
      )}
    </div>
  );
}
