import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { renderFixture } from '@zhzy/answer-card/recognise/testing';
import { makePhoto, type Photo } from '@zhzy/answer-card/photo/testing';
import type { TestApp } from '@zhzy/server/testing';
import type { HostApi } from './teacher';

/**
 * A still picture as a Y4M stream (one frame, 4:2:0, BT.601 studio range), the format Chromium's fake camera reads.
 */
export async function toY4m(jpeg: Buffer, file: string): Promise<void> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const w = info.width - (info.width % 2);
  const h = info.height - (info.height % 2);
  const y = Buffer.alloc(w * h);
  const u = Buffer.alloc((w / 2) * (h / 2));
  const v = Buffer.alloc((w / 2) * (h / 2));
  const px = (x: number, yy: number) => {
    const i = (yy * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      const [r, g, b] = px(x, yy);
      y[yy * w + x] = Math.round(16 + (219 * (0.299 * r + 0.587 * g + 0.114 * b)) / 255);
    }
  for (let yy = 0; yy < h; yy += 2)
    for (let x = 0; x < w; x += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const p = px(x + dx, yy + dy);
        r += p[0] / 4;
        g += p[1] / 4;
        b += p[2] / 4;
      }
      const i = (yy / 2) * (w / 2) + x / 2;
      u[i] = Math.round(128 + (224 * (-0.1687 * r - 0.3313 * g + 0.5 * b)) / 255);
      v[i] = Math.round(128 + (224 * (0.5 * r - 0.4187 * g - 0.0813 * b)) / 255);
    }
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), y, u, v]),
  );
}

/** A homework's card photographed for one of its students, and the camera stream that shows it. */
export interface CameraScene {
  homework: { id: string; title: string };
  student: { id: string; name: string };
  /** A good photo of the filled card (8 MP, up to 12° of tilt, uneven light) and a dark one. */
  good: Photo;
  dark: Photo;
  /** The Y4M file Chromium's fake camera plays (`cameraFlags`). */
  stream: string;
}

/** Chromium flags that make `stream` the camera, the permission granted without a prompt. */
export const cameraFlags = (stream: string) => [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-video-capture=${stream}`,
];

/**
 * Prints the card of the demo homework `title` for the first student of its first class, fills it and photographs
 * it with the phone-photo model (ADR 0060), in `dir`.
 */
export async function cameraScene(
  host: TestApp,
  api: HostApi,
  title: string,
  dir: string,
): Promise<CameraScene> {
  const list = await api<{
    records: { id: string; title: string; classes: { id: string; name: string }[] }[];
  }>('GET', '/teacher/homework/list?page=1&size=50');
  const homework = list.records.find((h) => h.title === title);
  if (!homework) throw new Error(`no demo homework ${title}`);
  const klass = homework.classes[0]!;
  const card = await api<{ layout: Parameters<typeof renderFixture>[2] }>(
    'GET',
    `/teacher/homework/card/${homework.id}`,
  );
  const row = await host.testDb.db.kysely
    .selectFrom('students')
    .select(['id', 'name', 'student_no'])
    .where('class_id', '=', klass.id)
    .orderBy('student_no')
    .executeTakeFirstOrThrow();
  const fixture = await renderFixture(dir, 'phone', card.layout, [
    { id: row.id, name: row.name, number: row.student_no, className: klass.name },
  ]);
  const good = await makePhoto(dir, {
    fixture,
    seed: 41,
    megapixels: 8,
    maxTiltDeg: 12,
    plan: { mix: { fill: 2, dark: 1 }, blankChance: 0, erasedChance: 0 },
  });
  const dark = await makePhoto(dir, { fixture, seed: 42, fault: 'tooDark', megapixels: 8 });
  const stream = path.join(dir, 'camera.y4m');
  await toY4m(good.bytes, stream);
  return { homework, student: { id: row.id, name: row.name }, good, dark, stream };
}
