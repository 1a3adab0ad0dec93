/**
 * Node-only entry (`@zhzy/answer-card/recognise`): reads scanned answer-card pages with sharp and zxing-wasm.
 *
 * For the host:
 * - `recognisePage(bytes, { resolve })` → `{ result, images }`. `result` is JSON (`PageRecognitionSchema` in
 *   contracts) and never throws for a bad page: its `problems` say what went wrong in the teacher's words.
 *   `images` holds the crops' JPEG/PNG bytes by `crop.id`; store them beside the result.
 * - PDF uploads: `isPdf(bytes)`, `pdfPageSizes(path)` to check limits, then `rasterisePdfPage(path, { page, dpi: 300 })`
 *   (poppler's pdftoppm) for each page, and each page as above.
 * - Store the result whole: its bubbles keep raw `ratio`/`core`, and `classifyMarks(rawMarksOf(result), t)`
 *   re-decides every mark and the student number with revised thresholds, without the scan.
 * - `overlayOf(result, layout)` gives the review screen what was read where, in image pixels.
 * - Workers: one page at a time per worker; call `sharp.concurrency(1)` and `loadZxing()` at start, and start the
 *   worker processes with MALLOC_ARENA_MAX=2 (glibc arenas otherwise fragment under libvips and double the RSS).
 */
export {
  recognisePage,
  imageToCard,
  cardToImage,
  overlayOf,
  type OverlayShape,
  type LayoutResolver,
  type RecogniseOptions,
  type RecognisedPage,
} from './recognise.js';
export { classifyMarks, rawMarksOf, type Classification } from './classify.js';
export {
  rasterisePdfPage,
  pdfPageCount,
  pdfPageSizes,
  isPdf,
  type RasterisePdfOptions,
  type PdfPageSize,
} from './pdf.js';
export { loadZxing, zxingWasmPath } from './qr.js';
export {
  DEFAULT_CROP_OPTIONS,
  LAZY_CROP_OPTIONS,
  LAZY_CROP_FORMAT,
  cropImages,
  type CropOptions,
} from './crops.js';
