import JSZip from 'jszip';
import { Parser } from 'htmlparser2';
import { ZipGuardError, assertZipWithinLimits } from '../../lib/zip-guard.js';
import { SCHOOL_TEXT } from '../../i18n/messages.js';

// A small .xlsx writer and first-sheet reader on the zip and XML libraries the host already has. Student lists need
// only text cells, a bold header, a text-formatted column and a list validation; reading needs the values of the
// first sheet's cells (shared, inline, formula results and numbers) as text. SpreadsheetML: ECMA-376 part 1, §18.

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

export interface SheetColumn {
  header: string;
  /** Width in characters. */
  width: number;
  /** Format the whole column as text (学号 with leading zeros stays as typed). */
  text?: boolean;
}

export interface SheetSpec {
  name: string;
  columns: SheetColumn[];
  rows: (string | null)[][];
  /** Drop-down choices for one column (0-based) below the header. */
  choices?: { column: number; values: string[] };
  /** No bold header row: every row is plain text (a notes sheet). */
  plain?: boolean;
}

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
  let name = '';
  let n = index + 1;
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** A → 0, AA → 26; -1 when the reference has no letters. */
export function columnIndex(ref: string): number {
  const letters = /^[A-Za-z]+/.exec(ref)?.[0];
  if (!letters) return -1;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="${MAIN_NS}"><fonts count="2"><font><sz val="11"/><name val="${SCHOOL_TEXT.workbookFont}"/><family val="2"/></font><font><b/><sz val="11"/><name val="${SCHOOL_TEXT.workbookFont}"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="${SCHOOL_TEXT.workbookNormalStyle}" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const STYLE_BOLD = 1;
const STYLE_TEXT = 2;

function sheetXml(sheet: SheetSpec): string {
  const cols = sheet.columns
    .map(
      (c, i) =>
        `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"${c.text ? ` style="${STYLE_TEXT}"` : ''}/>`,
    )
    .join('');
  const cell = (value: string | null, r: number, c: number, style: number | undefined) => {
    const s = style ? ` s="${style}"` : '';
    if (value === null || value === '') return style ? `<c r="${columnName(c)}${r}"${s}/>` : '';
    return `<c r="${columnName(c)}${r}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
  };
  const rows: string[] = [];
  const all = sheet.plain ? sheet.rows : [sheet.columns.map((c) => c.header), ...sheet.rows];
  all.forEach((values, ri) => {
    const r = ri + 1;
    const header = !sheet.plain && ri === 0;
    const cells = values
      .map((v, ci) => cell(v, r, ci, header ? STYLE_BOLD : sheet.columns[ci]?.text ? STYLE_TEXT : undefined))
      .join('');
    rows.push(`<row r="${r}">${cells}</row>`);
  });
  const pane = sheet.plain
    ? ''
    : '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
  const choices = sheet.choices
    ? `<dataValidations count="1"><dataValidation type="list" allowBlank="1" showErrorMessage="1" sqref="${columnName(sheet.choices.column)}2:${columnName(sheet.choices.column)}5000"><formula1>"${escapeXml(sheet.choices.values.join(','))}"</formula1></dataValidation></dataValidations>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">${pane}<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>${rows.join('')}</sheetData>${choices}</worksheet>`;
}

/** An .xlsx workbook of text sheets. */
export async function writeXlsx(sheets: SheetSpec[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets
      .map(
        (_s, i) =>
          `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join(
        '',
      )}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheets
      .map((s, i) => `<sheet name="${escapeXml(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('')}</sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${PKG_REL_NS}">${sheets
      .map(
        (_s, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join(
        '',
      )}<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
  );
  zip.file('xl/styles.xml', STYLES);
  sheets.forEach((s, i) => zip.file(`xl/worksheets/sheet${i + 1}.xml`, sheetXml(s)));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

// ───────────── reading ─────────────

/** Why a file could not be read as a workbook. */
export class XlsxError extends Error {
  constructor(
    readonly reason: 'notXlsx' | 'tooLarge' | 'inflatesTooLarge' | 'tooManyRows',
    message: string,
  ) {
    super(message);
    this.name = 'XlsxError';
  }
}

/** One row of the first sheet: its number in Excel (1-based) and its cells' text by column. */
export interface SheetRow {
  row: number;
  cells: string[];
}

/** Most XML one part of the workbook may inflate to (a zip bomb is refused before it is inflated). */
const MAX_PART_BYTES = 50 * 1024 * 1024;

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

async function readPart(zip: JSZip, path: string): Promise<string | null> {
  const file = zip.file(path);
  if (!file) return null;
  // jszip keeps the central directory's sizes on the entry; checked before inflating.
  const size = (file as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize;
  if (size !== undefined && size > MAX_PART_BYTES)
    throw new XlsxError('tooLarge', `part ${path} inflates to ${size}`);
  const text = await file.async('string');
  if (text.length > MAX_PART_BYTES) throw new XlsxError('tooLarge', `part ${path} too large`);
  return text;
}

function parseXml(
  xml: string,
  handlers: {
    open?: (name: string, attrs: Record<string, string>) => void;
    text?: (text: string) => void;
    close?: (name: string) => void;
  },
): void {
  const parser = new Parser(
    {
      onopentag: (name, attrs) => handlers.open?.(localName(name), attrs),
      ontext: (text) => handlers.text?.(text),
      onclosetag: (name) => handlers.close?.(localName(name)),
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
}

/** The worksheet part of the workbook's first sheet. */
async function firstSheetPath(zip: JSZip): Promise<string> {
  const workbook = await readPart(zip, 'xl/workbook.xml');
  if (workbook === null) throw new XlsxError('notXlsx', 'no xl/workbook.xml');
  let relId: string | undefined;
  parseXml(workbook, {
    open: (name, attrs) => {
      if (name === 'sheet' && relId === undefined)
        relId = attrs['r:id'] ?? Object.entries(attrs).find(([k]) => localName(k) === 'id')?.[1];
    },
  });
  const rels = await readPart(zip, 'xl/_rels/workbook.xml.rels');
  let target: string | undefined;
  if (rels && relId) {
    parseXml(rels, {
      open: (name, attrs) => {
        if (name === 'Relationship' && attrs.Id === relId) target = attrs.Target;
      },
    });
  }
  if (!target) return 'xl/worksheets/sheet1.xml';
  return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
}

async function sharedStrings(zip: JSZip): Promise<string[]> {
  const xml = await readPart(zip, 'xl/sharedStrings.xml');
  if (xml === null) return [];
  const strings: string[] = [];
  let current = '';
  let inT = false;
  let inPhonetic = false;
  parseXml(xml, {
    open: (name) => {
      if (name === 'si') current = '';
      else if (name === 't') inT = true;
      else if (name === 'rPh') inPhonetic = true;
    },
    text: (text) => {
      if (inT && !inPhonetic) current += text;
    },
    close: (name) => {
      if (name === 'si') strings.push(current);
      else if (name === 't') inT = false;
      else if (name === 'rPh') inPhonetic = false;
    },
  });
  return strings;
}

/** A number cell as typed: 2026070101 stays 2026070101 (Excel may store it as 2.026070101E9). */
function numberText(value: string): string {
  const trimmed = value.trim();
  if (/^-?\d+$/.test(trimmed)) return trimmed;
  const n = Number(trimmed);
  if (Number.isFinite(n) && Number.isSafeInteger(n)) return String(n);
  return trimmed;
}

/**
 * Reads the first sheet of an .xlsx as text rows (empty rows left out). Throws XlsxError when the file is not a
 * workbook, when a part would inflate beyond 50 MB, or when it has more than `maxRows` rows with content.
 */
export async function readFirstSheet(data: Uint8Array, maxRows: number): Promise<SheetRow[]> {
  try {
    assertZipWithinLimits(data);
  } catch (error) {
    if (error instanceof ZipGuardError)
      throw new XlsxError(error.problem === 'tooLarge' ? 'inflatesTooLarge' : 'notXlsx', error.message);
    throw error;
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch {
    throw new XlsxError('notXlsx', 'not a zip');
  }
  const strings = await sharedStrings(zip);
  const xml = await readPart(zip, await firstSheetPath(zip));
  if (xml === null) throw new XlsxError('notXlsx', 'no first worksheet');

  const rows: SheetRow[] = [];
  let rowNo = 0;
  let cells: string[] = [];
  let col = 0;
  let cellCol = 0;
  let cellType: string | undefined;
  let value = '';
  let inline = '';
  let inV = false;
  let inInline = false;
  let inT = false;
  let inPhonetic = false;
  let tooMany = false;
  parseXml(xml, {
    open: (name, attrs) => {
      if (name === 'row') {
        rowNo = attrs.r ? Number(attrs.r) : rowNo + 1;
        cells = [];
        col = 0;
      } else if (name === 'c') {
        const index = attrs.r ? columnIndex(attrs.r) : -1;
        cellCol = index >= 0 ? index : col;
        cellType = attrs.t;
        value = '';
        inline = '';
      } else if (name === 'v') inV = true;
      else if (name === 'is') inInline = true;
      else if (name === 't') inT = true;
      else if (name === 'rPh') inPhonetic = true;
    },
    text: (text) => {
      if (inV) value += text;
      else if (inInline && inT && !inPhonetic) inline += text;
    },
    close: (name) => {
      if (name === 'v') inV = false;
      else if (name === 't') inT = false;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'is') inInline = false;
      else if (name === 'c') {
        let text: string;
        if (cellType === 's') text = strings[Number(value)] ?? '';
        else if (cellType === 'inlineStr') text = inline;
        else if (cellType === 'str') text = value;
        else if (cellType === 'b') text = value === '1' ? 'TRUE' : 'FALSE';
        else if (cellType === 'e') text = '';
        else text = value === '' ? '' : numberText(value);
        if (cellCol < 1000) cells[cellCol] = text;
        col = cellCol + 1;
      } else if (name === 'row') {
        const filled = Array.from(cells, (c) => c ?? '');
        if (filled.some((c) => c.trim() !== '')) {
          if (rows.length >= maxRows) tooMany = true;
          else rows.push({ row: rowNo, cells: filled });
        }
      }
    },
  });
  if (tooMany) throw new XlsxError('tooManyRows', `more than ${maxRows} rows`);
  return rows;
}
