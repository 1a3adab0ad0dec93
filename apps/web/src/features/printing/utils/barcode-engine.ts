import { code128, code39, drawingSVG, ean13, ean8, itf14, pharmacode, qrcode, upca } from 'bwip-js/browser';
import type { BarcodeFormat, BarcodeOptions } from './barcode-rules';

/*
 * bwip-js's encoders for the formats /printBarcode offers. This module is only ever loaded with a dynamic import, so
 * bwip-js sits in its own lazy chunk; only these encoders are imported, so the chunk holds no other symbology.
 */

const ENCODERS = { code128, code39, ean13, ean8, upca, itf14, pharmacode, qrcode } as const;
const GTIN = new Set<BarcodeFormat>(['ean13', 'ean8', 'upca']);

/** bwip-js measures bar heights in millimetres at 72 units an inch; the options are CSS pixels at that scale. */
const UNITS_PER_MM = 72 / 25.4;

export interface BarcodeSvg {
  svg: string;
  /** Size in CSS pixels. */
  width: number;
  height: number;
}

/**
 * Draws one barcode as SVG with SPEC §9's options in pixels: `width` is the narrowest bar (the module), `height` the
 * bars, `fontSize` the human-readable text and `margin` the quiet zone on every side. A QR code is `height` tall.
 * Throws bwip-js's error when the content does not fit the symbology (the rules are checked before).
 */
export function renderBarcodeSvg(format: BarcodeFormat, text: string, o: BarcodeOptions): BarcodeSvg {
  const scale = o.width;
  const linear = format !== 'qrcode';
  const svg = ENCODERS[format](
    {
      bcid: format,
      text,
      scale,
      ...(linear
        ? {
            height: o.height / (scale * UNITS_PER_MM),
            includetext: o.displayValue,
            // EAN and UPC place their digits the standard way (the first one left of the bars); others centre them.
            ...(GTIN.has(format) ? {} : { textxalign: 'center' as const }),
            textsize: o.fontSize / scale,
          }
        : {}),
      padding: o.margin / scale,
      backgroundcolor: 'FFFFFF',
    },
    drawingSVG(),
  );
  const box = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  let width = box ? Number(box[1]) : 0;
  let height = box ? Number(box[2]) : 0;
  if (!linear && height > 0) {
    // A QR code's size follows its content: draw it `height` pixels square (plus its margin).
    const side = o.height + o.margin * 2;
    width = (width * side) / height;
    height = side;
  }
  return { svg, width, height };
}
