import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ACCOUNT_MESSAGES,
  AVATAR_SIZE,
  BindPhoneSchema,
  IMAGE_MAX_BYTES,
  NicknameSchema,
  PhoneSchema,
  type Profile,
} from '@zhzy/contracts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { ImageCropDialog } from '../../../components/ui/image-crop-dialog';
import { paths } from '../../../config/paths';
import { zhCNAccount as ta } from '../../../i18n/account';
import { toast } from '../../../lib/toast';
import { formatDate } from '../../../lib/utils';
import {
  bindPhone,
  deleteAvatar,
  refreshUser,
  sendBindSms,
  setDefaultSchool,
  updateNickname,
  uploadAvatar,
  useRevalidateAccount,
} from '../api/account';

function AvatarEditor({ profile }: { profile: Profile }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const revalidate = useRevalidateAccount();
  const done = async (message: string) => {
    toast.success(message);
    revalidate('profile');
    await refreshUser();
  };
  const upload = async (blob: Blob) => {
    setBusy(true);
    try {
      await uploadAvatar(blob);
      setFile(null);
      await done(ta.profile.avatarSaved);
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex items-center gap-5">
      {profile.avatar ? (
        <img
          src={profile.avatar}
          alt={ta.profile.avatar}
          className="size-20 rounded-full object-cover ring-1 ring-slate-200"
        />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-20 items-center justify-center rounded-full bg-blue-100 text-3xl font-medium text-blue-700"
        >
          {profile.nickname.slice(0, 1)}
        </span>
      )}
      <div className="space-y-1.5">
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
            {ta.profile.changeAvatar}
          </Button>
          {profile.avatar && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() =>
                void deleteAvatar()
                  .then(() => done(ta.profile.avatarRemoved))
                  .catch(() => undefined)
              }
            >
              {ta.profile.removeAvatar}
            </Button>
          )}
        </div>
        <p className="text-xs text-slate-500">{ta.profile.avatarHint}</p>
      </div>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className="sr-only"
        aria-label={ta.profile.changeAvatar}
        onChange={(e) => {
          const f = e.target.files?.[0] ?? null;
          e.target.value = '';
          if (!f) return;
          if (f.size > IMAGE_MAX_BYTES) return void toast.error(ACCOUNT_MESSAGES.imageTooLarge);
          setFile(f);
        }}
      />
      <ImageCropDialog
        file={file}
        maxSize={AVATAR_SIZE * 2}
        round
        type="image/jpeg"
        busy={busy}
        labels={{ ...ta.crop, cancel: ta.cancel }}
        onCancel={() => setFile(null)}
        onConfirm={(b) => void upload(b)}
      />
    </div>
  );
}

function NicknameForm({ profile }: { profile: Profile }) {
  const [nickname, setNickname] = useState(profile.nickname);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const revalidate = useRevalidateAccount();
  useEffect(() => setNickname(profile.nickname), [profile.nickname]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = NicknameSchema.safeParse(nickname);
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    setError(null);
    setBusy(true);
    try {
      await updateNickname(parsed.data);
      toast.success(ta.profile.nicknameSaved);
      revalidate('profile');
      await refreshUser();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex items-start gap-2">
      <TextField
        label={ta.profile.nickname}
        value={nickname}
        maxLength={20}
        error={error}
        onChange={(e) => setNickname(e.target.value)}
        className="w-64"
      />
      <Button
        type="submit"
        variant="secondary"
        className="mt-7"
        loading={busy}
        disabled={nickname === profile.nickname}
      >
        {ta.profile.saveNickname}
      </Button>
    </form>
  );
}

function PhoneDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [countdown, setCountdown] = useState(0);
  const [busy, setBusy] = useState(false);
  const revalidate = useRevalidateAccount();
  useEffect(() => {
    if (open) {
      setPhone('');
      setCode('');
      setErrors({});
    }
  }, [open]);
  useEffect(() => {
    if (countdown <= 0) return;
    const t = setTimeout(() => setCountdown((c) => c - 1), 1000);
    return () => clearTimeout(t);
  }, [countdown]);
  const send = async () => {
    const parsed = PhoneSchema.safeParse(phone);
    if (!parsed.success) return setErrors({ phone: parsed.error.issues[0]!.message });
    setErrors({});
    try {
      const sent = await sendBindSms(parsed.data);
      toast.success(ta.profile.codeSent);
      setCountdown(sent.resendAfter);
    } catch {
      // Shown by the client (too soon, daily limit…).
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = BindPhoneSchema.safeParse({ phone, smsCode: code });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setBusy(true);
    try {
      await bindPhone(parsed.data.phone, parsed.data.smsCode);
      toast.success(ACCOUNT_MESSAGES.phoneBound);
      revalidate('profile');
      onClose();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} title={ta.profile.phoneTitle}>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label={ta.profile.newPhone}
          inputMode="numeric"
          maxLength={11}
          placeholder={ta.profile.phonePlaceholder}
          value={phone}
          error={errors.phone}
          onChange={(e) => setPhone(e.target.value)}
        />
        <TextField
          label={ta.profile.smsCode}
          inputMode="numeric"
          maxLength={6}
          placeholder={ta.profile.smsPlaceholder}
          value={code}
          error={errors.smsCode}
          onChange={(e) => setCode(e.target.value)}
          addon={
            <Button
              variant="secondary"
              className="h-10 shrink-0"
              disabled={countdown > 0}
              onClick={() => void send()}
            >
              {countdown > 0 ? ta.profile.resend(countdown) : ta.profile.sendCode}
            </Button>
          }
        />
        <DialogActions onCancel={onClose} busy={busy} submitLabel={ta.profile.confirm} />
      </form>
    </Dialog>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[6rem_1fr] items-center gap-4 py-3 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-800">{children}</dd>
    </div>
  );
}

/** Avatar, nickname, phone and my schools. */
export function ProfilePanel({ profile }: { profile: Profile }) {
  const [phoneOpen, setPhoneOpen] = useState(false);
  const revalidate = useRevalidateAccount();
  const switchSchool = async (id: string, name: string) => {
    try {
      await setDefaultSchool(id);
      toast.success(ta.profile.switched(name));
      revalidate('profile');
      revalidate('teaching');
      await refreshUser();
    } catch {
      // Shown by the client.
    }
  };
  return (
    <div className="space-y-8">
      <AvatarEditor profile={profile} />
      <NicknameForm profile={profile} />
      <dl className="max-w-xl divide-y divide-slate-100 border-t border-slate-100">
        <Row label={ta.profile.username}>{profile.username}</Row>
        <Row label={ta.profile.phone}>
          <span className="flex items-center gap-3">
            {profile.phone ?? <span className="text-slate-500">{ta.profile.noPhone}</span>}
            <Button variant="link" size="sm" onClick={() => setPhoneOpen(true)}>
              {profile.phone ? ta.profile.changePhone : ta.profile.bindPhone}
            </Button>
          </span>
        </Row>
        <Row label={ta.profile.createdAt}>{formatDate(profile.createdAt)}</Row>
      </dl>
      <section aria-label={ta.profile.schools}>
        <h3 className="mb-3 text-base font-semibold text-slate-900">{ta.profile.schools}</h3>
        {profile.schools.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 p-5 text-sm text-slate-500">
            <p className="font-medium text-slate-700">{ta.profile.noSchools}</p>
            <p className="mt-1">{ta.profile.noSchoolsHint}</p>
            <ButtonLink to={paths.teamDetails} size="sm" className="mt-3">
              {ta.profile.createSchool}
            </ButtonLink>
          </div>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {profile.schools.map((s) => (
              <li key={s.id} className="flex items-center gap-3 rounded-lg border border-slate-200 p-3">
                <span className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-slate-100">
                  {s.logoUrl ? (
                    <img src={s.logoUrl} alt="" className="size-full object-contain" />
                  ) : (
                    <span aria-hidden="true" className="text-slate-500">
                      {s.name.slice(0, 1)}
                    </span>
                  )}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-800">{s.name}</span>
                  {s.isDefault && <span className="text-xs text-blue-600">{ta.profile.current}</span>}
                </span>
                {s.isDefault ? (
                  <ButtonLink
                    variant="link"
                    size="sm"
                    to={paths.schoolSettings({
                      orgId: s.id,
                      isCreator: s.isCreator,
                      isAdministrator: s.isAdministrator,
                    })}
                  >
                    {ta.profile.settings}
                  </ButtonLink>
                ) : (
                  <Button variant="link" size="sm" onClick={() => void switchSchool(s.id, s.name)}>
                    {ta.profile.makeCurrent}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <PhoneDialog open={phoneOpen} onClose={() => setPhoneOpen(false)} />
    </div>
  );
}
