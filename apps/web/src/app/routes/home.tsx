import { Logo } from '../../components/logo';
import { Button } from '../../components/ui/button';
import { t } from '../../i18n/zh-CN';
import { openAuthDialog } from '../../features/auth/hooks/use-auth-dialog';
import { AboutContent } from '../../features/home/components/about';
import { FeatureGrid, Hero, Steps } from '../../features/home/components/home-sections';

/** The visitor home page: what the product does, the question-type demo, and sign-in. */
export function Component() {
  return (
    <div>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-6">
          <Logo />
          <Button variant="secondary" onClick={() => openAuthDialog('login')}>
            {t.topBar.loginRegister}
          </Button>
        </div>
      </header>
      <Hero onStart={() => openAuthDialog('login')} />
      <FeatureGrid />
      <Steps />
      <section id="about" className="mx-auto max-w-4xl scroll-mt-6 px-6 py-14">
        <h2 className="mb-6 text-xl font-semibold text-slate-900">{t.aboutUs.title}</h2>
        <AboutContent />
      </section>
    </div>
  );
}
