import { useEffect, useState } from 'react';
import { PaperSettingsSchema, type PaperSettings } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { composition } from '../../../i18n/composition';
import { toast } from '../../../lib/toast';
import { STANDARD_SETTINGS, useTeacherDefaults, useTeacherDefaultsActions } from '../api/defaults';
import { useLatestPaper } from '../api/settings';
import { PaperPreview } from './paper-preview';
import { PaperSettingsForm } from './settings-form';

const s = composition.paperset;

/** 试题设置: the teacher's default layout for new papers, the /paperset form previewed on their latest paper. */
export function DefaultSettingsScreen() {
  const defaults = useTeacherDefaults();
  const actions = useTeacherDefaultsActions();
  const [settings, setSettings] = useState<PaperSettings | null>(null);
  const [savedText, setSavedText] = useState('');
  const [busy, setBusy] = useState(false);
  const { data: latest } = useLatestPaper();

  // The form starts from what the host keeps, once it has answered.
  useEffect(() => {
    if (defaults.data && settings === null) {
      setSettings(defaults.data.settings);
      setSavedText(JSON.stringify(defaults.data.settings));
    }
  }, [defaults.data, settings]);

  const shown = settings ?? STANDARD_SETTINGS;
  const dirty = settings !== null && JSON.stringify(settings) !== savedText;

  const save = async () => {
    const checked = PaperSettingsSchema.safeParse(shown);
    if (!checked.success) {
      toast.error(checked.error.issues[0]?.message ?? s.invalid);
      return;
    }
    setBusy(true);
    try {
      const saved = await actions.save(checked.data);
      setSavedText(JSON.stringify(saved.settings));
      toast.success(s.defaultsSaved);
    } catch {
      // The client has shown the host's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3 rounded-xl border border-blue-100 bg-blue-50/60 px-4 py-3 text-sm leading-6 text-slate-700">
        <p className="max-w-3xl">{s.defaultsIntro}</p>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => setSettings(STANDARD_SETTINGS)}>
            {s.standard}
          </Button>
          <Button size="sm" disabled={!dirty || busy} onClick={() => void save()}>
            {s.saveDefaults}
          </Button>
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-[380px_minmax(0,1fr)]">
        <section
          aria-label={s.formLabel}
          className="self-start rounded-xl border border-slate-200 bg-white p-5"
        >
          <PaperSettingsForm value={shown} onChange={setSettings} />
        </section>
        <section
          aria-label={s.previewLabel}
          // Scrolls on its own on wide screens: focusable so that the keyboard can scroll it too.
          tabIndex={0}
          className="min-w-0 self-start rounded-xl border border-slate-200 bg-slate-100 p-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 sm:p-6 lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto"
        >
          <h2 className="mb-3 text-sm font-semibold text-slate-700">{s.previewLabel}</h2>
          {latest ? (
            <PaperPreview paper={latest} settings={shown} maxPages={2} />
          ) : latest === null ? (
            <div className="rounded-lg bg-white">
              <Empty title={s.noSample} description={s.noSampleHint} />
            </div>
          ) : (
            <PaperPreview
              paper={{ title: s.sampleTitle, subtitle: '', totalScore: 100, sections: [] }}
              settings={shown}
              maxPages={1}
            />
          )}
        </section>
      </div>
    </div>
  );
}
