import { createHash } from 'node:crypto';
import type { PaperDocument } from '@zhzy/contracts';
import { toTenths } from '../results/scoring.js';
import { CHINESE_NUMERALS, DEFAULT_SCORES, PAPERS_TEXT as T, TEN } from '../../i18n/papers.js';

// The paper draft every use case edits: helpers and the content hash (stored JSON is parsed in repository.ts).

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The ids of a node and all its descendants in a flat tree (the catalogue's). */
export { subtreeIds } from '../catalog/service.js';

/** 一 … 十, 十一 … 三十 (a paper has at most 30 sections). */
export function sectionNumeral(index: number): string {
  const n = index + 1;
  if (n <= 10) return CHINESE_NUMERALS[n - 1]!;
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return `${tens === 1 ? '' : CHINESE_NUMERALS[tens - 1]!}${TEN}${ones ? CHINESE_NUMERALS[ones - 1]! : ''}`;
}

export const defaultScoreOf = (typeName: string) => DEFAULT_SCORES[typeName] ?? 5;

export const fmt = (points: number) => String(Math.round(points * 10) / 10);

/** The content of a paper as /edit saves it (scores in points). */
export interface Draft {
  title: string;
  subtitle: string;
  status: 'draft' | 'final';
  sections: {
    id?: string | undefined;
    typeId: string | null;
    title: string;
    note: string;
    defaultScore: number;
    items: { questionId: string; score?: number | null | undefined }[];
  }[];
}

/** A paper as /edit would save it back: its title, status and sections, items with their own score overrides. */
export function draftOf(doc: PaperDocument): Draft {
  return {
    title: doc.title,
    subtitle: doc.subtitle,
    status: doc.status,
    sections: doc.sections.map((s) => ({
      id: s.id,
      typeId: s.typeId,
      title: s.title,
      note: s.note,
      defaultScore: s.defaultScore,
      items: s.items.map((i) => ({ questionId: i.questionId, score: i.scoreOverride })),
    })),
  };
}

export function contentHash(draft: Draft): string {
  const normal = {
    t: draft.title,
    s: draft.subtitle,
    st: draft.status,
    x: draft.sections.map((s) => ({
      id: s.id ?? null,
      ty: s.typeId,
      ti: s.title,
      n: s.note,
      d: toTenths(s.defaultScore),
      i: s.items.map((i) => [i.questionId, i.score == null ? null : toTenths(i.score)]),
    })),
  };
  return createHash('sha256').update(JSON.stringify(normal)).digest('hex');
}

/** Which questions of their most recent homework the given classes did: filled by the homework issue. */
export interface RecentHomeworkQuestions {
  questionIdsOf(orgId: string, classIds: string[]): Promise<string[]>;
}
/** Until homework exists, no class has done any question. */
export const NO_HOMEWORK_YET: RecentHomeworkQuestions = { questionIdsOf: async () => [] };

export function names(ids: string[], nameOf: Map<string, string>, max = 5): string {
  const list = ids.slice(0, max).map((id) => nameOf.get(id) ?? id);
  return T.nameList(list, ids.length > max);
}
