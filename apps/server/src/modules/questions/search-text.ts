import type { FullTextQuery } from '../../db/dialect.js';
import { decodeEntities } from './rich-content.js';
import { SEARCH_STOP_TOKENS } from '../../i18n/messages.js';

// Chinese full-text search: text is cut into words with Intl.Segmenter('zh'), and the same function cuts the
// index and the query, so a query finds what the index holds. Each token is normalised to lower-case letters
// and digits (NFKC, diacritics dropped) so that SQLite's FTS5 and PostgreSQL's 'simple' parser read exactly
// the same tokens from the stored text: both split it on the single spaces and nothing else.

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Particles that would match nearly every question; left out of both the index and queries. */
const STOP_TOKENS = new Set<string>(SEARCH_STOP_TOKENS);

/** Longer tokens are noise (a base64 run, a long number); PostgreSQL also limits the length of a word. */
const MAX_TOKEN_LENGTH = 40;
/**
 * PostgreSQL keeps positions up to 16,383 and 256 positions per word; capping a question's tokens well
 * below keeps phrase matches identical on both databases.
 */
export const MAX_TOKENS = 2_000;

const NOT_WORD = /[^\p{L}\p{Nd}]+/u;
const MARKS = /\p{M}/gu;

/** Lower-case letters and digits of one segment; a segment like "x+1" becomes ["x", "1"]. */
function normalise(segment: string): string[] {
  return segment
    .normalize('NFKD')
    .replace(MARKS, '')
    .normalize('NFKC')
    .toLowerCase()
    .split(NOT_WORD)
    .filter((t) => t !== '' && t.length <= MAX_TOKEN_LENGTH && !STOP_TOKENS.has(t));
}

/** The searchable words of plain text, in order. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text.normalize('NFKC'))) {
    if (!isWordLike) continue;
    for (const token of normalise(segment)) out.push(token);
  }
  return out;
}

/** Plain text of question content for indexing: tags, entities and LaTeX command names removed. */
export function contentText(html: string): string {
  const text = decodeEntities(html.replace(/<[^>]*>/g, ' '));
  // \frac, \left, \lt … are markup of the formula, not words of it; \( \) \[ \] likewise.
  return text.replace(/\\[A-Za-z]+/g, ' ').replace(/\\[()[\]{},;:!]/g, ' ');
}

export interface SearchableQuestion {
  stem: string;
  options: { content: string }[];
  answer: string;
  analysis: string;
  knowledgePoints: string[];
}

/** What `questions.search_tokens` stores: the tokens of every text of the question, space-separated. */
export function questionSearchTokens(q: SearchableQuestion): string {
  const parts = [q.stem, ...q.options.map((o) => o.content), q.answer, q.analysis].map(contentText);
  const tokens = tokenize([...parts, ...q.knowledgePoints].join('\n'));
  return tokens.slice(0, MAX_TOKENS).join(' ');
}

/**
 * A keyword as typed: each space-separated term becomes a phrase of its tokens, and every phrase must occur.
 * Null when nothing searchable is left (only punctuation or particles).
 */
export function parseKeyword(keyword: string | undefined): FullTextQuery | null {
  if (!keyword) return null;
  const phrases = keyword
    .split(/\s+/)
    .map((term) => tokenize(term))
    .filter((p) => p.length > 0)
    .slice(0, 10);
  return phrases.length > 0 ? phrases : null;
}
