import UTIF from 'utif';
import { canvasToJpeg } from './split-pages';

/** Every image of a (multi-page) TIFF as a JPEG; thumbnails and empty directories are skipped. */
export async function tiffPages(data: ArrayBuffer): Promise<Blob[]> {
  const out: Blob[] = [];
  for (const ifd of UTIF.decode(data)) {
    UTIF.decodeImage(data, ifd);
    const { width, height } = ifd;
    if (!width || !height) continue;
    const rgba = UTIF.toRGBA8(ifd);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    const pixels = new Uint8ClampedArray(width * height * 4);
    pixels.set(rgba.subarray(0, pixels.length));
    ctx.putImageData(new ImageData(pixels, width, height), 0, 0);
    out.push(await canvasToJpeg(canvas));
    canvas.width = 0;
    canvas.height = 0;
  }
  return out;
}
