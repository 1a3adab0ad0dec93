/*
 * pdfkit has no public API for form XObjects. The static part of a card page (everything but the QR and the
 * student's details) is the same on every copy, so it is drawn once into a form XObject and each copy only says
 * `/Fm Do`: a 2,000-student batch then costs a few hundred bytes per page instead of the whole page again.
 * This module is the only place that touches pdfkit's internals (`page`, `_ctm`, `ref`, `addContent`).
 */

interface PdfRef {
  data: Record<string, unknown>;
  write(chunk: string): void;
  end(): void;
}

interface PdfResources {
  Font: Record<string, unknown>;
  XObject: Record<string, unknown>;
  ExtGState: Record<string, unknown>;
  Pattern: Record<string, unknown>;
  ColorSpace: Record<string, unknown>;
}

/** The pdfkit internals used here, as of pdfkit 0.20. */
export interface PdfInternals {
  page: unknown;
  _ctm: number[];
  ref(data?: Record<string, unknown>): PdfRef;
  addContent(data: string): unknown;
  transform(m11: number, m12: number, m21: number, m22: number, dx: number, dy: number): unknown;
}

/** A drawn form XObject and the name it gets in each page's resources. */
export interface FormXObject {
  name: string;
  ref: PdfRef;
}

/**
 * Draws `draw` into a new form XObject of `width` × `height` points. Inside `draw`, the document's usual drawing
 * calls work in pdfkit's top-left coordinates, as on a page.
 */
export function captureForm(
  doc: PdfInternals,
  name: string,
  width: number,
  height: number,
  draw: () => void,
): FormXObject {
  const resources: PdfResources & { ProcSet: string[] } = {
    ProcSet: ['PDF', 'Text', 'ImageB', 'ImageC', 'ImageI'],
    Font: {},
    XObject: {},
    ExtGState: {},
    Pattern: {},
    ColorSpace: {},
  };
  const ref = doc.ref({
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, width, height],
    Resources: resources,
  });
  const fakePage = {
    width,
    height,
    margins: { top: 0, left: 0, right: 0, bottom: 0 },
    markings: [],
    fonts: resources.Font,
    xobjects: resources.XObject,
    ext_gstates: resources.ExtGState,
    patterns: resources.Pattern,
    colorSpaces: resources.ColorSpace,
    write: (chunk: string) => ref.write(chunk),
    maxY: () => height,
  };
  const savedPage = doc.page;
  const savedCtm = doc._ctm;
  doc.page = fakePage;
  doc._ctm = [1, 0, 0, 1, 0, 0];
  doc.transform(1, 0, 0, -1, 0, height);
  try {
    draw();
  } finally {
    doc.page = savedPage;
    doc._ctm = savedCtm;
  }
  ref.end();
  return { name, ref };
}

/** Places a form on the current page at the origin (undoing pdfkit's page flip, which the form repeats inside). */
export function placeForm(doc: PdfInternals, form: FormXObject, pageHeight: number): void {
  (doc.page as { xobjects: Record<string, unknown> }).xobjects[form.name] = form.ref;
  doc.addContent(`q 1 0 0 -1 0 ${pageHeight.toFixed(4)} cm /${form.name} Do Q`);
}
