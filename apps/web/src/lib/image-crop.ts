/** A square region of an image, in the image's own pixels. */
export interface SquareRegion {
  x: number;
  y: number;
  size: number;
}

/** Where the viewport's square falls on the image for a zoom (≥ 1) and an offset of the image's centre. */
export function regionFor(
  width: number,
  height: number,
  zoom: number,
  offset: { x: number; y: number },
): SquareRegion {
  const size = Math.min(width, height) / Math.max(1, zoom);
  const cx = width / 2 - offset.x;
  const cy = height / 2 - offset.y;
  const x = Math.min(Math.max(0, cx - size / 2), width - size);
  const y = Math.min(Math.max(0, cy - size / 2), height - size);
  return { x: Math.round(x), y: Math.round(y), size: Math.round(size) };
}

/** Keeps the offset so the square never leaves the image. */
export function clampOffset(
  width: number,
  height: number,
  zoom: number,
  offset: { x: number; y: number },
): { x: number; y: number } {
  const size = Math.min(width, height) / Math.max(1, zoom);
  const maxX = (width - size) / 2;
  const maxY = (height - size) / 2;
  return {
    x: Math.min(maxX, Math.max(-maxX, offset.x)),
    y: Math.min(maxY, Math.max(-maxY, offset.y)),
  };
}

/** Loads a file as an image element (EXIF orientation applied by the browser). */
export function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('unreadable image'));
    };
    img.src = url;
  });
}

/**
 * Draws the region into a square canvas of at most `maxSize` pixels and encodes it (PNG keeps a logo's
 * transparency; JPEG keeps a photo small), so only the cropped, resized picture travels to the host.
 */
export function cropToBlob(
  img: CanvasImageSource,
  region: SquareRegion,
  maxSize: number,
  type: 'image/png' | 'image/jpeg' = 'image/png',
): Promise<Blob> {
  const out = Math.max(32, Math.min(maxSize, region.size));
  const canvas = document.createElement('canvas');
  canvas.width = out;
  canvas.height = out;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no canvas'));
  if (type === 'image/jpeg') {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, out, out);
  }
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, region.x, region.y, region.size, region.size, 0, 0, out, out);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encode failed'))), type, 0.9),
  );
}
