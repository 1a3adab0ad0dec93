import { env } from '../../../config/env';
import { t } from '../../../i18n/zh-CN';

/** Who we are: shared by /aboutUs and the visitor home page. */
export function AboutContent() {
  return (
    <div className="space-y-5 text-[15px] leading-7 text-slate-700">
      {t.aboutUs.paragraphs(env.footer.companyName).map((text) => (
        <p key={text.slice(0, 12)}>{text}</p>
      ))}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-xl bg-slate-50 p-5">
          <h3 className="font-medium text-slate-900">{t.footer.products}</h3>
          <ul className="mt-2 space-y-1 text-sm text-slate-600">
            {t.footer.productLines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </div>
        <div className="rounded-xl bg-slate-50 p-5">
          <h3 className="font-medium text-slate-900">{t.footer.support}</h3>
          <ul className="mt-2 space-y-1 text-sm text-slate-600">
            {t.footer.supportLines.map((l) => (
              <li key={l}>{l}</li>
            ))}
            {env.footer.supportPhone && <li>{t.footer.phone(env.footer.supportPhone)}</li>}
          </ul>
        </div>
      </div>
    </div>
  );
}
