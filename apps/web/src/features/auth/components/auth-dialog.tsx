import { Suspense, lazy, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { Logo } from '../../../components/logo';
import { t } from '../../../i18n/zh-CN';
import { closeAuthDialog, setAuthTab, useAuthDialog } from '../hooks/use-auth-dialog';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

const ProtocolText = lazy(() => import('../../../components/legal/protocol-text'));

/** Hides page scrolling while the login box is open (SPEC §4). */
function useScrollLock(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const body = document.body;
    const previous = body.style.overflow;
    body.style.overflow = 'hidden';
    return () => {
      body.style.overflow = previous;
    };
  }, [active]);
}

/** The login box: 登录 and 注册 tabs. */
export default function AuthDialog({ onSignedIn }: { onSignedIn: () => void }) {
  const { open, tab } = useAuthDialog();
  const [username, setUsername] = useState('');
  const [reading, setReading] = useState(false);
  useScrollLock(open);
  useEffect(() => {
    if (!open) setReading(false);
  }, [open]);
  if (reading) {
    // Visitors may open only / and /404, so the agreement is read here rather than on /protocol.
    return (
      <Dialog open={open} onClose={closeAuthDialog} title={t.protocol.title} className="max-w-2xl">
        <div className="max-h-[60vh] overflow-y-auto pr-2">
          <Suspense fallback={<SkeletonLines lines={8} />}>
            <ProtocolText />
          </Suspense>
        </div>
        <div className="mt-5 flex justify-end">
          <Button onClick={() => setReading(false)}>{t.auth.backToLogin}</Button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog
      open={open}
      onClose={closeAuthDialog}
      title={t.auth.dialogTitle}
      hideTitle
      className="max-w-[420px]"
    >
      <div className="mb-5 flex flex-col items-center gap-1">
        <Logo />
        <p className="text-sm text-slate-500">{t.tagline}</p>
      </div>
      <Tabs
        label={t.auth.dialogTitle}
        selectedIndex={tab === 'login' ? 0 : 1}
        onChange={(i) => setAuthTab(i === 0 ? 'login' : 'register')}
        items={[
          {
            key: 'login',
            label: t.auth.login,
            content: (
              <LoginForm
                key={username}
                initialUsername={username}
                onSignedIn={() => {
                  closeAuthDialog();
                  onSignedIn();
                }}
              />
            ),
          },
          {
            key: 'register',
            label: t.auth.register,
            content: (
              <RegisterForm
                onRegistered={(name) => {
                  setUsername(name);
                  setAuthTab('login');
                }}
              />
            ),
          },
        ]}
      />
      <p className="mt-5 text-center text-xs text-slate-500">
        {t.auth.agree}
        <button type="button" onClick={() => setReading(true)} className="text-blue-600 hover:underline">
          {t.auth.protocol}
        </button>
      </p>
    </Dialog>
  );
}
