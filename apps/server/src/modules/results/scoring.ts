// The results spine's scoring rules (ADR 0051): the one rule set lives browser-safe in `@zhzy/contracts/scoring` so
// the web checks scores, difficulty and subtotals with the very functions recognition and marking score with; the
// server's modules import them from here.

export {
  DEFAULT_PARTIAL_RULE,
  OBJECTIVE_KINDS,
  PARTIAL_RULE_NAMES,
  combine,
  isObjective,
  marksRequired,
  normaliseKey,
  roundToStep,
  scoreObjective,
  sheetTotals,
  toPoints,
  toTenths,
  verdictOf,
  type BlockRules,
  type GivenMark,
  type ItemVerdict,
  type ObjectiveKind,
  type PartialRule,
  type SheetTotals,
} from '@zhzy/contracts/scoring';
