import type { ObjectiveKind, VirtualScan } from '@zhzy/contracts';
import type { PrintedStudent } from './card-svg.js';
import { Random } from './random.js';

/**
 * How a class answers objective questions when the card's key is known (ADR 0038): each student has an ability θ,
 * each question a hardness b, and a student answers right with the probability of a three-parameter logistic model,
 * p = c + (1 − c) / (1 + e^(−1.7 (θ − b))), with c the chance of guessing right (none for multiple choice). Abilities
 * are drawn so that a class gets about 70 % of the objective points of a paper of 适中 questions, its weakest students
 * under half and its best near full marks. A question's difficulty ranks it within its paper; the paper's mean level
 * moves the class a third as much (a teacher sets a paper that fits the class). A wrong single choice takes the
 * question's attractive distractor more often than the rest (as a class's common misconception does); a wrong
 * multiple choice is most often 少选 (part of the key), else the key with a distractor in it.
 */

/** The class's mean ability and its spread (logits). */
export const ABILITY_MEAN = 0.35;
export const ABILITY_SPREAD = 0.8;
/** Difficulty assumed when the paper does not say (适中 on ADR 0007's 0–1 scale). */
const DEFAULT_DIFFICULTY = 0.5;
/** Hardness b of a question against the others of its paper, from its 0–1 difficulty: 3 logits 容易 to 困难. */
const HARDNESS_PER_DIFFICULTY = 3;
/**
 * How much the paper's mean difficulty moves the class, against a question's own: a teacher sets a paper that fits
 * the class, so a class scores about 70 % on a paper of 适中 questions, 80 % on one of only 容易 questions and 60 % on
 * one of only 困难 questions.
 */
const PAPER_WEIGHT = 1 / 3;
/** Spread of a question's own hardness around its level (more when the level is not known). */
const QUESTION_SPREAD_KNOWN = 0.3;
const QUESTION_SPREAD_UNKNOWN = 0.45;
/** A full multiple-choice key is harder to get than one option. */
const MULTIPLE_EXTRA_HARDNESS = 0.6;
/** Of wrong multiple-choice answers, the share that are 少选 (only part of the key). */
const MULTIPLE_PARTIAL_SHARE = 0.6;
/** Weight of a question's attractive distractor against 1 for each other wrong option. */
const DISTRACTOR_WEIGHT = 3;

/** 32-bit FNV-1a of a string, mixed with a seed: stable per (seed, name). */
function hash(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const logistic = (x: number) => 1 / (1 + Math.exp(-1.7 * x));

/** A question as the model sees it (fixed for a batch: same for every student). */
interface QuestionTraits {
  hardness: number;
  /** The wrong option a class falls for most. */
  distractor: string | undefined;
}

/** One objective row of a card: the question, its kind and its printed options. */
export interface ObjectiveRow {
  questionId: string;
  kind: ObjectiveKind;
  options: readonly string[];
}

export class ClassModel {
  private readonly traits = new Map<string, QuestionTraits>();
  /** Each keyed question's own hardness around its level, centred on the paper (its level sets the class's rate). */
  private readonly jitter = new Map<string, number>();
  /** The keyed questions' mean difficulty. */
  private readonly paperLevel: number;

  constructor(
    private readonly key: Readonly<Record<string, string>>,
    private readonly difficulty: Readonly<Record<string, number>>,
    private readonly seed: number,
  ) {
    const ids = Object.keys(key);
    for (const id of ids) {
      const spread = difficulty[id] === undefined ? QUESTION_SPREAD_UNKNOWN : QUESTION_SPREAD_KNOWN;
      this.jitter.set(id, spread * new Random(hash(seed, `hardness:${id}`)).normal());
    }
    const centre = ids.reduce((sum, id) => sum + this.jitter.get(id)!, 0) / Math.max(1, ids.length);
    for (const id of ids) this.jitter.set(id, this.jitter.get(id)! - centre);
    this.paperLevel =
      ids.reduce((sum, id) => sum + (difficulty[id] ?? DEFAULT_DIFFICULTY), 0) / Math.max(1, ids.length);
  }

  /** The model for a virtual scan, or null when it carries no key (the class then answers at random). */
  static of(options: Pick<VirtualScan, 'key' | 'difficulty' | 'seed'>): ClassModel | null {
    if (!options.key || Object.keys(options.key).length === 0) return null;
    return new ClassModel(options.key, options.difficulty ?? {}, options.seed);
  }

  /** A student's ability θ: the same for the same seed and student, whatever the feeder order. */
  ability(student: Pick<PrintedStudent, 'id'>): number {
    const rng = new Random(hash(this.seed, `student:${student.id}`));
    return ABILITY_MEAN + ABILITY_SPREAD * Math.max(-2.5, Math.min(2.5, rng.normal()));
  }

  /** The correct options of a row as printed on it, or null when the key does not name the question. */
  correct(row: ObjectiveRow): string[] | null {
    const key = this.key[row.questionId];
    if (key === undefined) return null;
    const chosen = row.options.filter((o) => key.includes(o));
    return chosen.length > 0 ? chosen : null;
  }

  private traitsOf(row: ObjectiveRow, correct: readonly string[]): QuestionTraits {
    let t = this.traits.get(row.questionId);
    if (!t) {
      const rng = new Random(hash(this.seed, `question:${row.questionId}`));
      const level = this.difficulty[row.questionId] ?? DEFAULT_DIFFICULTY;
      const wrong = row.options.filter((o) => !correct.includes(o));
      t = {
        hardness:
          HARDNESS_PER_DIFFICULTY * (level - this.paperLevel + PAPER_WEIGHT * (this.paperLevel - 0.5)) +
          (this.jitter.get(row.questionId) ?? 0),
        distractor: wrong.length > 0 ? rng.pick(wrong) : undefined,
      };
      this.traits.set(row.questionId, t);
    }
    return t;
  }

  /** The chance that a student of ability θ gets a row exactly right. */
  chanceRight(row: ObjectiveRow, ability: number): number {
    const correct = this.correct(row);
    if (!correct) return 0;
    const t = this.traitsOf(row, correct);
    if (row.kind === 'multiple') return logistic(ability - t.hardness - MULTIPLE_EXTRA_HARDNESS);
    const guess = 1 / row.options.length;
    return guess + (1 - guess) * logistic(ability - t.hardness);
  }

  /** What a student of ability θ marks on a row the key names (options in printed order), or null. */
  answer(row: ObjectiveRow, ability: number, rng: Random): string[] | null {
    const correct = this.correct(row);
    if (!correct) return null;
    const { distractor } = this.traitsOf(row, correct);
    if (rng.chance(this.chanceRight(row, ability))) return correct;
    const wrong = row.options.filter((o) => !correct.includes(o));
    const pickWrong = (): string | undefined => {
      if (wrong.length === 0) return undefined;
      if (distractor === undefined) return rng.pick(wrong);
      const r = rng.next() * (DISTRACTOR_WEIGHT + wrong.length - 1);
      if (r < DISTRACTOR_WEIGHT) return distractor;
      const others = wrong.filter((o) => o !== distractor);
      return others[Math.min(others.length - 1, Math.floor(r - DISTRACTOR_WEIGHT))];
    };
    const inOrder = (set: Set<string>) => row.options.filter((o) => set.has(o));
    if (row.kind !== 'multiple') {
      const w = pickWrong();
      return w === undefined ? correct : [w];
    }
    if (correct.length >= 2 && rng.chance(MULTIPLE_PARTIAL_SHARE)) {
      // 少选: one option left out (two, now and then, of a key of three or more).
      const keep = new Set(correct);
      const drop = correct.length >= 3 && rng.chance(0.25) ? 2 : 1;
      for (let i = 0; i < drop; i++) keep.delete(rng.pick([...keep]));
      return inOrder(keep);
    }
    const w = pickWrong();
    if (w === undefined) return correct.slice(0, -1);
    const set = new Set(correct);
    // The distractor added to the key, or in place of one of its options.
    if (correct.length >= 2 && rng.chance(0.5)) set.delete(rng.pick(correct));
    set.add(w);
    return inOrder(set);
  }
}
