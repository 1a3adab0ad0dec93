/**
 * The barcode formats /printBarcode offers and their input rules (SPEC §5: EAN-13 needs 13 digits with a valid check
 * digit, pharmacode is 3 to 131070). Checked before bwip-js runs, so every refusal names the rule that failed.
 */

export const BARCODE_FORMATS = [
  'code128',
  'ean13',
  'ean8',
  'upca',
  'itf14',
  'code39',
  'pharmacode',
  'qrcode',
] as const;
export type BarcodeFormat = (typeof BARCODE_FORMATS)[number];

/** SPEC §9's defaults, in CSS pixels: bar (module) width 2, height 100, font size 20, margin 10. */
export const BARCODE_DEFAULTS = {
  width: 2,
  height: 100,
  fontSize: 20,
  margin: 10,
  displayValue: true,
} as const;

export interface BarcodeOptions {
  width: number;
  height: number;
  fontSize: number;
  margin: number;
  displayValue: boolean;
}

/** Bounds of the options (the form clamps to these). */
export const BARCODE_LIMITS = {
  width: { min: 1, max: 6 },
  height: { min: 20, max: 400 },
  fontSize: { min: 8, max: 48 },
  margin: { min: 0, max: 60 },
} as const;

export const PHARMACODE_MIN = 3;
export const PHARMACODE_MAX = 131070;
export const CODE128_MAX = 80;
export const CODE39_MAX = 43;
export const QR_MAX = 500;

/** Digits of the fixed-length GTIN formats, check digit included. */
export const GTIN_LENGTHS = { ean13: 13, ean8: 8, upca: 12, itf14: 14 } as const;
export type GtinFormat = keyof typeof GTIN_LENGTHS;

export type BarcodeProblem =
  | { code: 'empty' }
  | { code: 'tooLong'; max: number }
  | { code: 'code128Char'; char: string }
  | { code: 'code39Char'; char: string }
  | { code: 'digitsOnly'; format: GtinFormat }
  | {
      code: 'digitCount';
      format: GtinFormat;
      expected: number;
      actual: number;
      /** When exactly the check digit is missing: the complete number. */
      completed: string | null;
    }
  | { code: 'checkDigit'; format: GtinFormat; expected: number; actual: number }
  | { code: 'pharmacodeNumber' }
  | { code: 'pharmacodeRange'; value: number };

export type BarcodeCheck = { ok: true; text: string } | { ok: false; problem: BarcodeProblem };

/**
 * The GS1 check digit of the digits before it: weights 3 and 1 alternating from the right, then what brings the sum
 * to a multiple of ten. The same rule serves EAN-13, EAN-8, UPC-A and ITF-14.
 */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

const isGtin = (f: BarcodeFormat): f is GtinFormat => f in GTIN_LENGTHS;
const CODE39_CHARS = /^[0-9A-Z \-.$/+%]$/;

function checkGtin(format: GtinFormat, text: string): BarcodeCheck {
  if (!/^\d+$/.test(text)) return { ok: false, problem: { code: 'digitsOnly', format } };
  const expected = GTIN_LENGTHS[format];
  if (text.length !== expected) {
    const completed = text.length === expected - 1 ? text + String(gtinCheckDigit(text)) : null;
    return {
      ok: false,
      problem: { code: 'digitCount', format, expected, actual: text.length, completed },
    };
  }
  const want = gtinCheckDigit(text.slice(0, -1));
  const got = Number(text.at(-1));
  if (want !== got)
    return { ok: false, problem: { code: 'checkDigit', format, expected: want, actual: got } };
  return { ok: true, text };
}

/** Checks one barcode's content against its format's rule; the text is trimmed first. */
export function checkBarcode(format: BarcodeFormat, input: string): BarcodeCheck {
  const text = input.trim();
  if (!text) return { ok: false, problem: { code: 'empty' } };
  if (isGtin(format)) return checkGtin(format, text);
  switch (format) {
    case 'code128': {
      if (text.length > CODE128_MAX) return { ok: false, problem: { code: 'tooLong', max: CODE128_MAX } };
      const bad = [...text].find((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) > 126);
      return bad ? { ok: false, problem: { code: 'code128Char', char: bad } } : { ok: true, text };
    }
    case 'code39': {
      if (text.length > CODE39_MAX) return { ok: false, problem: { code: 'tooLong', max: CODE39_MAX } };
      const bad = [...text].find((c) => !CODE39_CHARS.test(c));
      return bad ? { ok: false, problem: { code: 'code39Char', char: bad } } : { ok: true, text };
    }
    case 'pharmacode': {
      if (!/^\d+$/.test(text)) return { ok: false, problem: { code: 'pharmacodeNumber' } };
      const value = Number(text);
      if (value < PHARMACODE_MIN || value > PHARMACODE_MAX)
        return { ok: false, problem: { code: 'pharmacodeRange', value } };
      return { ok: true, text: String(value) };
    }
    case 'qrcode':
      return [...text].length > QR_MAX
        ? { ok: false, problem: { code: 'tooLong', max: QR_MAX } }
        : { ok: true, text };
  }
}

/** One code per non-empty line of a textarea, with its line number (1-based). */
export function barcodeLines(input: string): { line: number; text: string }[] {
  return input
    .split(/\r?\n/)
    .map((text, i) => ({ line: i + 1, text: text.trim() }))
    .filter((l) => l.text !== '');
}

/** Clamps a number option into its bounds; NaN falls back to the SPEC default. */
export function clampOption(key: keyof typeof BARCODE_LIMITS, value: number): number {
  const { min, max } = BARCODE_LIMITS[key];
  if (!Number.isFinite(value)) return BARCODE_DEFAULTS[key];
  return Math.min(max, Math.max(min, Math.round(value)));
}
