import sharp from 'sharp';

// Perceptual hash of an answer crop for grouped marking. The ink's bounding box is cut out first (a crop is mostly
// white paper inside a printed border, which would make every hash alike), then a 16×16 difference hash: 256 bits,
// robust to scan noise and small shifts, different for different writing.

const SIDE = 16;

/** Where the ink is: the bounding box of dark pixels, leaving out a margin where the printed box border lies. */
function inkBox(
  data: Buffer,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } | null {
  const mx = Math.max(3, Math.round(width * 0.02));
  const my = Math.max(3, Math.round(height * 0.04));
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = my; y < height - my; y++) {
    const row = y * width;
    for (let x = mx; x < width - mx; x++) {
      if (data[row + x]! < 128) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  if (maxX < 0) return null;
  return { left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** The difference hash of an image's ink, as 64 hex digits (all zeros for a crop with no ink). */
export async function cropHash(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image)
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const box = inkBox(data, info.width, info.height);
  if (!box) return '0'.repeat((SIDE * SIDE) / 4);
  const small = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .extract(box)
    .resize(SIDE + 1, SIDE, { fit: 'fill' })
    .raw()
    .toBuffer();
  let hex = '';
  let nibble = 0;
  let bits = 0;
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const left = small[y * (SIDE + 1) + x]!;
      const right = small[y * (SIDE + 1) + x + 1]!;
      nibble = (nibble << 1) | (left > right + 2 ? 1 : 0);
      bits += 1;
      if (bits === 4) {
        hex += nibble.toString(16);
        nibble = 0;
        bits = 0;
      }
    }
  }
  return hex;
}

/** Bits that differ between two hashes of the same length. */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    let x = parseInt(a[i]!, 16) ^ parseInt(b[i]!, 16);
    while (x) {
      d += x & 1;
      x >>= 1;
    }
  }
  return d;
}

/** Crops this close (of 256 bits per crop) count as near-identical. */
export const NEAR_IDENTICAL_BITS = 16;
