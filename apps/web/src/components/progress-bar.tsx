import { PROGRESS_BAR } from '@zhzy/contracts/constants';
import { t } from '../i18n/zh-CN';
import { useProgress } from '../lib/progress';

/** The thin top progress bar (navigations and requests). */
export function ProgressBar() {
  const { value } = useProgress();
  if (value === null) return null;
  return (
    <div
      role="progressbar"
      aria-label={t.progress}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value * 100)}
      className="pointer-events-none fixed inset-x-0 top-0 z-[70] h-0.5"
    >
      <div
        className="h-full bg-blue-600 shadow-[0_0_8px_rgba(37,99,235,0.6)]"
        style={{
          width: `${value * 100}%`,
          transition: `width ${PROGRESS_BAR.speedMs}ms ease, opacity ${PROGRESS_BAR.speedMs}ms ease`,
          opacity: value >= 1 ? 0 : 1,
        }}
      />
    </div>
  );
}
