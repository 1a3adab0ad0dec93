import type { QuestionType } from '@zhzy/contracts';

/** One row of the form: a question type, how many, and the score of each. */
export interface TypeRow {
  key: string;
  typeId: string;
  count: string;
  score: string;
}

let seq = 0;
export const rowKey = () => `row-${++seq}`;

/**
 * A paper teachers often start from: the first objective type 8 × 3 分, then the first two marked-by-hand types
 * 6 × 4 分 (e.g. 填空题) and 4 × 10 分 (e.g. 解答题); other types are one click away.
 */
export function defaultRows(types: QuestionType[]): TypeRow[] {
  const objective = types.filter((x) => x.objective).slice(0, 1);
  const written = types.filter((x) => !x.objective).slice(0, 2);
  const chosen = [...objective, ...written];
  const plan = [...(objective.length ? [['8', '3']] : []), ['6', '4'], ['4', '10']];
  return (chosen.length > 0 ? chosen : types.slice(0, 3)).map((x, i) => ({
    key: rowKey(),
    typeId: x.id,
    count: plan[i]?.[0] ?? '5',
    score: plan[i]?.[1] ?? '3',
  }));
}

/** Totals of the rows that can be read (the others count as 0). */
export function rowTotals(rows: TypeRow[]): { count: number; score: number } {
  let count = 0;
  let tenths = 0;
  for (const r of rows) {
    const n = Number(r.count);
    const s = Number(r.score);
    if (!Number.isInteger(n) || n < 0 || !Number.isFinite(s) || s < 0) continue;
    count += n;
    tenths += n * Math.round(s * 10);
  }
  return { count, score: tenths / 10 };
}
