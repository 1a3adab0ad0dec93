import { MATH_7A_QUESTIONS } from './questions-math-7a.js';
import { MATH_7B_QUESTIONS } from './questions-math-7b.js';
import { OTHER_QUESTIONS } from './questions-other.js';
import type { QuestionSeed } from './types.js';

/**
 * The system question bank seeded for every school: 七年级 mathematics (every chapter of 人教版 七上/七下)
 * plus a smaller set for 语文, 英语 and 物理. All questions are original, written for this project.
 */
export const QUESTION_SEEDS: QuestionSeed[] = [
  ...MATH_7A_QUESTIONS,
  ...MATH_7B_QUESTIONS,
  ...OTHER_QUESTIONS,
];
