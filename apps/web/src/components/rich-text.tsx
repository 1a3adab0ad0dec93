import DOMPurify from 'dompurify';
import { useEffect, useMemo, useState } from 'react';
import { cn } from '../lib/utils';

type MathRenderer = (html: string) => string;
let renderer: MathRenderer | null = null;
let loading: Promise<MathRenderer> | null = null;

/** Loads KaTeX (its own lazy chunk with its CSS) once. */
function loadMath(): Promise<MathRenderer> {
  loading ??= import('../lib/math').then((m) => {
    renderer = m.renderMath;
    return m.renderMath;
  });
  return loading;
}

const hasMath = (html: string) => html.includes('\\(') || html.includes('\\[');

/** Sanitises HTML from the host: no scripts, no event handlers, no foreign frames. */
export function sanitize(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style'],
  });
}

/**
 * Question stems, options and analyses: sanitised HTML whose formulas in \( \) or \[ \] are typeset by KaTeX
 * once its chunk has loaded (until then the TeX source shows as text).
 */
export function RichText({
  html,
  className,
  inline = false,
}: {
  html: string;
  className?: string;
  inline?: boolean;
}) {
  const clean = useMemo(() => sanitize(html), [html]);
  const needsMath = hasMath(clean);
  const [, setReady] = useState(renderer !== null);
  useEffect(() => {
    if (!needsMath || renderer) return;
    let live = true;
    void loadMath().then(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [needsMath]);
  // Typeset once per text, not on every render of the parent (KaTeX is the costly part of a re-render).
  const typeset = needsMath ? renderer : null;
  const out = useMemo(() => (typeset ? typeset(clean) : clean), [clean, typeset]);
  const Tag = inline ? 'span' : 'div';
  // `out` is DOMPurify's output, with KaTeX's own markup added for the formulas (trust: false).
  return <Tag className={cn('rich-text', className)} dangerouslySetInnerHTML={{ __html: out }} />;
}
