import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { FORM_MESSAGES, InviteRegisterSchema, type Captcha, type InvitePreview } from '@zhzy/contracts';
import { Logo } from '../../../components/logo';
import { Button, ButtonLink } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { zhCNSchool as ts } from '../../../i18n/school';
import { api } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { formatDate } from '../../../lib/utils';
import {
  acceptInvite,
  fetchCaptcha,
  inviteHref,
  registerAndJoin,
  signIn,
  useInvitePreview,
} from '../api/invite';

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center bg-gradient-to-b from-blue-50 to-slate-50 px-4 py-10">
      <div className="mb-8">
        <Logo />
      </div>
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
        {children}
      </div>
    </div>
  );
}

function SchoolCard({ preview }: { preview: InvitePreview }) {
  return (
    <div className="flex flex-col items-center text-center">
      <div className="flex size-16 items-center justify-center overflow-hidden rounded-xl bg-slate-100 ring-1 ring-slate-200">
        {preview.logoUrl ? (
          <img src={preview.logoUrl} alt="" className="size-full object-contain" />
        ) : (
          <span aria-hidden="true" className="text-2xl font-semibold text-slate-500">
            {preview.schoolName.slice(0, 1)}
          </span>
        )}
      </div>
      <p className="mt-3 text-sm text-slate-500">{ts.invite.invitedBy(preview.inviter)}</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900">{preview.schoolName}</h1>
      <p className="mt-2 text-sm text-slate-600">
        {ts.invite.asRole(preview.grade ? `${preview.roleName}（${preview.grade}）` : preview.roleName)}
      </p>
      {preview.usable && (
        <p className="mt-1 text-xs text-slate-500">{ts.invite.expires(formatDate(preview.expiresAt))}</p>
      )}
    </div>
  );
}

function CaptchaInput({
  captcha,
  value,
  error,
  onChange,
  onRefresh,
}: {
  captcha: Captcha | null;
  value: string;
  error?: string | null;
  onChange: (v: string) => void;
  onRefresh: () => void;
}) {
  return (
    <TextField
      label={ts.invite.captcha}
      autoComplete="off"
      maxLength={16}
      value={value}
      error={error}
      onChange={(e) => onChange(e.target.value)}
      addon={
        <button
          type="button"
          onClick={onRefresh}
          className="h-10 w-28 shrink-0 overflow-hidden rounded-md border border-slate-200 bg-slate-50"
        >
          {captcha && (
            <img src={captcha.image} alt={FORM_MESSAGES.captcha} className="h-full w-full object-cover" />
          )}
        </button>
      }
    />
  );
}

function RegisterForm({ token, onJoined }: { token: string; onJoined: (school: string) => void }) {
  const [v, setV] = useState({ username: '', nickname: '', password: '', password2: '', captchaCode: '' });
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => void fetchCaptcha().then(setCaptcha);
  useEffect(refresh, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { token, ...v, captchaKey: captcha?.captchaKey ?? '' };
    const parsed = InviteRegisterSchema.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const i of parsed.error.issues) found[String(i.path[0])] ??= i.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setFormError(null);
    setBusy(true);
    const joined = await registerAndJoin(parsed.data);
    if (!joined.ok) {
      setBusy(false);
      setFormError(joined.message);
      setV((x) => ({ ...x, captchaCode: '' }));
      refresh();
      return;
    }
    const signed = await signIn(v.username, v.password);
    setBusy(false);
    if (!signed.ok) return setFormError(signed.message);
    onJoined(joined.value.orgName);
  };
  const field = (key: keyof typeof v) => ({
    value: v[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => setV((x) => ({ ...x, [key]: e.target.value })),
  });
  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      className="space-y-4"
      aria-label={ts.invite.tabs.register}
    >
      <TextField
        label={ts.invite.username}
        autoComplete="username"
        hint={ts.invite.usernameHint}
        {...field('username')}
      />
      <TextField
        label={ts.invite.nickname}
        hint={ts.invite.nicknameHint}
        maxLength={20}
        {...field('nickname')}
      />
      <TextField
        label={ts.invite.password}
        type="password"
        autoComplete="new-password"
        hint={ts.invite.passwordHint}
        {...field('password')}
      />
      <TextField
        label={ts.invite.password2}
        type="password"
        autoComplete="new-password"
        {...field('password2')}
      />
      <CaptchaInput
        captcha={captcha}
        value={v.captchaCode}
        error={errors.captchaCode ?? errors.captchaKey}
        onChange={(captchaCode) => setV((x) => ({ ...x, captchaCode }))}
        onRefresh={refresh}
      />
      {formError && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {formError}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={busy}>
        {ts.invite.register}
      </Button>
    </form>
  );
}

function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!username.trim()) found.username = FORM_MESSAGES.username;
    if (!password) found.password = FORM_MESSAGES.password;
    if (captcha && !code.trim()) found.captcha = FORM_MESSAGES.captcha;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    const r = await signIn(username, password, captcha ? { key: captcha.captchaKey, code } : undefined);
    setBusy(false);
    if (r.ok) return onSignedIn();
    setFormError(r.message);
    if (r.captchaRequired) {
      setCode('');
      setCaptcha(await fetchCaptcha());
    }
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4" aria-label={ts.invite.tabs.login}>
      <TextField
        label={ts.invite.username}
        autoComplete="username"
        value={username}
        error={errors.username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <TextField
        label={ts.invite.password}
        type="password"
        autoComplete="current-password"
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {captcha && (
        <CaptchaInput
          captcha={captcha}
          value={code}
          error={errors.captcha}
          onChange={setCode}
          onRefresh={() => void fetchCaptcha().then(setCaptcha)}
        />
      )}
      {formError && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {formError}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={busy}>
        {ts.invite.login}
      </Button>
    </form>
  );
}

/**
 * /invite#token=…: what the invitation offers, then joining — with the signed-in account, by signing in, or with a
 * new account. Visitors may open this page (ADR 0016).
 */
export function InviteScreen({ token }: { token: string | null }) {
  const previewQuery = useInvitePreview(token);
  const { data: preview, isLoading } = previewQuery;
  const error: unknown = previewQuery.error;
  const { signedIn, user } = useSession();
  const [joined, setJoined] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const navigate = useNavigate();

  // Signing out sends the app to /; come back to this invitation to join with another account.
  const switchAccount = async () => {
    await api.signOut();
    void navigate(token ? inviteHref(token) : paths.invite, { replace: true });
  };

  const accept = async () => {
    if (!token) return;
    setBusy(true);
    setMessage(null);
    const r = await acceptInvite(token);
    setBusy(false);
    if (r.ok) setJoined(r.value.orgName);
    else setMessage(r.message);
  };

  if (!token) {
    return (
      <Frame>
        <Problem text={ts.invite.noToken} />
      </Frame>
    );
  }
  if (isLoading) {
    return (
      <Frame>
        <p className="sr-only">{ts.invite.loading}</p>
        <Skeleton className="h-48" />
      </Frame>
    );
  }
  if (error || !preview) {
    return (
      <Frame>
        <Problem text={error instanceof Error ? error.message : ts.loadFailed} />
      </Frame>
    );
  }
  if (joined) {
    return (
      <Frame>
        <div className="text-center">
          <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-emerald-50 text-2xl text-emerald-600">
            ✓
          </div>
          <h1 className="mt-4 text-xl font-semibold text-slate-900">{ts.invite.joined(joined)}</h1>
          <p className="mt-2 text-sm text-slate-500">{ts.invite.joinedHint}</p>
          <ButtonLink to={paths.paperlist} size="lg" className="mt-6 w-full">
            {ts.invite.go}
          </ButtonLink>
        </div>
      </Frame>
    );
  }
  return (
    <Frame>
      <SchoolCard preview={preview} />
      <div className="mt-6 border-t border-slate-100 pt-6">
        {!preview.usable ? (
          <Problem text={preview.message ?? ts.loadFailed} />
        ) : signedIn && user ? (
          <div className="space-y-3">
            <p className="text-center text-sm text-slate-600">
              {ts.invite.signedInAs(`${user.nickname}（${user.username}）`)}
            </p>
            {message && (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
                {message}
              </p>
            )}
            <Button size="lg" className="w-full" loading={busy} onClick={() => void accept()}>
              {ts.invite.accept}
            </Button>
            <Button variant="ghost" className="w-full" onClick={() => void switchAccount()}>
              {ts.invite.switchAccount}
            </Button>
          </div>
        ) : (
          <Tabs
            label={ts.invite.tabs.label}
            items={[
              {
                key: 'register',
                label: ts.invite.tabs.register,
                content: <RegisterForm token={token} onJoined={setJoined} />,
              },
              {
                key: 'login',
                label: ts.invite.tabs.login,
                content: <LoginForm onSignedIn={() => undefined} />,
              },
            ]}
          />
        )}
      </div>
    </Frame>
  );
}

function Problem({ text }: { text: string }) {
  return (
    <div className="text-center">
      <h1 className="mb-3 text-xl font-semibold text-slate-900">{ts.invite.title}</h1>
      <p role="alert" className="text-base text-slate-700">
        {text}
      </p>
      <ButtonLink to={paths.home} variant="secondary" className="mt-5">
        {ts.invite.home}
      </ButtonLink>
    </div>
  );
}
