// A small .xlsx writer for the tables teachers export (scores, rates, rankings). Numbers stay numbers so Excel can
// sort and sum them; text is written inline; the header row is bold and frozen. JSZip is loaded only when a file is
// written, so no screen pays for it up front. SpreadsheetML: ECMA-376 part 1, §18. exceljs was the first choice but
// its dependency tree does not resolve from the registry we install from (docs/adr/0017).

export type Cell = string | number | null | undefined;

export interface SheetData {
  /** The tab name; cut to Excel's 31 characters with the forbidden characters removed. */
  name: string;
  header: string[];
  rows: Cell[][];
  /** Lines above the header (a title, the homework, the date); written in plain text. */
  title?: string[];
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const escapeXml = (text: string) =>
  text
    // Characters XML 1.0 cannot carry at all.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** A valid, unique sheet name: no `[]:*?/\`, at most 31 characters, never empty. */
export function sheetName(name: string, taken: Set<string>): string {
  const base =
    name
      .replace(/[[\]:*?/\\]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet';
  let candidate = base;
  for (let i = 2; taken.has(candidate.toLowerCase()); i++) {
    const suffix = ` (${i})`;
    candidate = base.slice(0, 31 - suffix.length) + suffix;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Display width of a text in Excel characters: CJK characters count two. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += /[\u2e80-\uffef]/.test(ch) ? 2 : 1;
  return w;
}

function cellXml(ref: string, value: Cell, style: number): string {
  const s = style ? ` s="${style}"` : '';
  if (value === null || value === undefined || value === '') return style ? `<c r="${ref}"${s}/>` : '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return `<c r="${ref}"${s}><v>${value}</v></c>`;
  }
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
}

/** The worksheet XML of one sheet (exported for tests). */
export function sheetXml(sheet: SheetData): string {
  const title = sheet.title ?? [];
  const headerRow = title.length + 1;
  const widths = sheet.header.map((h, c) =>
    Math.min(
      60,
      Math.max(
        6,
        textWidth(h) + 2,
        ...sheet.rows.map((r) => {
          const v = r[c];
          return v === null || v === undefined ? 0 : textWidth(String(v)) + 2;
        }),
      ),
    ),
  );
  const rows: string[] = [];
  title.forEach((line, i) => {
    rows.push(`<row r="${i + 1}">${cellXml(`A${i + 1}`, line, i === 0 ? 2 : 0)}</row>`);
  });
  rows.push(
    `<row r="${headerRow}">${sheet.header.map((h, c) => cellXml(`${columnName(c)}${headerRow}`, h, 1)).join('')}</row>`,
  );
  sheet.rows.forEach((row, i) => {
    const r = headerRow + 1 + i;
    rows.push(`<row r="${r}">${row.map((v, c) => cellXml(`${columnName(c)}${r}`, v, 0)).join('')}</row>`);
  });
  const pane =
    `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${headerRow}" topLeftCell="A${headerRow + 1}" ` +
    `activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>`;
  const cols = widths.length
    ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
    : '';
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `${pane}${cols}<sheetData>${rows.join('')}</sheetData></worksheet>`
  );
}

const STYLES =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="3"><font><sz val="11"/><name val="DengXian"/></font><font><b/><sz val="11"/><name val="DengXian"/></font>' +
  '<font><b/><sz val="14"/><name val="DengXian"/></font></fonts>' +
  '<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>' +
  '<fill><patternFill patternType="solid"><fgColor rgb="FFF1F5F9"/></patternFill></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="2" borderId="0" xfId="0" applyFont="1" applyFill="1"/>' +
  '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '</styleSheet>';

/** Writes a workbook with one tab per sheet. */
export async function writeXlsx(sheets: SheetData[]): Promise<Blob> {
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  const taken = new Set<string>();
  const names = sheets.map((s) => sheetName(s.name, taken));
  const list = sheets.length ? sheets : [{ name: 'Sheet', header: [], rows: [] }];
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      list
        .map(
          (_s, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${PKG_REL_NS}">` +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
      list
        .map(
          (_s, i) =>
            `<sheet name="${escapeXml(names[i] ?? 'Sheet')}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`,
        )
        .join('') +
      '</sheets></workbook>',
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${PKG_REL_NS}">` +
      list
        .map(
          (_s, i) =>
            `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join('') +
      `<Relationship Id="rId${list.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>` +
      '</Relationships>',
  );
  zip.file('xl/styles.xml', STYLES);
  list.forEach((s, i) => zip.file(`xl/worksheets/sheet${i + 1}.xml`, sheetXml(s)));
  return zip.generateAsync({ type: 'blob', mimeType: XLSX_MIME, compression: 'DEFLATE' });
}

/** A file name safe on every system: the parts joined with '-', forbidden characters replaced by spaces. */
export function exportFileName(parts: (string | null | undefined)[], ext = 'xlsx'): string {
  const base = parts
    .filter((p): p is string => Boolean(p))
    .join('-')
    .replace(/[\\/:*?"<>|\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `${base || 'export'}.${ext}`;
}
