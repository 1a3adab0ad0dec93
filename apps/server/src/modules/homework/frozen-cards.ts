import type { Kysely } from 'kysely';
import type { CardLayout, CardPaper, CardSettings } from '@zhzy/contracts';
import type { Database } from '../../db/schema.js';
import { HomeworkRepository, type CardVersionBody } from './repository.js';

// The recogniser's look-up: frozen card versions by (card id, version), parsed by schema and cached.

/** A frozen card version as the recogniser needs it. */
export interface FrozenCard {
  cardId: string;
  version: number;
  orgId: string;
  homeworkId: string;
  paperId: string;
  /** The version the homework prints now (sheets of older versions are still valid). */
  currentVersion: number;
  /** Set when the homework was deleted: its sheets no longer belong to anything. */
  homeworkDeletedAt: string | null;
  settings: CardSettings;
  paper: CardPaper;
  layout: CardLayout;
  createdAt: string;
}

/** Resolves exactly the (card id, version) a page QR carries; null when unknown (or of another school). */
export type CardLayoutResolver = (
  cardId: string,
  version: number,
  orgId?: string,
) => Promise<FrozenCard | null>;

/** Parsed frozen versions kept in memory: a version never changes, and the recogniser asks for it on every page. */
const FROZEN_CACHE_SIZE = 200;

/** `findCardLayout(cardId, version, orgId?)` over a repository, with the parsed JSON of recent versions cached. */
export function frozenCardFinder(repo: HomeworkRepository): CardLayoutResolver {
  const bodies = new Map<string, CardVersionBody>();
  return async (cardId, version, orgId) => {
    const head = await repo.findFrozenCard(cardId, version);
    if (!head || (orgId !== undefined && head.orgId !== orgId)) return null;
    const key = `${cardId}\u0000${version}`;
    let body = bodies.get(key);
    if (body) {
      // Most recently used last, so the oldest is evicted first.
      bodies.delete(key);
    } else {
      body = await repo.cardVersionBody(cardId, version);
      if (!body) return null;
      if (bodies.size >= FROZEN_CACHE_SIZE) bodies.delete(bodies.keys().next().value!);
    }
    bodies.set(key, body);
    const { createdAt, ...facts } = head;
    return { ...facts, ...body, createdAt };
  };
}

/** `findCardLayout(cardId, version, orgId?)` for the recognition module, without the rest of this module. */
export function cardLayoutResolver(db: Kysely<Database>): CardLayoutResolver {
  return frozenCardFinder(new HomeworkRepository(db));
}
