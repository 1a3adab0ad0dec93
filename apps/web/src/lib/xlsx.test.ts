import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { columnName, exportFileName, sheetName, sheetXml, textWidth, writeXlsx } from './xlsx';

describe('xlsx writer', () => {
  it('names columns like Excel', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual([
      'A',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('keeps sheet names valid and unique', () => {
    const taken = new Set<string>();
    expect(sheetName('成绩/排名: 七年级[1]班', taken)).toBe('成绩 排名  七年级 1 班');
    expect(sheetName('x'.repeat(40), taken)).toHaveLength(31);
    expect(sheetName('x'.repeat(40), taken)).toBe(`${'x'.repeat(27)} (2)`);
    expect(sheetName('', taken)).toBe('Sheet');
  });

  it('counts CJK characters twice for column widths', () => {
    expect(textWidth('平均分')).toBe(6);
    expect(textWidth('85.5')).toBe(4);
  });

  it('writes numbers as numbers, text inline and escaped, blanks as nothing', () => {
    const xml = sheetXml({
      name: 's',
      header: ['姓名', '总分'],
      rows: [
        ['李<明>', 92.5],
        ['王&芳', null],
      ],
    });
    expect(xml).toContain('<c r="A2" t="inlineStr"><is><t xml:space="preserve">李&lt;明&gt;</t></is></c>');
    expect(xml).toContain('<c r="B2"><v>92.5</v></c>');
    expect(xml).toContain('王&amp;芳');
    expect(xml).not.toContain('r="B3"');
    expect(xml).toContain('<c r="A1" s="1" t="inlineStr">');
    expect(xml).toContain('state="frozen"');
  });

  it('puts title lines above a frozen header', () => {
    const xml = sheetXml({ name: 's', title: ['年级成绩', '2026-11-02'], header: ['班级'], rows: [['1班']] });
    expect(xml).toContain('<row r="1"><c r="A1" s="2"');
    expect(xml).toContain('<row r="3"><c r="A3" s="1"');
    expect(xml).toContain('ySplit="3"');
    expect(xml).toContain('<row r="4"><c r="A4" t="inlineStr">');
  });

  it('writes a workbook Excel can open: one worksheet per sheet, listed in the workbook', async () => {
    const blob = await writeXlsx([
      { name: '班级对比', header: ['班级', '平均分'], rows: [['七(1)班', 81.2]] },
      { name: '班级对比', header: ['题号'], rows: [[1]] },
    ]);
    const zip = await JSZip.loadAsync(await blob.arrayBuffer());
    const names = Object.keys(zip.files);
    expect(names).toEqual(
      expect.arrayContaining([
        '[Content_Types].xml',
        '_rels/.rels',
        'xl/workbook.xml',
        'xl/_rels/workbook.xml.rels',
        'xl/styles.xml',
        'xl/worksheets/sheet1.xml',
        'xl/worksheets/sheet2.xml',
      ]),
    );
    const workbook = await zip.file('xl/workbook.xml')!.async('string');
    expect(workbook).toContain('name="班级对比" sheetId="1"');
    expect(workbook).toContain('name="班级对比 (2)" sheetId="2"');
    expect(await zip.file('xl/worksheets/sheet1.xml')!.async('string')).toContain('<v>81.2</v>');
  });

  it('makes file names safe', () => {
    expect(exportFileName(['第一单元: 测试', null, '班级/对比'])).toBe('第一单元 测试-班级 对比.xlsx');
    expect(exportFileName([])).toBe('export.xlsx');
  });
});
