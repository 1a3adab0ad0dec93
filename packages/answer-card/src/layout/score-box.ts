import {
  SCORE_BOX_MAX,
  type CardElementOf,
  type CardLayoutWarning,
  type ScoreBoxKind,
  type ScoreBoxSetting,
  type ScoreCellRole,
} from '@zhzy/contracts';
import { rect } from './header.js';
import { M } from './metrics.js';

/** One row of a score box before it is placed: its role, caption and cell values. */
interface RowPlan {
  role: ScoreCellRole;
  label: string;
  values: number[];
}

/** What a score box needs, decided from the question's full score before placing it. */
export interface ScoreBoxPlan {
  kind: ScoreBoxKind;
  half: boolean;
  /** Rows top to bottom; a 'half' row shares the line of the row before it. */
  rows: RowPlan[];
  height: number;
}

const range = (n: number, step = 1): number[] => Array.from({ length: n }, (_, i) => i * step);

/**
 * The rows of a score box for a full score: tens (0, 10, …) over units (0…9) when the full score reaches 10, else
 * one row 0…N; a tally box is always one row 0…N. Undefined, with a warning, when no box can hold the score.
 */
export function planScoreBox(
  questionId: string,
  number: string,
  fullScore: number,
  setting: ScoreBoxSetting,
  warnings: CardLayoutWarning[],
): ScoreBoxPlan | undefined {
  const whole = Math.floor(fullScore);
  if (whole < 1 || whole > SCORE_BOX_MAX.tick) {
    warnings.push({
      code: 'scoreBoxUnavailable',
      questionId,
      message: `第${number}题满分 ${fullScore} 分，打分框只支持 1–${SCORE_BOX_MAX.tick} 分的题目，该题请在屏幕上批阅`,
    });
    return undefined;
  }
  let kind = setting.kind;
  if (kind === 'tally' && whole > SCORE_BOX_MAX.tally) {
    warnings.push({
      code: 'scoreBoxUnavailable',
      questionId,
      message: `第${number}题满分超过 ${SCORE_BOX_MAX.tally} 分，逐分格放不下，已改为十位、个位打勾格`,
    });
    kind = 'tick';
  }
  const rows: RowPlan[] =
    kind === 'tick' && whole >= 10
      ? [
          { role: 'tens', label: '十位', values: range(Math.floor(whole / 10) + 1, 10) },
          { role: 'units', label: '个位', values: range(10) },
        ]
      : [{ role: 'units', label: '得分', values: range(whole + 1) }];
  if (setting.half) rows.push({ role: 'half', label: '', values: [0.5] });
  const lines = rows.filter((r) => r.role !== 'half').length;
  return { kind, half: setting.half, rows, height: 2 * M.scorePadY + lines * M.scoreRowPitch };
}

/** The widest row line of a plan, millimetres (row caption, cells, and the 0.5 cell beside the units). */
function cellsWidth(plan: ScoreBoxPlan): number {
  const widths = plan.rows
    .filter((r) => r.role !== 'half')
    .map((r) => (r.values.length - 1) * M.scoreCellPitch + M.scoreCellW);
  const half = plan.half ? M.scoreHalfGap + M.scoreCellW : 0;
  return M.scoreRowLabelW + Math.max(...widths) + half;
}

/** Places a planned score box as a strip across the column at (x, y): caption at the left, cells at the right. */
export function placeScoreBox(
  plan: ScoreBoxPlan,
  q: { id: string; number: string; score: number },
  x: number,
  y: number,
  w: number,
): CardElementOf<'scoreBox'> {
  const inner = cellsWidth(plan);
  const left = x + w - 2 - inner;
  const cellDy = (M.scoreRowPitch - M.scoreCellH) / 2;
  let line = -1;
  let lineEnd = left;
  const rows = plan.rows.map((r) => {
    if (r.role !== 'half') line++;
    const rowY = y + M.scorePadY + line * M.scoreRowPitch;
    const cellX = r.role === 'half' ? lineEnd + M.scoreHalfGap : left + M.scoreRowLabelW;
    const cells = r.values.map((value, i) => ({
      value,
      label: String(value),
      rect: rect(cellX + i * M.scoreCellPitch, rowY + cellDy, M.scoreCellW, M.scoreCellH),
    }));
    lineEnd = cellX + (r.values.length - 1) * M.scoreCellPitch + M.scoreCellW;
    return {
      role: r.role,
      label: r.label,
      labelRect: rect(
        r.role === 'half' ? cellX : left,
        rowY,
        r.role === 'half' ? 0 : M.scoreRowLabelW - 1,
        M.scoreRowPitch,
      ),
      cells,
    };
  });
  const labelW = Math.max(0, left - x - 4);
  return {
    id: `score:${q.id}`,
    type: 'scoreBox',
    rect: rect(x, y, w, plan.height),
    questionId: q.id,
    number: q.number,
    kind: plan.kind,
    fullScore: q.score,
    label: `第${q.number}题得分（阅卷教师用红笔在格内打勾）`,
    labelRect: rect(x + 2, y + M.scorePadY, labelW, M.scoreRowPitch),
    rows,
  };
}
