import { CHINESE_GENERATED } from './generated/chinese.js';
import { ENGLISH_GENERATED } from './generated/english.js';
import { HANDWRITTEN_QUESTIONS } from './generated/handwritten.js';
import { MATH_7_CHECKED } from './generated/math-7-checked.js';
import { MATH_7A_GENERATED } from './generated/math-7a.js';
import { MATH_7B_GENERATED } from './generated/math-7b.js';
import { PHYSICS_GENERATED } from './generated/physics.js';
import { MATH_7A_QUESTIONS } from './questions-math-7a.js';
import { MATH_7B_QUESTIONS } from './questions-math-7b.js';
import { OTHER_QUESTIONS } from './questions-other.js';
import type { QuestionSeed } from './types.js';

/**
 * The system question bank seeded for every school: 七年级 mathematics (every chapter of 人教版 七上/七下),
 * 语文, 英语 and 物理 — hand-written questions first (their keys are referenced by tests and baskets), then
 * the generated ones (seeded, so every start makes the same bank). All content is written for this project.
 */
export const QUESTION_SEEDS: QuestionSeed[] = [
  ...MATH_7A_QUESTIONS,
  ...MATH_7B_QUESTIONS,
  ...OTHER_QUESTIONS,
  ...HANDWRITTEN_QUESTIONS,
  ...MATH_7A_GENERATED,
  ...MATH_7B_GENERATED,
  ...MATH_7_CHECKED,
  ...PHYSICS_GENERATED,
  ...ENGLISH_GENERATED,
  ...CHINESE_GENERATED,
];
