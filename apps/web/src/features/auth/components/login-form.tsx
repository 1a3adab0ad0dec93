import { useState, type FormEvent } from 'react';
import { FORM_MESSAGES } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { t } from '../../../i18n/zh-CN';
import { login } from '../api/auth';
import { useCaptcha } from '../hooks/use-captcha';
import { CaptchaField } from './captcha-field';

interface Errors {
  username?: string | null;
  password?: string | null;
  captchaCode?: string | null;
  form?: string | null;
}

/** Sign-in: username, password, and the image code once the host asks for it. */
export function LoginForm({
  initialUsername = '',
  onSignedIn,
}: {
  initialUsername?: string;
  onSignedIn: () => void;
}) {
  const [username, setUsername] = useState(initialUsername);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const captcha = useCaptcha();

  const check = (): Errors => ({
    username: username.trim() ? null : FORM_MESSAGES.username,
    password: password ? null : FORM_MESSAGES.password,
    captchaCode: needCaptcha && !code.trim() ? FORM_MESSAGES.captcha : null,
  });

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = check();
    setErrors(found);
    if (found.username || found.password || found.captchaCode) return;
    setSubmitting(true);
    const result = await login({
      username,
      password,
      captchaKey: needCaptcha ? captcha.captcha?.captchaKey : undefined,
      captchaCode: needCaptcha ? code : undefined,
    });
    if (result.ok) {
      onSignedIn();
      return;
    }
    setSubmitting(false);
    setErrors({ form: result.message });
    if (result.captchaRequired) {
      setNeedCaptcha(true);
      setCode('');
      void captcha.refresh();
    }
  };

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4" aria-label={t.auth.login}>
      <TextField
        label={t.auth.username}
        name="username"
        autoComplete="username"
        placeholder={t.auth.placeholder.username}
        value={username}
        error={errors.username}
        onChange={(e) => setUsername(e.target.value)}
        onBlur={() => setErrors((x) => ({ ...x, username: username.trim() ? null : FORM_MESSAGES.username }))}
      />
      <TextField
        label={t.auth.password}
        name="password"
        type="password"
        autoComplete="current-password"
        placeholder={t.auth.placeholder.password}
        value={password}
        error={errors.password}
        onChange={(e) => {
          setPassword(e.target.value);
          setErrors((x) => ({ ...x, password: e.target.value ? null : FORM_MESSAGES.password }));
        }}
      />
      {needCaptcha && (
        <CaptchaField
          captcha={captcha.captcha}
          failed={captcha.failed}
          value={code}
          error={errors.captchaCode ?? null}
          onChange={setCode}
          onBlur={() => setErrors((x) => ({ ...x, captchaCode: code.trim() ? null : FORM_MESSAGES.captcha }))}
          onRefresh={() => void captcha.refresh()}
        />
      )}
      {errors.form && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {errors.form}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        {submitting ? t.auth.submitting : t.auth.submitLogin}
      </Button>
    </form>
  );
}
