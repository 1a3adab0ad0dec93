import sharp, { type Metadata } from 'sharp';
import { ACCOUNT_MESSAGES, AVATAR_SIZE, IMAGE_MAX_PIXELS } from '@zhzy/contracts';
import { AppError } from '../../lib/errors.js';

/** What an uploaded image becomes: a square avatar, a logo within 512 px, or a screenshot within 1920 px. */
export type ImagePurpose = 'avatar' | 'logo' | 'screenshot';

/** A square in pixels of the image as shown (EXIF orientation applied). */
export interface SquareCrop {
  x: number;
  y: number;
  size: number;
}

const ACCEPTED = new Set(['jpeg', 'png', 'webp']);
const MIN_SIDE = 32;
const LOGO_MAX = 512;
const SCREENSHOT_MAX = 1920;

/**
 * Validates an uploaded image by its content (never its name or declared type) and re-encodes it as WebP: JPEG, PNG
 * or WebP only; the pixel count is read from the header before anything is decoded, so a decompression bomb costs
 * nothing; then it is decoded whole (a broken file is refused), oriented, cropped and resized. Re-encoding also drops
 * metadata (EXIF locations) and anything appended to the file.
 */
export async function processImage(data: Buffer, purpose: ImagePurpose, crop?: SquareCrop): Promise<Buffer> {
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA', ACCOUNT_MESSAGES.badImage);
  }
  if (!meta.format || !ACCEPTED.has(meta.format) || !meta.width || !meta.height)
    throw new AppError('UNSUPPORTED_MEDIA', ACCOUNT_MESSAGES.badImage);
  if (meta.width * meta.height > IMAGE_MAX_PIXELS)
    throw new AppError('PAYLOAD_TOO_LARGE', ACCOUNT_MESSAGES.imageTooManyPixels);
  const width = meta.autoOrient.width;
  const height = meta.autoOrient.height;
  if (purpose !== 'screenshot' && (width < MIN_SIDE || height < MIN_SIDE))
    throw new AppError('VALIDATION', ACCOUNT_MESSAGES.imageTooSmall);
  if (crop && (crop.x + crop.size > width || crop.y + crop.size > height))
    throw new AppError('VALIDATION', ACCOUNT_MESSAGES.cropOutside);

  let pipeline = sharp(data, {
    limitInputPixels: IMAGE_MAX_PIXELS,
    failOn: 'error',
    autoOrient: true,
    animated: false,
  });
  if (crop) pipeline = pipeline.extract({ left: crop.x, top: crop.y, width: crop.size, height: crop.size });
  if (purpose === 'avatar') {
    pipeline = pipeline.resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' });
  } else {
    const max = purpose === 'logo' ? LOGO_MAX : SCREENSHOT_MAX;
    pipeline = pipeline.resize(max, max, { fit: 'inside', withoutEnlargement: true });
  }
  try {
    return await pipeline.webp({ quality: purpose === 'screenshot' ? 80 : 85 }).toBuffer();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA', ACCOUNT_MESSAGES.badImage);
  }
}

/** The crop of an upload's fields, when all three are given. */
export function cropOf(fields: {
  x?: number | undefined;
  y?: number | undefined;
  size?: number | undefined;
}) {
  return fields.x !== undefined && fields.y !== undefined && fields.size !== undefined
    ? { x: fields.x, y: fields.y, size: fields.size }
    : undefined;
}
