import sharp from 'sharp';

/** An 8-bit single-channel image, row-major. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface DecodedPage {
  image: GreyImage;
  format: string;
  /** Dots per inch from the file, when it says something plausible. */
  dpi: number | null;
  /** Only (near) black and white pixels. */
  bitonal: boolean;
}

/** Densities outside this range are treated as missing (72 is often a default, not a scan resolution). */
const PLAUSIBLE_DPI: readonly [number, number] = [100, 1300];

/**
 * Decodes a page image once into a single grey channel (the fastest path sharp offers: the first channel of grey
 * and 1-bit files, a luminance conversion only for colour scans).
 */
export async function decodePage(input: Buffer | Uint8Array, page = 0): Promise<DecodedPage> {
  const source = sharp(input, { page, limitInputPixels: 1.5e8, failOn: 'error' });
  const meta = await source.metadata();
  const channels = meta.channels ?? 1;
  const colour = channels >= 3 && meta.space !== 'b-w';
  const pipeline = colour ? source.greyscale() : source.extractChannel(0);
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const density = meta.density;
  const dpi = density && density >= PLAUSIBLE_DPI[0] && density <= PLAUSIBLE_DPI[1] ? density : null;
  const image: GreyImage = {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
  };
  return {
    image,
    format: meta.format ?? 'unknown',
    dpi,
    bitonal: (meta.bitsPerSample ?? 8) === 1 || isBitonal(image),
  };
}

/** Whether a sample of the pixels holds only values near 0 and 255. */
function isBitonal(img: GreyImage): boolean {
  const { data } = img;
  const step = Math.max(1, Math.floor(data.length / 20000)) | 1;
  for (let i = 0; i < data.length; i += step) {
    const v = data[i]!;
    if (v > 8 && v < 247) return false;
  }
  return true;
}
