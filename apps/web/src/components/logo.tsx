import { t } from '../i18n/zh-CN';

/** The product mark: a blue rounded square with a tick over a page, and the wordmark. */
export function Logo({ withText = true }: { withText?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="#2563eb" />
        <path d="M10 8h9l4 4v12H10z" fill="#fff" opacity="0.95" />
        <path
          d="m13 17 2.5 2.5L20 15"
          fill="none"
          stroke="#2563eb"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {withText && <span className="text-lg font-semibold tracking-wide text-slate-900">{t.appName}</span>}
    </span>
  );
}
