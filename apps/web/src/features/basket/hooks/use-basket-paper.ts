import type { Basket, BasketPaperInfo, BasketTypeRow } from '@zhzy/contracts';
import type { SubjectSelection } from '../../../lib/selection';

export interface BasketView {
  /** The paper matching the stage/subject selection (the first paper when nothing is selected). */
  paper: BasketPaperInfo | null;
  rows: BasketTypeRow[];
  /** Questions in the selected paper. */
  total: number;
}

/** Which basket paper the popover shows (SPEC §4: it follows the stage/subject selection). */
export function basketView(basket: Basket | undefined, selection: SubjectSelection | null): BasketView {
  if (!basket || basket.paperInfo.length === 0) return { paper: null, rows: [], total: 0 };
  const paper = selection
    ? (basket.paperInfo.find((p) => p.stageId === selection.stageId && p.subjectId === selection.subjectId) ??
      null)
    : (basket.paperInfo[0] ?? null);
  if (!paper) return { paper: null, rows: [], total: 0 };
  const rows = basket.type[paper.id] ?? [];
  const total = rows.reduce((sum, r) => sum + r.questionCount, 0) || paper.questionCount;
  return { paper, rows, total };
}
