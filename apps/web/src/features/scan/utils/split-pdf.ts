import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
// The worker is bundled from node_modules and served by the host like any other asset (no CDN).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { canvasToJpeg } from './split-pages';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Scans are read at 300 dpi (SPEC §9); a huge page is scaled down to stay within this many pixels. */
const DPI = 300;
const MAX_PIXELS = 40_000_000;

/** Every page of a PDF rendered at 300 dpi on white, as a JPEG. */
export async function pdfPages(data: ArrayBuffer): Promise<Blob[]> {
  const doc = await getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
  const out: Blob[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      let scale = DPI / 72;
      const natural = page.getViewport({ scale });
      const pixels = natural.width * natural.height;
      if (pixels > MAX_PIXELS) scale *= Math.sqrt(MAX_PIXELS / pixels);
      const viewport = page.getViewport({ scale });
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      await page.render({ canvas, viewport, background: '#ffffff' }).promise;
      out.push(await canvasToJpeg(canvas));
      page.cleanup();
      canvas.width = 0;
      canvas.height = 0;
    }
  } finally {
    await doc.destroy();
  }
  return out;
}
