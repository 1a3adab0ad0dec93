import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ArrowUpIcon, FeedbackIcon, HelpIcon, PhoneIcon } from '../../../components/icons';
import { QrCode } from '../../../components/qr-code';
import { env } from '../../../config/env';
import { paths } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';
import { animateScrollTo } from '../../../lib/scroll';
import { keepChromeSize } from '../../../lib/use-rem-layout';

export const sideItemClass =
  'flex w-16 flex-col items-center gap-0.5 rounded-lg py-1.5 text-slate-600 transition-colors hover:bg-blue-50 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600 sm:w-14 sm:gap-1 sm:py-2';

/** The phone QR code (the app's download page when configured, else this site), shown while pointed at or focused. */
function AppQr() {
  const [open, setOpen] = useState(false);
  const target = env.appDownloadUrl || window.location.origin;
  return (
    <div
      className="relative"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
    >
      <button
        type="button"
        className={sideItemClass}
        aria-expanded={open}
        aria-describedby={open ? 'app-qr' : undefined}
      >
        <PhoneIcon className="size-6" />
        <span className="text-xs">{t.sideBar.app}</span>
      </button>
      {open && (
        <div
          id="app-qr"
          role="tooltip"
          className="absolute right-0 bottom-full mb-3 rounded-xl border border-slate-200 bg-white p-3 text-center shadow-xl sm:top-1/2 sm:right-full sm:bottom-auto sm:mr-3 sm:mb-0 sm:-translate-y-1/2"
        >
          <QrCode value={target} size={128} alt={t.sideBar.appQrAlt} />
          <p className="mt-2 text-xs whitespace-nowrap text-slate-500">
            {env.appDownloadUrl ? t.sideBar.appQr : t.sideBar.siteQr}
          </p>
        </div>
      )}
    </div>
  );
}

/** The right-hand side bar: basket (slot), 问题反馈, 使用说明, the app QR code and back-to-top. */
export function SideBar({ basketSlot }: { basketSlot: ReactNode }) {
  return (
    <aside
      aria-label={t.sideBar.label}
      data-testid="side-bar"
      style={keepChromeSize}
      className="fixed inset-x-0 bottom-0 z-20 flex items-center justify-around border-t border-slate-200 bg-white/95 px-1 pt-1 pb-[max(0.25rem,env(safe-area-inset-bottom))] shadow-[0_-2px_10px_rgba(15,23,42,0.06)] backdrop-blur sm:inset-x-auto sm:right-4 sm:bottom-24 sm:flex-col sm:justify-start sm:gap-1 sm:rounded-2xl sm:border sm:p-1 sm:shadow-lg lg:top-1/2 lg:bottom-auto lg:-translate-y-1/2"
    >
      {basketSlot}
      <Link to={paths.feedback()} className={sideItemClass}>
        <FeedbackIcon className="size-6" />
        <span className="text-xs">{t.sideBar.feedback}</span>
      </Link>
      <Link to={paths.help} className={sideItemClass}>
        <HelpIcon className="size-6" />
        <span className="text-xs">{t.sideBar.help}</span>
      </Link>
      <AppQr />
      <button type="button" className={sideItemClass} onClick={() => void animateScrollTo(0)}>
        <ArrowUpIcon className="size-6" />
        <span className="text-xs">{t.backTop}</span>
      </button>
    </aside>
  );
}
