/** A connected component of set pixels in a binary image. */
export interface Blob {
  area: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Centroid at pixel centres. */
  cx: number;
  cy: number;
}

/**
 * Eight-connected components of the set pixels of a binary mask (1 = set), found run by run with union-find.
 * Blobs smaller than `minArea` are dropped.
 */
export function findBlobs(mask: Uint8Array, width: number, height: number, minArea = 1): Blob[] {
  const parent: number[] = [];
  const area: number[] = [];
  const minX: number[] = [];
  const maxX: number[] = [];
  const minY: number[] = [];
  const maxY: number[] = [];
  const sx: number[] = [];
  const sy: number[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) {
      const p = parent[parent[a]!]!;
      parent[a] = p;
      a = p;
    }
    return a;
  };
  let prev: number[] = []; // x0, x1, id triples
  for (let y = 0; y < height; y++) {
    const row: number[] = [];
    const base = y * width;
    let x = 0;
    while (x < width) {
      if (!mask[base + x]) {
        x++;
        continue;
      }
      const x0 = x;
      while (x < width && mask[base + x]) x++;
      const x1 = x - 1;
      const id = parent.length;
      const n = x1 - x0 + 1;
      parent.push(id);
      area.push(n);
      minX.push(x0);
      maxX.push(x1);
      minY.push(y);
      maxY.push(y);
      sx.push(((x0 + x1 + 1) / 2) * n);
      sy.push((y + 0.5) * n);
      row.push(x0, x1, id);
      // Runs touch (8-connected) when their x ranges overlap once widened by a pixel.
      for (let k = 0; k < prev.length; k += 3) {
        if (prev[k + 1]! < x0 - 1 || prev[k]! > x1 + 1) continue;
        const ra = find(prev[k + 2]!);
        const rb = find(id);
        if (ra !== rb) parent[rb] = ra;
      }
    }
    prev = row;
  }
  const merged = new Map<number, Blob & { sx: number; sy: number }>();
  for (let id = 0; id < parent.length; id++) {
    const root = find(id);
    const m = merged.get(root);
    if (!m) {
      merged.set(root, {
        area: area[id]!,
        minX: minX[id]!,
        maxX: maxX[id]!,
        minY: minY[id]!,
        maxY: maxY[id]!,
        cx: 0,
        cy: 0,
        sx: sx[id]!,
        sy: sy[id]!,
      });
    } else {
      m.area += area[id]!;
      m.minX = Math.min(m.minX, minX[id]!);
      m.maxX = Math.max(m.maxX, maxX[id]!);
      m.minY = Math.min(m.minY, minY[id]!);
      m.maxY = Math.max(m.maxY, maxY[id]!);
      m.sx += sx[id]!;
      m.sy += sy[id]!;
    }
  }
  const out: Blob[] = [];
  for (const m of merged.values()) {
    if (m.area < minArea) continue;
    out.push({
      area: m.area,
      minX: m.minX,
      minY: m.minY,
      maxX: m.maxX,
      maxY: m.maxY,
      cx: m.sx / m.area,
      cy: m.sy / m.area,
    });
  }
  return out;
}
