import { useState, type FormEvent } from 'react';
import { ACCOUNT_MESSAGES, ChangePasswordSchema, FORM_MESSAGES } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { zhCNAccount as ta } from '../../../i18n/account';
import { toast } from '../../../lib/toast';
import { changePassword } from '../api/account';

type Field = 'oldPassword' | 'password' | 'password2';

/** The form's fields in order: key, label, what the browser may fill in. */
const FIELDS: [Field, string, string][] = [
  ['oldPassword', ta.password.old, 'current-password'],
  ['password', ta.password.new, 'new-password'],
  ['password2', ta.password.again, 'new-password'],
];

/** Old and new password with SPEC §5's messages; the host's answer (原密码错误) shows under the form. */
export function PasswordPanel() {
  const [v, setV] = useState<Record<Field, string>>({ oldPassword: '', password: '', password2: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const check = (next: Record<Field, string>) => {
    const parsed = ChangePasswordSchema.safeParse(next);
    const found: Partial<Record<Field, string>> = {};
    if (!parsed.success) for (const i of parsed.error.issues) found[i.path[0] as Field] ??= i.message;
    return found;
  };
  // SPEC §5: password and second password are checked on change.
  const change = (key: Field, value: string) => {
    const next = { ...v, [key]: value };
    setV(next);
    const found = check(next);
    setErrors((e) => ({
      ...e,
      [key]: key === 'password2' && !value ? FORM_MESSAGES.password : found[key],
    }));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = check(v);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setFormError(null);
    const message = await changePassword(v);
    setBusy(false);
    if (message) return setFormError(message);
    toast.success(ACCOUNT_MESSAGES.passwordChanged);
    setV({ oldPassword: '', password: '', password2: '' });
  };

  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      className="max-w-md space-y-4"
      aria-label={ta.password.title}
    >
      <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">{ta.password.rules}</p>
      {FIELDS.map(([key, label, autoComplete]) => (
        <TextField
          key={key}
          label={label}
          type="password"
          autoComplete={autoComplete}
          value={v[key]}
          error={errors[key]}
          onChange={(e) => change(key, e.target.value)}
        />
      ))}
      {formError && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {formError}
        </p>
      )}
      <Button type="submit" loading={busy}>
        {ta.password.submit}
      </Button>
    </form>
  );
}
