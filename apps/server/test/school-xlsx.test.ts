import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { XlsxError, columnIndex, columnName, readFirstSheet, writeXlsx } from '../src/modules/school/xlsx.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** A workbook whose only part that matters is the sheet XML given (no workbook.xml rels: sheet1 by default). */
async function withSheet(sheetData: string, sharedStrings?: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    'xl/workbook.xml',
    `<workbook xmlns="${MAIN}"><sheets><sheet name="S" sheetId="1"/></sheets></workbook>`,
  );
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<worksheet xmlns="${MAIN}"><sheetData>${sheetData}</sheetData></worksheet>`,
  );
  if (sharedStrings) zip.file('xl/sharedStrings.xml', `<sst xmlns="${MAIN}">${sharedStrings}</sst>`);
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('the .xlsx reader and writer', () => {
  it('names columns both ways', () => {
    expect([0, 25, 26, 701].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ']);
    expect(['A1', 'Z9', 'AA10', 'zz3', '12'].map(columnIndex)).toEqual([0, 25, 26, 701, -1]);
  });

  it('reads shared strings with rich runs (not their phonetic guides), inline strings, numbers and formulas', async () => {
    const file = await withSheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>内联</t></is></c></row>' +
        '<row r="3"><c r="A3"><v>2.026070101E9</v></c><c r="B3" t="str"><f>A1</f><v>公式</v></c><c r="D3" t="b"><v>1</v></c></row>' +
        '<row><c><v>7</v></c><c t="s"><v>1</v></c></row>',
      '<si><r><t>张</t></r><r><t xml:space="preserve">三 </t></r><rPh><t>ちょう</t></rPh></si><si><t>A&amp;B</t></si>',
    );
    expect(await readFirstSheet(file, 10)).toEqual([
      { row: 1, cells: ['张三 ', '', '内联'] },
      { row: 3, cells: ['2026070101', '公式', '', 'TRUE'] },
      { row: 4, cells: ['7', 'A&B'] },
    ]);
  });

  it('refuses what is not a workbook, and too many rows', async () => {
    await expect(readFirstSheet(Buffer.from('PK not really'), 10)).rejects.toBeInstanceOf(XlsxError);
    const many = await withSheet(
      Array.from(
        { length: 5 },
        (_, i) => `<row r="${i + 1}"><c t="inlineStr"><is><t>x</t></is></c></row>`,
      ).join(''),
    );
    await expect(readFirstSheet(many, 4)).rejects.toMatchObject({ reason: 'tooManyRows' });
  });

  it('writes what it reads back, text kept as typed', async () => {
    const file = await writeXlsx([
      {
        name: '名单',
        columns: [
          { header: '姓名', width: 10 },
          { header: '学号', width: 12, text: true },
        ],
        rows: [
          ['<张&三>', '007'],
          ['李四', null],
        ],
      },
    ]);
    expect(await readFirstSheet(file, 10)).toEqual([
      { row: 1, cells: ['姓名', '学号'] },
      { row: 2, cells: ['<张&三>', '007'] },
      { row: 3, cells: ['李四', ''] },
    ]);
  });
});
