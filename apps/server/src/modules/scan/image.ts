import sharp, { type Metadata } from 'sharp';
import { SCAN_MESSAGES, SCAN_PAGE_MAX_PIXELS } from '@zhzy/contracts';
import { uploadError } from './upload-errors.js';

export interface ImageFacts {
  format: 'jpeg' | 'png' | 'tiff';
  width: number;
  height: number;
  dpi: number | null;
}

/**
 * Validates an uploaded page by its content, never by its name or declared type: JPEG, PNG or TIFF, one page,
 * bounded pixels (read from the header before anything is decoded, so a decompression bomb costs nothing), and it
 * must decode.
 */
export async function inspectImage(data: Buffer): Promise<ImageFacts> {
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw uploadError('badImage', 'UNSUPPORTED_MEDIA', SCAN_MESSAGES.badImage);
  }
  const format =
    meta.format === 'jpeg' || meta.format === 'png' || meta.format === 'tiff' ? meta.format : null;
  if (!format || !meta.width || !meta.height)
    throw uploadError('badImage', 'UNSUPPORTED_MEDIA', SCAN_MESSAGES.badImage);
  if (meta.width * meta.height > SCAN_PAGE_MAX_PIXELS)
    throw uploadError('tooManyPixels', 'PAYLOAD_TOO_LARGE', SCAN_MESSAGES.tooManyPixels);
  if ((meta.pages ?? 1) > 1) throw uploadError('multiPage', 'VALIDATION', SCAN_MESSAGES.multiPage);
  try {
    // A full decode at reduced size (JPEG shrink-on-load keeps it cheap) proves the file is whole.
    await sharp(data, { limitInputPixels: SCAN_PAGE_MAX_PIXELS, failOn: 'error' })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw uploadError('badImage', 'UNSUPPORTED_MEDIA', SCAN_MESSAGES.badImage);
  }
  return {
    format,
    width: meta.width,
    height: meta.height,
    dpi: meta.density ? Math.round(meta.density) : null,
  };
}
