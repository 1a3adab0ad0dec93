import type { Basket, BasketPaperInfo, BasketTypeRow } from '@zhzy/contracts';
import type { SubjectSelection } from '../../../lib/selection';

export interface BasketView {
  /** The paper shown: the one matching the stage/subject selection, else the first that holds questions. */
  paper: BasketPaperInfo | null;
  rows: BasketTypeRow[];
  /** Questions in the shown paper. */
  total: number;
  /** The selection's own paper is empty (or missing), so another stage/subject's paper is shown instead. */
  fallback: boolean;
}

function countOf(basket: Basket, paper: BasketPaperInfo): number {
  const rows = basket.type[paper.id] ?? [];
  return rows.reduce((sum, r) => sum + r.questionCount, 0) || paper.questionCount;
}

/**
 * Which basket paper the popover shows. SPEC §4: it follows the stage/subject selection; when that selection's
 * paper holds nothing, the popover opens on a paper that does — the badge counts every paper, so the popover
 * never says 「空」 under a badge of 12.
 */
export function basketView(basket: Basket | undefined, selection: SubjectSelection | null): BasketView {
  const none: BasketView = { paper: null, rows: [], total: 0, fallback: false };
  if (!basket || basket.paperInfo.length === 0) return none;
  const selected = selection
    ? (basket.paperInfo.find((p) => p.stageId === selection.stageId && p.subjectId === selection.subjectId) ??
      null)
    : null;
  const filled = basket.paperInfo.find((p) => countOf(basket, p) > 0) ?? null;
  const useSelected = selected !== null && (countOf(basket, selected) > 0 || filled === null);
  const paper = useSelected ? selected : (filled ?? basket.paperInfo[0] ?? null);
  if (!paper) return none;
  return {
    paper,
    rows: basket.type[paper.id] ?? [],
    total: countOf(basket, paper),
    fallback: selection !== null && !useSelected,
  };
}
