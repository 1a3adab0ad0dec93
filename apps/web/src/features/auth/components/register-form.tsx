import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { t } from '../../../i18n/zh-CN';
import { toast } from '../../../lib/toast';
import { register } from '../api/auth';
import { useCaptcha } from '../hooks/use-captcha';
import { CaptchaField } from './captcha-field';
import { TRIGGER, registerErrors, type RegisterField, type RegisterValues } from './register-rules';

const EMPTY: RegisterValues = {
  username: '',
  password: '',
  password2: '',
  nickname: '',
  captchaKey: '',
  captchaCode: '',
  smsCode: '',
};

/** Account registration with SPEC §5's rules, messages and timing. */
export function RegisterForm({ onRegistered }: { onRegistered: (username: string) => void }) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<RegisterField | 'form', string | null>>>({});
  const [submitting, setSubmitting] = useState(false);
  const captcha = useCaptcha();
  const { refresh } = captcha;

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const withKey = (v: RegisterValues): RegisterValues => ({
    ...v,
    captchaKey: captcha.captcha?.captchaKey ?? '',
  });

  const validate = (field: RegisterField, next: RegisterValues) => {
    const found = registerErrors(withKey(next));
    setErrors((e) => ({ ...e, [field]: found[field] ?? null }));
  };

  const change = (field: RegisterField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (TRIGGER[field] === 'change') {
      validate(field, next);
      // The second password is re-checked when the first changes after it was filled.
      if (field === 'password' && next.password2) validate('password2', next);
    } else if (errors[field]) {
      validate(field, next);
    }
  };

  const blur = (field: RegisterField) => {
    if (TRIGGER[field] === 'blur') validate(field, values);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const all = withKey(values);
    const found = registerErrors(all);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    const failure = await register({
      username: all.username.trim(),
      password: all.password,
      password2: all.password2,
      nickname: all.nickname.trim(),
      captchaKey: all.captchaKey,
      captchaCode: all.captchaCode.trim(),
      ...(all.smsCode.trim() ? { smsCode: all.smsCode.trim() } : {}),
    });
    setSubmitting(false);
    if (failure === null) {
      toast.success(t.auth.registered);
      onRegistered(all.username.trim());
      return;
    }
    setErrors({ form: failure });
    setValues((v) => ({ ...v, captchaCode: '' }));
    void refresh();
  };

  const field = (name: Exclude<RegisterField, 'captchaCode'>) => ({
    name,
    value: values[name],
    error: errors[name] ?? null,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => change(name, e.target.value),
    onBlur: () => blur(name),
  });

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4" aria-label={t.auth.register}>
      <TextField
        label={t.auth.username}
        autoComplete="username"
        placeholder={t.auth.placeholder.username}
        hint={t.auth.usernameRule}
        {...field('username')}
      />
      <TextField
        label={t.auth.nickname}
        autoComplete="nickname"
        placeholder={t.auth.placeholder.nickname}
        {...field('nickname')}
      />
      <TextField
        label={t.auth.password}
        type="password"
        autoComplete="new-password"
        placeholder={t.auth.placeholder.password}
        hint={t.auth.passwordRule}
        {...field('password')}
      />
      <TextField
        label={t.auth.password2}
        type="password"
        autoComplete="new-password"
        placeholder={t.auth.placeholder.password2}
        {...field('password2')}
      />
      <CaptchaField
        captcha={captcha.captcha}
        failed={captcha.failed}
        value={values.captchaCode}
        error={errors.captchaCode ?? null}
        onChange={(v) => change('captchaCode', v)}
        onBlur={() => blur('captchaCode')}
        onRefresh={() => void refresh()}
      />
      <TextField
        label={t.auth.sms}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={8}
        placeholder={t.auth.placeholder.sms}
        hint={t.auth.smsHint}
        {...field('smsCode')}
      />
      {errors.form && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {errors.form}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        {submitting ? t.auth.submitting : t.auth.submitRegister}
      </Button>
    </form>
  );
}
