import type { Captcha } from '@zhzy/contracts';
import { TextField } from '../../../components/ui/field';
import { t } from '../../../i18n/zh-CN';

/** The image-code input with its picture; clicking the picture draws a new one. */
export function CaptchaField({
  captcha,
  failed,
  value,
  error,
  onChange,
  onBlur,
  onRefresh,
}: {
  captcha: Captcha | null;
  failed: boolean;
  value: string;
  error: string | null;
  onChange: (v: string) => void;
  onBlur?: () => void;
  onRefresh: () => void;
}) {
  return (
    <TextField
      label={t.auth.captcha}
      name="captchaCode"
      autoComplete="off"
      maxLength={16}
      placeholder={t.auth.placeholder.captcha}
      value={value}
      error={error}
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
      addon={
        <button
          type="button"
          onClick={onRefresh}
          title={t.auth.refreshCaptcha}
          className="h-10 w-28 shrink-0 overflow-hidden rounded-md border border-slate-200 bg-slate-50 text-xs text-slate-500 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          {captcha ? (
            <img src={captcha.image} alt={t.auth.captchaImage} className="h-full w-full object-cover" />
          ) : failed ? (
            t.auth.captchaLoadFailed
          ) : (
            t.loading
          )}
        </button>
      }
    />
  );
}
