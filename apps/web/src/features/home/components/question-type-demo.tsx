import { QUESTION_TYPE_DEMO } from '@zhzy/contracts/constants';
import { t } from '../../../i18n/zh-CN';

/** The question-type demo grid of SPEC §3: 单选题 6, 多选题 3, 应用题 2, 解答题 5. */
export function QuestionTypeDemo() {
  const total = QUESTION_TYPE_DEMO.reduce((sum, x) => sum + x.count, 0);
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="mb-4 flex items-baseline justify-between">
        <h3 className="font-medium text-slate-900">{t.home.demoTitle}</h3>
        <span className="text-sm text-slate-500">{t.home.demoTotal(total)}</span>
      </div>
      <ul className="grid grid-cols-2 gap-3" data-testid="question-type-demo">
        {QUESTION_TYPE_DEMO.map((x) => (
          <li key={x.name} className="rounded-xl bg-slate-50 px-4 py-3">
            <p className="text-sm text-slate-500">{x.name}</p>
            <p className="mt-1 text-2xl font-semibold text-slate-900">
              {x.count}
              <span className="ml-1 text-sm font-normal text-slate-500">{t.home.demoUnit}</span>
            </p>
            <div className="mt-2 h-1.5 rounded-full bg-slate-200" aria-hidden="true">
              <div
                className="h-full rounded-full bg-blue-500"
                style={{ width: `${(x.count / total) * 100}%` }}
              />
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-xs leading-5 text-slate-500">{t.home.demoLead}</p>
    </div>
  );
}
