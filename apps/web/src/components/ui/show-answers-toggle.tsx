import { composition } from '../../i18n/composition';

/** 显示答案: the checkbox over a paper or a list of questions that shows their answers and analyses. */
export function ShowAnswersToggle({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      <input
        type="checkbox"
        className="size-4 accent-blue-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {composition.compose.showAnswers}
    </label>
  );
}
