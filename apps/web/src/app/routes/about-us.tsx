import { Page } from '../../components/page';
import { t } from '../../i18n/zh-CN';
import { AboutContent } from '../../features/home/components/about';

export function Component() {
  return (
    <Page title={t.aboutUs.title} className="max-w-4xl">
      <div className="rounded-xl border border-slate-200 bg-white p-6 sm:p-8">
        <AboutContent />
      </div>
    </Page>
  );
}
