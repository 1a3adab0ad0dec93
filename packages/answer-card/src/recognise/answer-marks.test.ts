import { describe, expect, it } from 'vitest';
import { readAnswerMark } from './answer-marks.js';

const PER_MM = 8;
const W = 40 * PER_MM;
const H = 14 * PER_MM;

/** A red mask with pen strokes (mm polylines) of `width` mm drawn on it. */
function draw(strokes: [number, number][][], width = 0.5): Uint8Array {
  const mask = new Uint8Array(W * H);
  const r = (width / 2) * PER_MM;
  for (const line of strokes)
    for (let s = 1; s < line.length; s++) {
      const [ax, ay] = line[s - 1]!.map((v) => v * PER_MM) as [number, number];
      const [bx, by] = line[s]!.map((v) => v * PER_MM) as [number, number];
      const steps = Math.ceil(Math.hypot(bx - ax, by - ay) * 2);
      for (let t = 0; t <= steps; t++) {
        const cx = ax + ((bx - ax) * t) / steps;
        const cy = ay + ((by - ay) * t) / steps;
        for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++)
          for (let x = Math.floor(cx - r); x <= Math.ceil(cx + r); x++)
            if (x >= 0 && y >= 0 && x < W && y < H && Math.hypot(x - cx, y - cy) <= r) mask[y * W + x] = 1;
      }
    }
  return mask;
}

const tick = (x: number, y: number, s: number): [number, number][] => [
  [x - 1.8 * s, y],
  [x - 0.5 * s, y + 1.5 * s],
  [x + 2.2 * s, y - 1.9 * s],
];
const cross = (x: number, y: number, s: number): [number, number][][] => [
  [
    [x - 1.5 * s, y - 1.5 * s],
    [x + 1.5 * s, y + 1.5 * s],
  ],
  [
    [x + 1.5 * s, y - 1.5 * s],
    [x - 1.5 * s, y + 1.5 * s],
  ],
];

describe('a red √ / × on the answer (secondary signal when no box was ticked)', () => {
  it('reads one clear √ as a tick and one clear × as a cross, at any size and pen width', () => {
    for (const [s, width] of [
      [1.5, 0.3],
      [2.5, 0.8],
    ] as const) {
      expect(readAnswerMark(draw([tick(15, 7, s)], width), W, H, PER_MM)?.kind).toBe('tick');
      expect(readAnswerMark(draw(cross(20, 7, s), width), W, H, PER_MM)?.kind).toBe('cross');
    }
  });

  it('never guesses: a half-right √, two marks or a written number are unclear', () => {
    const half: [number, number][][] = [
      tick(15, 7, 2),
      [
        [15 + 0.4 * 2, 7 - 0.9 * 2],
        [15 + 1.6 * 2, 7 + 0.5 * 2],
      ],
    ];
    expect(readAnswerMark(draw(half), W, H, PER_MM)).toMatchObject({ kind: 'unclear', strokes: 1 });
    expect(readAnswerMark(draw([tick(8, 7, 1.5), ...cross(30, 7, 1.5)]), W, H, PER_MM)).toMatchObject({
      kind: 'unclear',
      strokes: 2,
    });
    // "−2" written beside nothing: a score written on the answer is for a person.
    const minusTwo: [number, number][][] = [
      [
        [10, 7],
        [13, 7],
      ],
      [
        [15, 5],
        [17, 4.5],
        [17.5, 6],
        [15, 9],
        [18, 9],
      ],
    ];
    expect(readAnswerMark(draw(minusTwo), W, H, PER_MM)?.kind).toBe('unclear');
    // A √ running out of the written box is cut: what is left is for a person, whatever it looks like.
    expect(readAnswerMark(draw([tick(15, 2, 2)]), W, H, PER_MM)?.kind).toBe('unclear');
    // A √ upside down is no √.
    const flipped = tick(15, 7, 2).map(([x, y]) => [x, 14 - y] as [number, number]);
    expect(readAnswerMark(draw([flipped]), W, H, PER_MM)?.kind).toBe('unclear');
  });

  it('leaves a box with no red on its answer, or only specks, to be marked on screen', () => {
    expect(readAnswerMark(new Uint8Array(W * H), W, H, PER_MM)).toBeUndefined();
    const specks = new Uint8Array(W * H);
    for (const i of [1000, 5000, 9000]) specks[i] = specks[i + 1] = 1;
    expect(readAnswerMark(specks, W, H, PER_MM)).toBeUndefined();
  });
});
