import { Page } from '../../components/page';
import { cn } from '../../lib/utils';
import { zhCNHelp as h } from '../../i18n/help';

/** /help: 使用说明, the journey compose → card → print → scan → mark → analyse with screenshots of the product. */
export function Component() {
  return (
    <Page title={h.title} className="max-w-5xl">
      <div className="space-y-8 rounded-xl border border-slate-200 bg-white p-6 sm:p-8">
        <p className="leading-7 text-slate-700">{h.intro}</p>
        <nav aria-label={h.toc}>
          <ol className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {h.steps.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="text-blue-700 hover:underline">
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {h.steps.map((s, i) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="space-y-3">
            <h2 id={`${s.id}-title`} className="text-lg font-semibold text-slate-900">
              {s.title}
            </h2>
            <p className="leading-7 text-slate-700">{s.text}</p>
            {'how' in s && (
              <ol className="list-decimal space-y-1 pl-6 leading-7 text-slate-700">
                {s.how.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ol>
            )}
            {'image' in s && (
              <figure className="space-y-2">
                <img
                  src={`/help-images/${s.image}`}
                  alt={h.figure(i + 1, s.title)}
                  loading="lazy"
                  className={cn(
                    'w-full rounded-lg border border-slate-200 shadow-sm',
                    'narrow' in s && s.narrow && 'mx-auto max-w-xs',
                  )}
                />
                <figcaption className="text-center text-xs text-slate-500">
                  {h.figure(i + 1, s.title)}
                </figcaption>
              </figure>
            )}
          </section>
        ))}
      </div>
    </Page>
  );
}
