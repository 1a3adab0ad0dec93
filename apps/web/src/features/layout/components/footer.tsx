import { Link } from 'react-router-dom';
import { Logo } from '../../../components/logo';
import { env } from '../../../config/env';
import { t } from '../../../i18n/zh-CN';

/** SPEC §1's footer: product lines, technical support, 关于我们, copyright and filing number. */
export function Footer({ aboutHref }: { aboutHref: string }) {
  return (
    <footer className="border-t border-slate-200 bg-white text-sm text-slate-500" data-testid="footer">
      <div className="mx-auto grid max-w-6xl gap-8 px-6 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-3">
          <Logo />
          <p className="leading-6">{t.tagline}</p>
        </div>
        <div>
          <h2 className="mb-3 font-medium text-slate-800">{t.footer.products}</h2>
          <ul className="space-y-2">
            {t.footer.productLines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="mb-3 font-medium text-slate-800">{t.footer.support}</h2>
          <ul className="space-y-2">
            {t.footer.supportLines.map((l) => (
              <li key={l}>{l}</li>
            ))}
            {env.footer.supportPhone && <li>{t.footer.phone(env.footer.supportPhone)}</li>}
          </ul>
        </div>
        <div>
          <h2 className="mb-3 font-medium text-slate-800">{t.footer.about}</h2>
          <ul className="space-y-2">
            <li>
              <Link to={aboutHref} className="hover:text-blue-700 hover:underline">
                {t.footer.aboutUs}
              </Link>
            </li>
            {env.examSiteUrl && (
              <li>
                <a
                  href={env.examSiteUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="hover:text-blue-700 hover:underline"
                >
                  {t.footer.examSite}
                  <span className="sr-only">{t.nav.opensNewTab}</span>
                </a>
              </li>
            )}
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-100">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-6 py-4 text-xs text-slate-500 sm:flex-row">
          <span>{env.footer.copyright}</span>
          {env.footer.filingNumber && (
            <a
              href={env.footer.filingUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="hover:text-slate-600"
            >
              {env.footer.filingNumber}
            </a>
          )}
        </div>
      </div>
    </footer>
  );
}
