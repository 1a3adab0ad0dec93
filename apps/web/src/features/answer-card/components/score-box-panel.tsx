import { SCORE_BOX_MAX, type CardPaper, type CardSettings, type ScoreBoxSetting } from '@zhzy/contracts';
import { Segmented } from '../../../components/ui/segmented';
import { zhCNCards as tc } from '../../../i18n/zh-CN';

type Choice = 'off' | ScoreBoxSetting['kind'];

/** The written questions of the card's paper that may carry a score box (not those of a 选做题 group). */
export function writtenQuestions(paper: CardPaper) {
  return paper.sections.flatMap((s) =>
    s.questions
      .filter((q) => q.kind === 'written')
      .map((q) => ({ id: q.id, number: q.number, score: q.score })),
  );
}

/**
 * 打分框 per written question (先阅后扫, ADR 0065): off, 勾选格 (tens and units cells) or 计数格 (one cell per score, for
 * small full scores), and 半分 (a 0.5 cell) where the question's score allows half points.
 */
export function ScoreBoxPanel({
  paper,
  settings,
  disabled,
  onChange,
}: {
  paper: CardPaper;
  settings: CardSettings;
  disabled: boolean;
  onChange: (patch: Partial<CardSettings>) => void;
}) {
  const s = tc.scoreBoxes;
  const questions = writtenQuestions(paper);
  const set = (id: string, value: ScoreBoxSetting | null) => {
    const next = { ...settings.scoreBoxes };
    if (value) next[id] = value;
    else delete next[id];
    onChange({ scoreBoxes: next });
  };
  if (questions.length === 0) return <p className="text-sm text-slate-500">{s.none}</p>;
  return (
    <fieldset disabled={disabled} className="space-y-3 disabled:opacity-70" data-testid="score-box-panel">
      <legend className="sr-only">{s.heading}</legend>
      {questions.map((q) => {
        const current = settings.scoreBoxes[q.id];
        const choice: Choice = current?.kind ?? 'off';
        const fits = q.score >= 1 && q.score <= SCORE_BOX_MAX.tick;
        const tallyFits = q.score <= SCORE_BOX_MAX.tally;
        const options: { value: Choice; label: string }[] = [
          { value: 'off', label: s.kinds.off },
          ...(fits ? [{ value: 'tick' as const, label: s.kinds.tick }] : []),
          ...(fits && tallyFits ? [{ value: 'tally' as const, label: s.kinds.tally }] : []),
        ];
        // Half points only where the full score leaves room for a 0.5 above a whole score.
        const halfAllowed = q.score >= 1;
        return (
          <div key={q.id} className="space-y-1.5">
            <div className="flex items-center justify-between gap-2 text-sm">
              <span className="font-medium text-slate-700">{s.question(q.number, q.score)}</span>
              {current && halfAllowed && (
                <label className="flex items-center gap-1.5 text-slate-600">
                  <input
                    type="checkbox"
                    checked={current.half}
                    onChange={(e) => set(q.id, { ...current, half: e.target.checked })}
                    className="size-4 accent-blue-600"
                  />
                  {s.half}
                </label>
              )}
            </div>
            {fits ? (
              <Segmented
                label={s.label(q.number)}
                value={choice}
                options={options}
                onChange={(v) => set(q.id, v === 'off' ? null : { kind: v, half: current?.half ?? false })}
              />
            ) : (
              <p className="text-xs text-slate-500">{s.unavailable}</p>
            )}
          </div>
        );
      })}
      <p className="text-xs leading-5 text-slate-500">{s.hint}</p>
    </fieldset>
  );
}
