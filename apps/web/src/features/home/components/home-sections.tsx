import { Button } from '../../../components/ui/button';
import { t } from '../../../i18n/zh-CN';
import { QuestionTypeDemo } from './question-type-demo';

export function Hero({ onStart }: { onStart: () => void }) {
  return (
    <section className="bg-gradient-to-b from-blue-50/70 to-slate-50">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-6 py-14 lg:grid-cols-[1.15fr_1fr] lg:py-20">
        <div>
          <p className="mb-3 text-sm font-medium tracking-wide text-blue-700">{t.appName}</p>
          <h1 className="text-3xl leading-tight font-semibold text-slate-900 sm:text-4xl">
            {t.home.headline}
          </h1>
          <p className="mt-5 max-w-xl text-base leading-8 text-slate-600">{t.home.lead}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button size="lg" onClick={onStart}>
              {t.home.start}
            </Button>
          </div>
        </div>
        <QuestionTypeDemo />
      </div>
    </section>
  );
}

export function FeatureGrid() {
  return (
    <section className="mx-auto max-w-6xl px-6 py-14">
      <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {t.home.features.map((f) => (
          <li key={f.title} className="rounded-xl border border-slate-200 bg-white p-6">
            <h2 className="text-base font-medium text-slate-900">{f.title}</h2>
            <p className="mt-2 text-sm leading-6 text-slate-500">{f.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Steps() {
  return (
    <section className="border-y border-slate-200 bg-white">
      <div className="mx-auto max-w-6xl px-6 py-12">
        <h2 className="text-center text-xl font-semibold text-slate-900">{t.home.stepsTitle}</h2>
        <ol className="mt-8 grid gap-4 sm:grid-cols-4">
          {t.home.steps.map((s, i) => (
            <li
              key={s}
              className="flex items-center gap-3 rounded-xl bg-slate-50 px-4 py-4 sm:flex-col sm:text-center"
            >
              <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-600 text-sm font-semibold text-white">
                {i + 1}
              </span>
              <span className="text-sm font-medium text-slate-700">{s}</span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
