import path from 'node:path';
import { z } from 'zod';
import { CHOICE_OPTIONS, PageRecognitionSchema, type PageRecognition } from '@zhzy/contracts';
import type { AnswerKind } from '../../db/schema.js';
import { cardQuestionOf } from '../homework/card-paper.js';
import type { HomeworkWithPaper } from '../homework/repository.js';
import type { AnswerPatch } from '../results/service.js';
import { isObjective, scoreObjective, toTenths, type PartialRule } from '../results/scoring.js';
import type { ScanPage } from '../scan/repository.js';
import type { RecognitionPage } from './repository.js';

// A page's reading as recognition applies it: the stored reading parsed by its schema, the homework's questions
// with their card kinds, where crops are kept, and the answers a reading writes into results. Pure: no database.

export interface HomeworkQuestion {
  questionId: string;
  number: string;
  kind: AnswerKind;
  options: string[];
  fullScoreTenths: number;
  /** The paper's answer (the bank's text). */
  answer: string;
}

export const optionsOf = (kind: AnswerKind, count: number): string[] =>
  kind === 'truefalse' ? ['T', 'F'] : isObjective(kind) ? CHOICE_OPTIONS.slice(0, count) : [];

/** Questions of a homework in paper order, with their card kind and options. */
export function homeworkQuestions({ paper }: HomeworkWithPaper): HomeworkQuestion[] {
  const out: HomeworkQuestion[] = [];
  for (const s of paper.sections) {
    for (const item of s.items) {
      const q = cardQuestionOf(item);
      out.push({
        questionId: item.questionId,
        number: String(item.no),
        kind: q.kind,
        options: optionsOf(q.kind, 'options' in q ? (q.options ?? 4) : 0),
        fullScoreTenths: toTenths(item.score),
        answer: item.question?.answer ?? '',
      });
    }
  }
  return out;
}

/** `pages/<school>/<ab>/crops/<scan page id>/<crop>.<ext>`: where a page's crops are stored. */
export const CROP_PATH = /^pages\/[^/]+\/[^/]+\/crops\/([^/]+)\/[^/]+$/;

export function cropPath(scan: ScanPage, crop: PageRecognition['crops'][number]): string {
  return path.posix.join(
    path.posix.dirname(scan.filePath),
    'crops',
    scan.id,
    `${crop.id.replace(/[^\w-]/g, '_')}.${crop.format === 'png' ? 'png' : 'jpg'}`,
  );
}

/** Where the crops of a stored reading are kept (crop id → page-store path). */
export const CropPathsSchema = z.object({ cropPaths: z.record(z.string(), z.string()).optional() });

/** The crop paths of a stored reading, whatever else it holds (a reading of an older shape still names its crops). */
export const parseCropPaths = (text: string): Record<string, string> =>
  CropPathsSchema.parse(JSON.parse(text)).cropPaths ?? {};

/** A page's stored reading (`recognition_pages.result`): the recogniser's result and where its crops are kept. */
export const StoredReadingSchema = PageRecognitionSchema.extend(CropPathsSchema.shape);
export type StoredReading = z.infer<typeof StoredReadingSchema>;
export const parseStoredReading = (text: string): StoredReading =>
  StoredReadingSchema.parse(JSON.parse(text));

/** The questions an exception is about (`recognition_exceptions.question_ids`). */
export const QuestionIdsSchema = z.array(z.string());

/** The identity a page was read with (card, version, page, and the student when the card names one). */
export type PageIdentity = NonNullable<PageRecognition['identity']>;

/** A student of the homework's classes, as a page is assigned to. */
export interface PageStudent {
  id: string;
  classId: string;
  name: string;
}

/**
 * The back of a sheet scanned on both sides is blank paper for a one-sided card or after the last page of an
 * odd-paged card: expected, so set aside without asking the teacher anything.
 */
export const isBlankBack = (scan: ScanPage, reading: StoredReading): boolean =>
  !reading.identity && scan.side === 'back' && reading.problems.some((p) => p.code === 'blankPage');

/**
 * What a reading writes into results: each objective answer's response, scored from the key when the mark was
 * decided (else left for a person), and each written answer's crop.
 */
export function answerPatches(
  reading: StoredReading,
  questions: readonly HomeworkQuestion[],
  keys: ReadonlyMap<string, string | null>,
  rule: PartialRule,
): AnswerPatch[] {
  const byId = new Map(questions.map((q) => [q.questionId, q]));
  const patches: AnswerPatch[] = [];
  for (const m of reading.marks) {
    const q = byId.get(m.questionId);
    if (!q || !isObjective(q.kind)) continue;
    const decided = m.status === 'ok' || m.status === 'blank';
    const key = keys.get(q.questionId) ?? null;
    patches.push({
      questionId: q.questionId,
      response: m.chosen,
      responseStatus: m.status,
      scoreTenths: decided ? scoreObjective(q.kind, key, m.chosen, q.fullScoreTenths, rule) : null,
      source: 'auto',
    });
  }
  for (const crop of reading.crops) {
    const file = reading.cropPaths?.[crop.id];
    for (const qid of crop.questionIds) {
      const q = byId.get(qid);
      if (!q || isObjective(q.kind)) continue;
      patches.push({ questionId: qid, cropPath: file ?? null, blank: crop.blank });
    }
  }
  return patches;
}

export function emptyPage(page: Pick<ScanPage, 'id' | 'orgId' | 'batchId'>, now: string): RecognitionPage {
  return {
    pageId: page.id,
    orgId: page.orgId,
    batchId: page.batchId,
    status: 'queued',
    outcome: null,
    cardId: null,
    cardVersion: null,
    pageNo: null,
    homeworkId: null,
    studentId: null,
    sheetId: null,
    identitySource: null,
    residualMm: null,
    totalMs: null,
    result: null,
    attempts: 0,
    error: null,
    createdAt: now,
    updatedAt: now,
  };
}
