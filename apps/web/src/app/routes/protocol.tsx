import ProtocolText from '../../components/legal/protocol-text';
import { Page } from '../../components/page';
import { t } from '../../i18n/zh-CN';

export function Component() {
  return (
    <Page title={t.protocol.title} className="max-w-4xl">
      <div className="rounded-xl border border-slate-200 bg-white p-6 sm:p-10">
        <ProtocolText />
      </div>
    </Page>
  );
}
