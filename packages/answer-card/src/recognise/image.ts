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
  /** The file's own size: `image` is smaller by `scale` when the page was decoded reduced. */
  fullWidth: number;
  fullHeight: number;
  /** File pixels per image pixel along each axis (1 for a full decode). */
  scale: { x: number; y: number };
  /**
   * `image` is, pixel for pixel and at full size, the file's grey: its one grey band (and perhaps alpha), or a 1-bit
   * palette whose colours are all grey (every channel the same level).
   */
  greyFile: boolean;
}

/**
 * Reduced decode: JPEG scans of at least ~290 dpi are decoded at a quarter of their size, those of ~270–290 dpi at a
 * third. Both go through libjpeg's DCT scaling by ½, which skips most of the inverse transform (sharp scales in the
 * DCT by ½ for requests of ¼ and ⅓, by ¼ only from ⅕), then a linear ½ or ⅔ reduction. A 300 dpi page becomes ~3
 * samples per millimetre, each a weighted mean of ~4 × 4 pixels: enough to find the anchors, read the code and
 * measure the bubbles and the written boxes; crop images are cut later from the file itself. The quarter costs
 * about half a full decode; the third's ⅔ reduction alone costs half as much again.
 */
const REDUCE_FACTORS: readonly number[] = [4, 3];
/**
 * Least samples per millimetre a reduced decode keeps (by the file's resolution; a page whose anchors then show fewer,
 * its resolution written wrong, is read again in full).
 */
export const REDUCED_MIN_PX_PER_MM = 2.85;
/** The third is used down to 3.5 samples per millimetre (~270 dpi). */
const THIRD_MIN_PX_PER_MM = 3.5;
/** Without a density the short side gives a lower bound of the resolution (A3's short side is the largest). */
const LARGEST_SHORT_SIDE_MM = 297;

/** Densities outside this range are treated as missing (72 is often a default, not a scan resolution). */
const PLAUSIBLE_DPI: readonly [number, number] = [100, 1300];

/**
 * Decodes a page image once into a single grey channel (the fastest path sharp offers: the first channel of grey
 * and 1-bit files, a luminance conversion only for colour scans).
 */
export async function decodePage(
  input: Buffer | Uint8Array,
  page = 0,
  options: { reduce?: boolean } = {},
): Promise<DecodedPage> {
  const open = () => sharp(input, { page, limitInputPixels: 1.5e8, failOn: 'error' });
  const source = open();
  const meta = await source.metadata();
  const channels = meta.channels ?? 1;
  const oneBit = (meta.bitsPerSample ?? 8) === 1;
  // A 1-bit file stored as RGB (libvips loads a two-colour palette PNG so) holds its two levels in every channel: its
  // first channel is read as a grey file's is, without a luminance conversion of every pixel (which costs about as
  // much as the decode itself). A palette whose first channel does not tell its two colours apart is converted.
  const colour = channels >= 3 && meta.space !== 'b-w' && !oneBit;
  const density = meta.density;
  const dpi = density && density >= PLAUSIBLE_DPI[0] && density <= PLAUSIBLE_DPI[1] ? density : null;
  const fullWidth = meta.width ?? 0;
  const fullHeight = meta.height ?? 0;
  const pxPerMm = dpi ? dpi / 25.4 : Math.min(fullWidth, fullHeight) / LARGEST_SHORT_SIDE_MM;
  const factor =
    options.reduce === true && meta.format === 'jpeg' && (meta.orientation ?? 1) === 1
      ? REDUCE_FACTORS.find((f) => pxPerMm / f >= (f === 3 ? THIRD_MIN_PX_PER_MM : REDUCED_MIN_PX_PER_MM))
      : undefined;
  const reduce = factor !== undefined;
  const read = async (grey: boolean, from = source): Promise<GreyImage> => {
    const sized = reduce
      ? from.resize(Math.round(fullWidth / factor), Math.round(fullHeight / factor), {
          fit: 'fill',
          kernel: 'linear',
          fastShrinkOnLoad: true,
        })
      : from;
    const pipeline = grey ? sized.greyscale() : sized.extractChannel(0);
    const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    return {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
    };
  };
  let image = await read(colour);
  const converted = oneBit && channels >= 3 && oneLevel(image);
  if (converted) image = await read(true, open());
  return {
    image,
    format: meta.format ?? 'unknown',
    dpi,
    bitonal: oneBit || isBitonal(image),
    fullWidth: fullWidth || image.width,
    fullHeight: fullHeight || image.height,
    scale: reduce ? { x: fullWidth / image.width, y: fullHeight / image.height } : { x: 1, y: 1 },
    greyFile:
      !reduce &&
      (channels < 3 ||
        meta.space === 'b-w' ||
        (oneBit && !converted && meta.format === 'png' && greyPalette(input) === true)),
  };
}

/**
 * Whether a PNG's palette holds only greys (red, green and blue equal in every entry): its pixels' first channel is
 * then their grey. Undefined without a palette before the image data.
 */
function greyPalette(png: Buffer | Uint8Array): boolean | undefined {
  const at = (i: number) => ((png[i]! << 24) | (png[i + 1]! << 16) | (png[i + 2]! << 8) | png[i + 3]!) >>> 0;
  // Chunks after the 8-byte signature: length, type, data, CRC.
  for (let i = 8; i + 8 <= png.length;) {
    const length = at(i);
    const type = String.fromCharCode(png[i + 4]!, png[i + 5]!, png[i + 6]!, png[i + 7]!);
    if (type === 'IDAT') return undefined;
    if (type === 'PLTE') {
      if (i + 8 + length > png.length || length % 3 !== 0) return undefined;
      for (let j = i + 8; j < i + 8 + length; j += 3)
        if (png[j] !== png[j + 1] || png[j] !== png[j + 2]) return false;
      return true;
    }
    i += 12 + length;
  }
  return undefined;
}

/** Whether a sample of the pixels holds a single value (a palette's first channel that says nothing). */
function oneLevel(img: GreyImage): boolean {
  const { data } = img;
  const step = Math.max(1, Math.floor(data.length / 20000)) | 1;
  const first = data[0];
  for (let i = step; i < data.length; i += step) if (data[i] !== first) return false;
  return true;
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
