// Objective scoring from the answer key: pure, so the rules are tested without a database and an answer-key change
// re-scores everyone with the very same function recognition used.

/** Multiple choice with some right options and no wrong one: 少选得一半 (half), 少选不得分 (zero), or by share. */
export type PartialRule = 'half' | 'zero' | 'proportional';
export const DEFAULT_PARTIAL_RULE: PartialRule = 'half';

export type ObjectiveKind = 'single' | 'multiple' | 'truefalse';

/**
 * The key in the card's option letters: 'B', 'ACE', 'T'/'F' for true/false. The question bank writes true/false
 * answers as 正确/错误 (or √/×); both come here. Null when the key is empty or not options at all.
 */
export function normaliseKey(kind: ObjectiveKind, answer: string): string | null {
  const text = answer
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();
  if (kind === 'truefalse') {
    if (/^(正确|对|√|✓|T|TRUE|是)$/i.test(text)) return 'T';
    if (/^(错误|错|×|✗|X|F|FALSE|否)$/i.test(text)) return 'F';
    return null;
  }
  const letters = text.toUpperCase().replace(/[\s,，、;；]/g, '');
  if (!/^[A-G]+$/.test(letters)) return null;
  const unique = [...new Set(letters)].sort().join('');
  if (kind === 'single' && unique.length !== 1) return null;
  return unique;
}

/**
 * Score in tenths of a point of one objective answer. `chosen` is the options read ('' none). Single choice and
 * true/false: full when equal to the key. Multiple choice: full when equal; any wrong option gives 0; some right
 * options and none wrong follow `rule`. A key that is missing scores nothing (null: the answer waits for a person).
 */
export function scoreObjective(
  kind: ObjectiveKind,
  key: string | null,
  chosen: string,
  fullTenths: number,
  rule: PartialRule = DEFAULT_PARTIAL_RULE,
): number | null {
  if (key === null || key === '') return null;
  const picked = [...new Set(chosen.toUpperCase())].sort().join('');
  if (picked === '') return 0;
  if (kind !== 'multiple') return picked === key ? fullTenths : 0;
  if (picked === key) return fullTenths;
  const keySet = new Set(key);
  if ([...picked].some((o) => !keySet.has(o))) return 0;
  switch (rule) {
    case 'zero':
      return 0;
    case 'half':
      return Math.floor(fullTenths / 2);
    case 'proportional':
      return Math.floor((fullTenths * picked.length) / key.length);
  }
}

export const PARTIAL_RULE_NAMES: Readonly<Record<PartialRule, string>> = {
  half: '少选得一半分，错选不得分',
  zero: '少选、错选均不得分',
  proportional: '按选对的个数给分，错选不得分',
};
