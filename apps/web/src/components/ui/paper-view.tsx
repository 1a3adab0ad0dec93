import type { PaperSection } from '@zhzy/contracts';
import { QuestionBody } from './question-body';
import { composition } from '../../i18n/composition';

/** A paper read top to bottom (template and school-paper previews): title, headings, numbered questions. */
export function PaperView({
  title,
  subtitle,
  sections,
  showAnswers = false,
}: {
  title: string;
  subtitle?: string;
  sections: PaperSection[];
  showAnswers?: boolean;
}) {
  return (
    <article aria-label={title} className="space-y-6">
      <header className="text-center">
        <h3 className="text-xl font-semibold text-slate-900">{title}</h3>
        {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
      </header>
      {sections.map((s) => (
        <section key={s.id} aria-label={s.heading} className="space-y-4">
          <h4 className="font-semibold text-slate-900">{s.heading}</h4>
          {s.note && <p className="text-sm text-slate-500">{s.note}</p>}
          {s.items.map((item) =>
            item.question ? (
              <QuestionBody
                key={item.id}
                idPrefix="pv"
                question={item.question}
                no={item.no}
                showAnswer={showAnswers}
              />
            ) : (
              <p key={item.id} className="text-sm text-slate-500">
                {item.no}. {composition.compose.deletedQuestion}
              </p>
            ),
          )}
        </section>
      ))}
    </article>
  );
}
