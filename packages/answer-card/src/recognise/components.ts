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

/** Per-run (and per-component) tables shared by every call, grown to the largest mask seen. */
class RunTables {
  size = 0;
  parent = new Int32Array(0);
  area = new Int32Array(0);
  minX = new Int32Array(0);
  maxX = new Int32Array(0);
  minY = new Int32Array(0);
  maxY = new Int32Array(0);
  sx = new Float64Array(0);
  sy = new Float64Array(0);
  /** A component's totals, at its root's index (`total` 0: not met yet). */
  total = new Int32Array(0);
  tMinX = new Int32Array(0);
  tMaxX = new Int32Array(0);
  tMinY = new Int32Array(0);
  tMaxY = new Int32Array(0);
  tSx = new Float64Array(0);
  tSy = new Float64Array(0);
  /** Roots in the order their first run comes. */
  order = new Int32Array(0);
  /** x0, x1, id triples of the previous row's runs and of this row's. */
  prev = new Int32Array(0);
  row = new Int32Array(0);

  /** Room for a row of `rowRuns` runs, and per-component tables for `runs` runs. */
  fit(runs: number, rowRuns: number): void {
    if (this.row.length < 3 * rowRuns) {
      this.prev = new Int32Array(3 * rowRuns);
      this.row = new Int32Array(3 * rowRuns);
    }
    if (this.total.length < runs) {
      const n = Math.ceil(runs * 1.5);
      for (const k of ['total', 'tMinX', 'tMaxX', 'tMinY', 'tMaxY', 'order'] as const)
        this[k] = new Int32Array(n);
      this.tSx = new Float64Array(n);
      this.tSy = new Float64Array(n);
    }
  }

  /** Room for run `id` (the tables grown by half again, their contents kept). */
  room(id: number): void {
    if (id < this.size) return;
    const n = Math.max(1024, Math.ceil((id + 1) * 1.5));
    this.size = n;
    for (const k of ['parent', 'area', 'minX', 'maxX', 'minY', 'maxY'] as const) {
      const a = new Int32Array(n);
      a.set(this[k]);
      this[k] = a;
    }
    for (const k of ['sx', 'sy'] as const) {
      const a = new Float64Array(n);
      a.set(this[k]);
      this[k] = a;
    }
  }
}

/** Tables for up to this many runs are kept for the next call (a few megabytes); larger ones are let go. */
const KEEP_RUNS = 1 << 17;
let tables = new RunTables();

/**
 * Eight-connected components of the set pixels of a binary mask (1 = set), found run by run with union-find.
 * Blobs smaller than `minArea` are dropped. Blobs come in the order of their first run (row by row).
 */
export function findBlobs(mask: Uint8Array, width: number, height: number, minArea = 1): Blob[] {
  // A row holds at most one run in every two pixels.
  const rowRuns = (width + 1) >> 1;
  const t = tables;
  t.fit(0, rowRuns);
  let { parent, area, minX, maxX, minY, maxY, sx, sy } = t;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      const p = parent[parent[a]!]!;
      parent[a] = p;
      a = p;
    }
    return a;
  };
  let runs = 0;
  let prev = t.prev;
  let row = t.row;
  let prevN = 0;
  for (let y = 0; y < height; y++) {
    let rowN = 0;
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
      const id = runs++;
      if (id >= t.size) {
        t.room(id);
        ({ parent, area, minX, maxX, minY, maxY, sx, sy } = t);
      }
      const n = x1 - x0 + 1;
      parent[id] = id;
      area[id] = n;
      minX[id] = x0;
      maxX[id] = x1;
      minY[id] = y;
      maxY[id] = y;
      sx[id] = ((x0 + x1 + 1) / 2) * n;
      sy[id] = (y + 0.5) * n;
      row[rowN++] = x0;
      row[rowN++] = x1;
      row[rowN++] = id;
      // Runs touch (8-connected) when their x ranges overlap once widened by a pixel.
      for (let k = 0; k < prevN; k += 3) {
        if (prev[k + 1]! < x0 - 1 || prev[k]! > x1 + 1) continue;
        const ra = find(prev[k + 2]!);
        const rb = find(id);
        if (ra !== rb) parent[rb] = ra;
      }
    }
    const swap = prev;
    prev = row;
    row = swap;
    prevN = rowN;
  }
  t.fit(runs, rowRuns);
  const { total, tMinX, tMaxX, tMinY, tMaxY, tSx, tSy, order } = t;
  total.fill(0, 0, runs);
  let roots = 0;
  for (let id = 0; id < runs; id++) {
    const root = find(id);
    if (!total[root]) {
      order[roots++] = root;
      total[root] = area[id]!;
      tMinX[root] = minX[id]!;
      tMaxX[root] = maxX[id]!;
      tMinY[root] = minY[id]!;
      tMaxY[root] = maxY[id]!;
      tSx[root] = sx[id]!;
      tSy[root] = sy[id]!;
    } else {
      total[root] += area[id]!;
      tMinX[root] = Math.min(tMinX[root]!, minX[id]!);
      tMaxX[root] = Math.max(tMaxX[root]!, maxX[id]!);
      tMinY[root] = Math.min(tMinY[root]!, minY[id]!);
      tMaxY[root] = Math.max(tMaxY[root]!, maxY[id]!);
      tSx[root]! += sx[id]!;
      tSy[root]! += sy[id]!;
    }
  }
  const out: Blob[] = [];
  for (let i = 0; i < roots; i++) {
    const r = order[i]!;
    const a = total[r]!;
    if (a < minArea) continue;
    out.push({
      area: a,
      minX: tMinX[r]!,
      minY: tMinY[r]!,
      maxX: tMaxX[r]!,
      maxY: tMaxY[r]!,
      cx: tSx[r]! / a,
      cy: tSy[r]! / a,
    });
  }
  if (t.size > KEEP_RUNS) tables = new RunTables();
  return out;
}
