import { describe, expect, it } from 'vitest';
import { barcodeLines, checkBarcode, clampOption, gtinCheckDigit } from './barcode-rules';

describe('barcode rules', () => {
  it('computes GS1 check digits (EAN-13, EAN-8, UPC-A, ITF-14)', () => {
    expect(gtinCheckDigit('690123456789')).toBe(2);
    expect(gtinCheckDigit('400638133393')).toBe(1);
    expect(gtinCheckDigit('9638507')).toBe(4);
    expect(gtinCheckDigit('03600029145')).toBe(2);
    expect(gtinCheckDigit('1061414100041')).toBe(5);
  });

  it('accepts an EAN-13 with a valid check digit', () => {
    expect(checkBarcode('ean13', ' 6901234567892 ')).toEqual({ ok: true, text: '6901234567892' });
    expect(checkBarcode('ean13', '4006381333931')).toEqual({ ok: true, text: '4006381333931' });
  });

  it('refuses an EAN-13 with a wrong check digit and says which digit is right', () => {
    expect(checkBarcode('ean13', '6901234567890')).toEqual({
      ok: false,
      problem: { code: 'checkDigit', format: 'ean13', expected: 2, actual: 0 },
    });
  });

  it('refuses an EAN-13 of the wrong length, completing twelve digits with their check digit', () => {
    expect(checkBarcode('ean13', '690123456789')).toEqual({
      ok: false,
      problem: { code: 'digitCount', format: 'ean13', expected: 13, actual: 12, completed: '6901234567892' },
    });
    expect(checkBarcode('ean13', '69012345')).toMatchObject({
      ok: false,
      problem: { code: 'digitCount', actual: 8, completed: null },
    });
    expect(checkBarcode('ean13', '69012345678A2')).toEqual({
      ok: false,
      problem: { code: 'digitsOnly', format: 'ean13' },
    });
  });

  it('checks EAN-8, UPC-A and ITF-14 the same way', () => {
    expect(checkBarcode('ean8', '96385074').ok).toBe(true);
    expect(checkBarcode('ean8', '96385070')).toMatchObject({ ok: false, problem: { code: 'checkDigit' } });
    expect(checkBarcode('upca', '036000291452').ok).toBe(true);
    expect(checkBarcode('itf14', '10614141000415').ok).toBe(true);
    expect(checkBarcode('itf14', '1061414100041')).toMatchObject({
      ok: false,
      problem: { code: 'digitCount', completed: '10614141000415' },
    });
  });

  it('keeps pharmacode within 3 to 131070', () => {
    expect(checkBarcode('pharmacode', '3')).toEqual({ ok: true, text: '3' });
    expect(checkBarcode('pharmacode', '131070')).toEqual({ ok: true, text: '131070' });
    expect(checkBarcode('pharmacode', '2')).toEqual({
      ok: false,
      problem: { code: 'pharmacodeRange', value: 2 },
    });
    expect(checkBarcode('pharmacode', '131071')).toEqual({
      ok: false,
      problem: { code: 'pharmacodeRange', value: 131071 },
    });
    expect(checkBarcode('pharmacode', '12.5')).toEqual({ ok: false, problem: { code: 'pharmacodeNumber' } });
  });

  it('allows printable ASCII in CODE128 and the CODE39 set only', () => {
    expect(checkBarcode('code128', 'ZY-2026 No.1').ok).toBe(true);
    expect(checkBarcode('code128', '学号1')).toEqual({
      ok: false,
      problem: { code: 'code128Char', char: '学' },
    });
    expect(checkBarcode('code39', 'ABC-123').ok).toBe(true);
    expect(checkBarcode('code39', 'abc')).toEqual({ ok: false, problem: { code: 'code39Char', char: 'a' } });
    expect(checkBarcode('code128', 'x'.repeat(81))).toEqual({
      ok: false,
      problem: { code: 'tooLong', max: 80 },
    });
  });

  it('takes any text for QR codes, and refuses empty input everywhere', () => {
    expect(checkBarcode('qrcode', '七年级(1)班 张三').ok).toBe(true);
    expect(checkBarcode('code128', '   ')).toEqual({ ok: false, problem: { code: 'empty' } });
  });

  it('reads one code per non-empty line and clamps options', () => {
    expect(barcodeLines('a\n\n b \r\nc')).toEqual([
      { line: 1, text: 'a' },
      { line: 3, text: 'b' },
      { line: 4, text: 'c' },
    ]);
    expect(clampOption('width', 0)).toBe(1);
    expect(clampOption('height', Number.NaN)).toBe(100);
    expect(clampOption('fontSize', 200)).toBe(48);
  });
});
