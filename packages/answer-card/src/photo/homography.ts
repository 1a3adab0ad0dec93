/** A plane-to-plane projective map, row-major 3 × 3 with h[8] = 1. */
export type Homography = readonly number[];

export interface Pt {
  x: number;
  y: number;
}

/** Solves A·x = b (n × n, partial pivoting); undefined when singular. */
function solve(a: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return undefined;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** The homography taking each `from[i]` to `to[i]` (four points, no three on a line). */
export function homographyFrom(from: readonly Pt[], to: readonly Pt[]): Homography | undefined {
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(a, b);
  return h ? [...h, 1] : undefined;
}

export function applyHomography(h: Homography, p: Pt): Pt {
  const w = h[6]! * p.x + h[7]! * p.y + h[8]!;
  return { x: (h[0]! * p.x + h[1]! * p.y + h[2]!) / w, y: (h[3]! * p.x + h[4]! * p.y + h[5]!) / w };
}

/**
 * Angle in degrees between the photographed plane and the camera's image plane, from a homography that maps plane
 * millimetres to image pixels, for a pinhole camera of focal length `focalPx` centred on (`cx`, `cy`).
 */
export function tiltOf(h: Homography, focalPx: number, cx: number, cy: number): number {
  return poseOf(h, focalPx, cx, cy).tiltDeg;
}

/**
 * The pose a homography implies for a pinhole camera: the tilt, and how far it is from a rigid motion of a flat
 * rectangle (the two axis vectors of the plane should have one length and be at right angles: `stretch` is the ratio
 * of their lengths, at least 1, `shear` the cosine of their angle). A quadrilateral of the wrong points gives a pose
 * no camera can take.
 */
export function poseOf(
  h: Homography,
  focalPx: number,
  cx: number,
  cy: number,
): { tiltDeg: number; stretch: number; shear: number } {
  // K⁻¹·H: columns are λ·r1, λ·r2, λ·t.
  const col = (j: number) => {
    const x = h[j]!;
    const y = h[3 + j]!;
    const w = h[6 + j]!;
    return [(x - cx * w) / focalPx, (y - cy * w) / focalPx, w];
  };
  const r1 = col(0);
  const r2 = col(1);
  const n = [
    r1[1]! * r2[2]! - r1[2]! * r2[1]!,
    r1[2]! * r2[0]! - r1[0]! * r2[2]!,
    r1[0]! * r2[1]! - r1[1]! * r2[0]!,
  ];
  const len = Math.hypot(n[0]!, n[1]!, n[2]!);
  const l1 = Math.hypot(r1[0]!, r1[1]!, r1[2]!);
  const l2 = Math.hypot(r2[0]!, r2[1]!, r2[2]!);
  if (!len || !l1 || !l2) return { tiltDeg: 90, stretch: Infinity, shear: 1 };
  return {
    tiltDeg: (Math.acos(Math.min(1, Math.abs(n[2]!) / len)) * 180) / Math.PI,
    stretch: Math.max(l1, l2) / Math.min(l1, l2),
    shear: Math.abs(r1[0]! * r2[0]! + r1[1]! * r2[1]! + r1[2]! * r2[2]!) / (l1 * l2),
  };
}
