import { useState } from 'react';
import { PaperSettingsSchema, type PaperSettings } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { t } from '../../../i18n/zh-CN';
import { toast } from '../../../lib/toast';
import { STANDARD_SETTINGS, readTeacherDefaults, saveTeacherDefaults } from '../api/defaults';
import { useLatestPaper } from '../api/settings';
import { PaperPreview } from './paper-preview';
import { PaperSettingsForm } from './settings-form';

const s = t.paperset;

/** 试题设置: the teacher's default layout for new papers, the /paperset form previewed on their latest paper. */
export function DefaultSettingsScreen() {
  const [settings, setSettings] = useState<PaperSettings>(() => readTeacherDefaults() ?? STANDARD_SETTINGS);
  const [savedText, setSavedText] = useState(() =>
    JSON.stringify(readTeacherDefaults() ?? STANDARD_SETTINGS),
  );
  const { data: latest } = useLatestPaper();
  const dirty = JSON.stringify(settings) !== savedText;

  const save = () => {
    const checked = PaperSettingsSchema.safeParse(settings);
    if (!checked.success) {
      toast.error(checked.error.issues[0]?.message ?? s.invalid);
      return;
    }
    if (!saveTeacherDefaults(checked.data)) {
      toast.error(s.defaultsTooLong);
      return;
    }
    setSavedText(JSON.stringify(checked.data));
    toast.success(s.defaultsSaved);
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3 rounded-xl border border-blue-100 bg-blue-50/60 px-4 py-3 text-sm leading-6 text-slate-700">
        <p className="max-w-3xl">{s.defaultsIntro}</p>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => setSettings(STANDARD_SETTINGS)}>
            {s.standard}
          </Button>
          <Button size="sm" disabled={!dirty} onClick={save}>
            {s.saveDefaults}
          </Button>
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-[380px_minmax(0,1fr)]">
        <section
          aria-label={s.formLabel}
          className="self-start rounded-xl border border-slate-200 bg-white p-5"
        >
          <PaperSettingsForm value={settings} onChange={setSettings} />
        </section>
        <section
          aria-label={s.previewLabel}
          className="min-w-0 self-start rounded-xl border border-slate-200 bg-slate-100 p-4 sm:p-6 lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto"
        >
          <h2 className="mb-3 text-sm font-semibold text-slate-700">{s.previewLabel}</h2>
          {latest ? (
            <PaperPreview paper={latest} settings={settings} maxPages={2} />
          ) : latest === null ? (
            <div className="rounded-lg bg-white">
              <Empty title={s.noSample} description={s.noSampleHint} />
            </div>
          ) : (
            <PaperPreview
              paper={{ title: s.sampleTitle, subtitle: '', totalScore: 100, sections: [] }}
              settings={settings}
              maxPages={1}
            />
          )}
        </section>
      </div>
    </div>
  );
}
