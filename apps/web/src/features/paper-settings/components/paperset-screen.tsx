import { useEffect, useRef, useState } from 'react';
import { useBlocker, useNavigate, useSearchParams } from 'react-router-dom';
import { PaperSettingsSchema, type PaperSettings } from '@zhzy/contracts';
import { Page } from '../../../components/page';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Empty } from '../../../components/ui/empty';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths, withQuery } from '../../../config/paths';
import { SCREENS } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { useApiMutate } from '../../../lib/swr';
import { toast } from '../../../lib/toast';
import { STANDARD_SETTINGS, useTeacherDefaults, useTeacherDefaultsActions } from '../api/defaults';
import { keys } from '../../../api/keys';
import { usePaperDetail } from '../../../api/papers';
import { savePaperSettings } from '../api/settings';
import { PaperPreview } from './paper-preview';
import { PaperSettingsForm } from './settings-form';

const s = composition.paperset;

/** /paperset?paperId=…: the layout of one paper, with a live preview of its pages. */
export function PapersetScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const paperId = params.get('paperId');
  const paper = usePaperDetail(paperId);
  const doc = paper.data;
  const failed = paper.error !== undefined;
  const isLoading = paper.isLoading;
  const mutate = useApiMutate();
  const defaults = useTeacherDefaults();
  const defaultsActions = useTeacherDefaultsActions();
  const [settings, setSettings] = useState<PaperSettings | null>(null);
  const [savedText, setSavedText] = useState('');
  const [copy, setCopy] = useState<'student' | 'teacher'>('student');
  const [busy, setBusy] = useState(false);
  const leaving = useRef(false);

  useEffect(() => {
    if (doc && settings === null) {
      setSettings(doc.settings);
      setSavedText(JSON.stringify(doc.settings));
    }
  }, [doc, settings]);

  const dirty = settings !== null && JSON.stringify(settings) !== savedText;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !leaving.current && dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  const save = async (): Promise<boolean> => {
    if (!paperId || !settings) return false;
    const checked = PaperSettingsSchema.safeParse(settings);
    if (!checked.success) {
      toast.error(checked.error.issues[0]?.message ?? s.invalid);
      return false;
    }
    setBusy(true);
    try {
      const stored = await savePaperSettings(paperId, checked.data);
      setSavedText(JSON.stringify(stored));
      if (doc) await mutate(keys.paperDetail(paperId), { ...doc, settings: stored }, { revalidate: false });
      toast.success(s.saved);
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };

  if (!paperId) {
    return (
      <Page title={SCREENS.paperset.title}>
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty
            title={s.noPaper}
            description={s.noPaperHint}
            action={
              <ButtonLink to={paths.cloudResources.personPaper}>{composition.compose.myPapers}</ButtonLink>
            }
          />
        </div>
      </Page>
    );
  }
  if (failed) {
    return (
      <Page title={SCREENS.paperset.title}>
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty title={composition.compose.openFailed} description={s.openFailedHint} />
        </div>
      </Page>
    );
  }
  if (isLoading || !doc || !settings) {
    return (
      <Page title={SCREENS.paperset.title}>
        <SkeletonLines lines={10} />
      </Page>
    );
  }

  const editable = doc.permissions.edit;
  const backToEdit = withQuery(paths.edit, { paperId: doc.id });

  return (
    <Page
      title={SCREENS.paperset.title}
      lead={doc.title}
      wide
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-xs text-slate-500" aria-live="polite">
            {dirty ? composition.compose.unsaved : composition.compose.allSaved}
          </span>
          <Button variant="secondary" size="sm" onClick={() => void navigate(backToEdit)}>
            {s.backToEdit}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!editable || !dirty}
            loading={busy}
            onClick={() => void save()}
          >
            {s.save}
          </Button>
          <Button
            size="sm"
            disabled={!editable}
            onClick={() =>
              void (async () => {
                if (dirty && !(await save())) return;
                leaving.current = true;
                void navigate(backToEdit);
              })()
            }
          >
            {s.saveAndBack}
          </Button>
        </div>
      }
    >
      {!editable && (
        <p className="mb-4 rounded-lg bg-amber-50 px-4 py-2 text-sm text-amber-800">{s.readOnly}</p>
      )}
      <div className="grid gap-6 lg:grid-cols-[380px_minmax(0,1fr)]">
        <section
          aria-label={s.formLabel}
          className="space-y-4 self-start rounded-xl border border-slate-200 bg-white p-5"
        >
          <PaperSettingsForm value={settings} onChange={setSettings} />
          <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-4">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                defaultsActions.save(settings).then(
                  () => toast.success(s.defaultsSaved),
                  () => undefined, // the client has shown the host's message
                );
              }}
            >
              {s.setDefaults}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                const mine = defaults.data;
                if (mine?.saved) setSettings(mine.settings);
                else toast(s.noDefaults);
              }}
            >
              {s.useDefaults}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setSettings(STANDARD_SETTINGS)}>
              {s.standard}
            </Button>
          </div>
        </section>
        <section
          aria-label={s.previewLabel}
          // Scrolls on its own on wide screens: focusable so that the keyboard can scroll it too.
          tabIndex={0}
          className="min-w-0 self-start rounded-xl border border-slate-200 bg-slate-100 p-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 sm:p-6 lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto"
        >
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-sm font-semibold text-slate-700">{s.previewLabel}</h2>
            <Segmented
              label={s.copyLabel}
              value={copy}
              options={[
                { value: 'student', label: s.studentCopy },
                { value: 'teacher', label: s.teacherCopy },
              ]}
              onChange={setCopy}
            />
          </div>
          <PaperPreview paper={doc} settings={settings} copy={copy} />
        </section>
      </div>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title={s.leaveTitle}
        confirmLabel={composition.compose.leaveSave}
        busy={busy}
        onConfirm={() =>
          void save().then((ok) => {
            if (ok && blocker.state === 'blocked') blocker.proceed();
          })
        }
        onClose={() => blocker.state === 'blocked' && blocker.reset()}
        extra={
          <Button variant="secondary" onClick={() => blocker.state === 'blocked' && blocker.proceed()}>
            {composition.compose.leaveDiscard}
          </Button>
        }
      >
        {composition.compose.leaveText}
      </ConfirmDialog>
    </Page>
  );
}
