import DOMPurify from 'dompurify';
import { useEffect, useRef, useState } from 'react';
import type { Material } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { tm } from '../../../i18n/materials';
import { materialHtml, materialLink } from '../api/materials';
import { renderPdfPages } from '../utils/pdf';

/** Pages drawn in the preview; the rest is for the download. */
const MAX_PREVIEW_PAGES = 20;

type State =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'image'; url: string }
  | { kind: 'pdf'; pages: string[]; total: number }
  | { kind: 'word'; html: string; notes: string[] };

/** A material in the page: PDF pages drawn by pdf.js, images as they are, Word as sanitised HTML. */
export function PreviewDialog({
  material,
  onClose,
  onDownload,
}: {
  material: Material;
  onClose: () => void;
  onDownload: () => void;
}) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    const urls: string[] = [];
    const done = (s: State) => {
      if (alive.current) setState(s);
    };
    (async () => {
      if (material.kind === 'word') {
        const { html, notes } = await materialHtml(material.id);
        // The host already filtered the HTML by an allow-list; this is the second filter, in the browser.
        done({
          kind: 'word',
          html: DOMPurify.sanitize(html, { ALLOWED_URI_REGEXP: /^data:image\//i }),
          notes,
        });
        return;
      }
      const { url } = await materialLink(material.id);
      if (material.kind === 'image') {
        done({ kind: 'image', url });
        return;
      }
      const response = await fetch(url);
      if (!response.ok) throw new Error(`preview ${response.status}`);
      const { pages, total } = await renderPdfPages(await response.arrayBuffer(), MAX_PREVIEW_PAGES);
      urls.push(...pages);
      done({ kind: 'pdf', pages, total });
    })().catch(() => done({ kind: 'failed' }));
    return () => {
      alive.current = false;
      // The drawn pages are object URLs: freed with the dialog.
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, [material.id, material.kind]);

  const name = `${material.name}.${material.ext}`;
  return (
    <LargeDialog
      open
      onClose={onClose}
      title={tm.previewTitle(name)}
      width="xl"
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {tm.close}
          </Button>
          <Button onClick={onDownload}>{tm.download}</Button>
        </div>
      }
    >
      <div className="rounded-lg bg-slate-100 p-3" data-testid="material-preview">
        {state.kind === 'loading' && (
          <div className="space-y-3 p-4" aria-live="polite">
            <p className="text-sm text-slate-500">{tm.previewLoading}</p>
            <Skeleton className="h-96 w-full" />
          </div>
        )}
        {state.kind === 'failed' && (
          <p className="p-6 text-center text-sm text-red-600">{tm.previewFailed}</p>
        )}
        {state.kind === 'image' && (
          <img
            src={state.url}
            alt={material.name}
            className="mx-auto max-h-[65vh] max-w-full bg-white shadow"
          />
        )}
        {state.kind === 'pdf' && (
          <div className="space-y-3">
            {state.pages.map((src, i) => (
              <figure key={src} className="mx-auto max-w-2xl">
                <img
                  src={src}
                  alt={tm.pageOf(i + 1, state.total)}
                  className="w-full bg-white shadow ring-1 ring-slate-200"
                />
                <figcaption className="mt-1 text-center text-xs text-slate-500">
                  {tm.pageOf(i + 1, state.total)}
                </figcaption>
              </figure>
            ))}
            {state.total > state.pages.length && (
              <p className="text-center text-sm text-slate-500">
                {tm.previewMorePages(state.pages.length, state.total)}
              </p>
            )}
          </div>
        )}
        {state.kind === 'word' && (
          <div className="mx-auto max-w-2xl bg-white p-8 shadow">
            <p className="mb-4 text-xs text-slate-500">{tm.wordNote}</p>
            {state.notes.map((n) => (
              <p key={n} className="mb-2 text-xs text-amber-700">
                {n}
              </p>
            ))}
            <div
              className="prose-word text-sm leading-7 text-slate-800 [&_h1]:mb-3 [&_h1]:text-xl [&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-lg [&_h2]:font-semibold [&_li]:ml-5 [&_li]:list-disc [&_p]:mb-2 [&_table]:border-collapse [&_td]:border [&_td]:border-slate-300 [&_td]:px-2"
              dangerouslySetInnerHTML={{ __html: state.html }}
            />
          </div>
        )}
      </div>
    </LargeDialog>
  );
}
