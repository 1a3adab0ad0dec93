import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
// The worker is bundled from node_modules and served by the host like any other asset (no CDN).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Screen width the pages are drawn for (CSS pixels), times the device's pixel ratio. */
const WIDTH = 800;

/** The first `max` pages of a PDF as PNG object URLs, and how many pages it has. */
export async function renderPdfPages(
  data: ArrayBuffer,
  max: number,
): Promise<{ pages: string[]; total: number }> {
  const doc = await getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
  const pages: string[] = [];
  try {
    const ratio = Math.min(2, globalThis.devicePixelRatio || 1);
    for (let n = 1; n <= Math.min(doc.numPages, max); n++) {
      const page = await doc.getPage(n);
      const natural = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: (WIDTH * ratio) / natural.width });
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      await page.render({ canvas, viewport, background: '#ffffff' }).promise;
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (blob) pages.push(URL.createObjectURL(blob));
      page.cleanup();
      canvas.width = 0;
      canvas.height = 0;
    }
    return { pages, total: doc.numPages };
  } finally {
    await doc.destroy();
  }
}
