import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../../db/schema.js';
import { cardQuestionOf } from '../homework/card-paper.js';
import { ResultsService, type AnswerPatch } from '../results/service.js';
import { isObjective } from '../results/scoring.js';
import type { PageStorage } from '../scan/storage.js';
import { MarkingRepository } from './repository.js';

// Scanned sheets without a scanner: what recognition would write (a sheet per student, crops of written answers,
// blank flags), for the demo seed, the tests and the browser tests. Crops are drawn from SVG: handwriting-like
// text with a wobble and pen strokes, so every student's crop looks different unless they wrote the same.

/** What a student wrote in one answer box: text (lines split by \n), or nothing. */
export type SampleAnswer = { text: string } | { blank: true };

function rng(seed: string): () => number {
  let h = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    h = (h + 0x6d2b79f5) | 0;
    let t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A crop of an answer box (PNG, grey paper, dark-blue ink). `hand` varies slant, size and position: two crops with
 * the same text and hand are identical, as a photocopied answer would be.
 */
export async function renderAnswerCrop(
  answer: SampleAnswer,
  hand: string,
  width = 900,
  height = 260,
): Promise<Buffer> {
  const r = rng(hand);
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="#fbfbf8"/>`,
    `<rect x="2" y="2" width="${width - 4}" height="${height - 4}" fill="none" stroke="#c9c9c9" stroke-width="2"/>`,
  ];
  if ('text' in answer) {
    const lines = answer.text.split('\n');
    const size = Math.round(34 + r() * 10);
    const slant = (r() - 0.5) * 8;
    const x0 = 30 + r() * 40;
    lines.forEach((line, i) => {
      const y = 60 + i * (size + 18) + r() * 8;
      parts.push(
        `<text x="${x0.toFixed(1)}" y="${y.toFixed(1)}" font-family="Noto Sans CJK SC, sans-serif" font-size="${size}" fill="#1d2a6b" transform="rotate(${slant.toFixed(2)} ${x0} ${y}) skewX(${(-8 - r() * 6).toFixed(1)})">${escapeXml(line)}</text>`,
      );
    });
    // A few pen strokes (underlines, a working line) so crops look written by hand.
    const strokes = 1 + Math.floor(r() * 2);
    for (let s = 0; s < strokes; s++) {
      const y = 70 + lines.length * (size + 18) + s * 22 + r() * 10;
      let d = `M ${(x0 + r() * 20).toFixed(1)} ${y.toFixed(1)}`;
      const len = 120 + r() * 260;
      for (let k = 1; k <= 6; k++)
        d += ` Q ${(x0 + (len * (k - 0.5)) / 6).toFixed(1)} ${(y + (r() - 0.5) * 10).toFixed(1)} ${(x0 + (len * k) / 6).toFixed(1)} ${(y + (r() - 0.5) * 4).toFixed(1)}`;
      parts.push(
        `<path d="${d}" fill="none" stroke="#1d2a6b" stroke-width="${(2 + r() * 1.5).toFixed(1)}" stroke-linecap="round"/>`,
      );
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).greyscale().png({ compressionLevel: 6 }).toBuffer();
}

export interface SampleSheetsInput {
  homeworkId: string;
  /** Students to scan, with the class each is in. */
  students: readonly { id: string; classId: string }[];
  /** What a student wrote for a written question; the hand defaults to the student's own. */
  answer(studentIndex: number, questionId: string, questionNo: number): SampleAnswer & { hand?: string };
}

/** Writes sheets as recognition would: one per student, every answer row, crops and blank flags of written ones. */
export async function writeSampleSheets(
  db: Kysely<Database>,
  pages: PageStorage,
  input: SampleSheetsInput,
  clock: () => number = Date.now,
): Promise<string[]> {
  const hw = await new MarkingRepository(db).sheetTarget(input.homeworkId);
  const questions = hw.paper.sections.flatMap((s) =>
    s.items.map((item) => ({ item, card: cardQuestionOf(item) })),
  );
  const results = new ResultsService(db, clock);
  const sheetIds: string[] = [];
  for (const [index, student] of input.students.entries()) {
    const sheet = await results.openSheet({
      orgId: hw.orgId,
      homeworkId: hw.id,
      studentId: student.id,
      classId: student.classId,
      cardId: hw.cardId,
      cardVersion: hw.cardVersion,
      pagesExpected: hw.pageCount,
      questions: questions.map((q) => ({
        questionId: q.item.questionId,
        kind: q.card.kind,
        fullScoreTenths: Math.round(q.item.score * 10),
      })),
    });
    const patches: AnswerPatch[] = [];
    for (const q of questions) {
      if (isObjective(q.card.kind)) {
        // Objective marks as recognition reads them: most students right, a few wrong, scored by the key.
        const key = q.item.question?.answer ?? '';
        const right = (index + q.item.no) % 4 !== 0;
        let response = right ? key : key === 'A' ? 'B' : 'A';
        if (q.card.kind === 'truefalse') {
          const truth = /错|×|F/.test(key) ? 'F' : 'T';
          response = right ? truth : truth === 'T' ? 'F' : 'T';
        }
        patches.push({
          questionId: q.item.questionId,
          response,
          responseStatus: 'ok',
          scoreTenths: right ? Math.round(q.item.score * 10) : 0,
          source: 'auto',
        });
        continue;
      }
      if (q.card.kind !== 'blank' && q.card.kind !== 'written') continue;
      const a = input.answer(index, q.item.questionId, q.item.no);
      const png = await renderAnswerCrop(a, a.hand ?? `${student.id}:${q.item.questionId}`);
      const hash = createHash('sha256').update(png).digest('hex');
      const path = pages.relativePath(hw.orgId, hash, 'png');
      await pages.write(path, png);
      patches.push({ questionId: q.item.questionId, cropPath: path, blank: 'blank' in a });
    }
    await results.writeAnswers(sheet.id, patches, { userId: null, reason: 'recognition' });
    await results.setPagesReceived(sheet.id, hw.pageCount);
    sheetIds.push(sheet.id);
  }
  return sheetIds;
}
