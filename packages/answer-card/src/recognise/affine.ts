/** A 2-D affine map: x' = a·x + b·y + c, y' = d·x + e·y + f. */
export type Affine = readonly [number, number, number, number, number, number];

export interface Point {
  x: number;
  y: number;
}

export function apply(m: Affine, p: Point): Point {
  return { x: m[0] * p.x + m[1] * p.y + m[2], y: m[3] * p.x + m[4] * p.y + m[5] };
}

export function invert(m: Affine): Affine {
  const [a, b, c, d, e, f] = m;
  const det = a * e - b * d;
  const ia = e / det;
  const ib = -b / det;
  const id = -d / det;
  const ie = a / det;
  return [ia, ib, -(ia * c + ib * f), id, ie, -(id * c + ie * f)];
}

/** Determinant of the 3×3 matrix with rows (a, b, c), (d, e, f), (g, h, i). */
const det3 = (
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  g: number,
  h: number,
  i: number,
) => a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);

/** Solves a 3×3 linear system by Cramer's rule; undefined when singular. */
function solve3(m: number[][], r: number[]): [number, number, number] | undefined {
  const [a, b, c] = m[0]! as [number, number, number];
  const [d, e, f] = m[1]! as [number, number, number];
  const [g, h, i] = m[2]! as [number, number, number];
  const [r0, r1, r2] = r as [number, number, number];
  const det = det3(a, b, c, d, e, f, g, h, i);
  if (Math.abs(det) < 1e-12) return undefined;
  // Each unknown: the determinant with its column replaced by the right-hand side.
  return [
    det3(r0, b, c, r1, e, f, r2, h, i) / det,
    det3(a, r0, c, d, r1, f, g, r2, i) / det,
    det3(a, b, r0, d, e, r1, g, h, r2) / det,
  ];
}

/** Least-squares affine map taking `from[i]` to `to[i]` (three or more points). */
export function fitAffine(from: readonly Point[], to: readonly Point[]): Affine | undefined {
  let sxx = 0,
    sxy = 0,
    syy = 0,
    sx = 0,
    sy = 0;
  let ux = 0,
    uy = 0,
    u1 = 0,
    vx = 0,
    vy = 0,
    v1 = 0;
  const n = from.length;
  for (let i = 0; i < n; i++) {
    const p = from[i]!;
    const q = to[i]!;
    sxx += p.x * p.x;
    sxy += p.x * p.y;
    syy += p.y * p.y;
    sx += p.x;
    sy += p.y;
    ux += q.x * p.x;
    uy += q.x * p.y;
    u1 += q.x;
    vx += q.y * p.x;
    vy += q.y * p.y;
    v1 += q.y;
  }
  const normal = [
    [sxx, sxy, sx],
    [sxy, syy, sy],
    [sx, sy, n],
  ];
  const row1 = solve3(normal, [ux, uy, u1]);
  const row2 = solve3(normal, [vx, vy, v1]);
  if (!row1 || !row2) return undefined;
  return [...row1, ...row2];
}

/** Least-squares similarity (rotation, uniform scale, shift, optionally mirrored never) taking from → to. */
export function fitSimilarity(from: readonly Point[], to: readonly Point[]): Affine {
  const n = from.length;
  let mx = 0,
    my = 0,
    nx = 0,
    ny = 0;
  for (let i = 0; i < n; i++) {
    mx += from[i]!.x / n;
    my += from[i]!.y / n;
    nx += to[i]!.x / n;
    ny += to[i]!.y / n;
  }
  let sa = 0,
    sb = 0,
    ss = 0;
  for (let i = 0; i < n; i++) {
    const px = from[i]!.x - mx;
    const py = from[i]!.y - my;
    const qx = to[i]!.x - nx;
    const qy = to[i]!.y - ny;
    sa += px * qx + py * qy;
    sb += px * qy - py * qx;
    ss += px * px + py * py;
  }
  const a = sa / ss;
  const b = sb / ss;
  // x' = a·x − b·y + c, y' = b·x + a·y + f
  return [a, -b, nx - a * mx + b * my, b, a, ny - b * mx - a * my];
}

/** The largest distance between `apply(m, from[i])` and `to[i]`, and each one. */
export function residuals(
  m: Affine,
  from: readonly Point[],
  to: readonly Point[],
): { max: number; each: number[] } {
  const each = from.map((p, i) => {
    const q = apply(m, p);
    return Math.hypot(q.x - to[i]!.x, q.y - to[i]!.y);
  });
  return { max: Math.max(0, ...each), each };
}

/** Mean scale of the map (pixels per unit). */
export function scaleOf(m: Affine): number {
  return Math.sqrt(Math.abs(m[0] * m[4] - m[1] * m[3]));
}

/** Rotation of the map's x axis, degrees clockwise in image coordinates (y down). */
export function rotationOf(m: Affine): number {
  return (Math.atan2(m[3], m[0]) * 180) / Math.PI;
}
