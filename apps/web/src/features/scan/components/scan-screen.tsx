import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { PAPER_SIZE_CODES, sheetOfPage, type PaperSizeName } from '@zhzy/contracts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Page } from '../../../components/page';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { SCREENS, zhCNScan as s } from '../../../i18n/zh-CN';
import { useHomeworkBinding } from '../hooks/use-homework-binding';
import { useScanSession } from '../hooks/use-scan-session';
import type { ScanSession } from '../stores/scan-session';
import { useScannerState } from '../stores/scanner-settings';
import { AgentStatus } from './agent-status';
import { BatchPanel } from './batch-panel';
import { FileUpload } from './file-upload';
import { PhotoCapture } from './photo-capture';
import { PageViewer, type TilePage } from './page-viewer';
import { PairingDialog } from './pairing-dialog';
import { ScanSettingsDialog } from './scan-settings-dialog';

const paperName = (code: number) => {
  const entry = (Object.entries(PAPER_SIZE_CODES) as [PaperSizeName, number][]).find(([, c]) => c === code);
  return entry ? s.paperNames[entry[0]] : String(code);
};

/** The saved settings in one line, with the button that opens the dialog. */
function SettingsSummary({ onEdit }: { onEdit: () => void }) {
  const { setting, sources } = useScannerState();
  const source = sources.find((x) => x.id === setting.scannerIndex);
  const yn = (v: boolean) => (v ? s.summary.yes : s.summary.no);
  const items: [string, string][] = [
    [s.summary.scanner, source?.text ?? s.summary.none],
    [s.summary.adaptive, yn(setting.adaptive)],
    ...(!setting.adaptive ? ([[s.summary.paper, paperName(setting.paperSize)]] as [string, string][]) : []),
    [s.summary.duplex, yn(setting.duplex)],
    [s.summary.colorMode, s.dialog.colorModes[setting.colorMode]],
    [s.summary.subjectTeacher, yn(setting.subjectTeacher)],
  ];
  return (
    <section
      aria-label={s.settingsSummary}
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3"
    >
      <dl className="flex min-w-0 flex-wrap gap-x-5 gap-y-1 text-sm" data-testid="settings-summary">
        {items.map(([k, v]) => (
          <div key={k} className="flex min-w-0 gap-1.5">
            <dt className="shrink-0 text-slate-500">{k}</dt>
            <dd className="truncate font-medium text-slate-800">{v}</dd>
          </div>
        ))}
      </dl>
      <Button variant="secondary" size="sm" onClick={onEdit}>
        {s.settings}
      </Button>
    </section>
  );
}

/**
 * The /scan screen: the agent loads on the first scan request (or when the settings need its scanners), pairs if it
 * must, and the batch streams into the viewer page by page; without an agent, scans are uploaded from files.
 */
export function ScanScreen({
  schoolYearId,
  schoolYearLoading = false,
  homeworkId = null,
  session: given,
}: {
  /** The default school year of the top bar (null: none chosen). */
  schoolYearId: string | null;
  /**
   * The school years are still loading: 开始扫描 waits (busy) rather than answering 请选择学年后再进行扫描 to a teacher
   * who clicks it as soon as the page opens.
   */
  schoolYearLoading?: boolean;
  /**
   * The homework the screen was opened for (its 「扫描」 button): scans are bound to it, the title names it, only its
   * batches are shown, and the demo scanner's 演示作业 picker starts on it.
   */
  homeworkId?: string | null;
  session?: ScanSession;
}) {
  const [session, state] = useScanSession(given);
  const homework = useHomeworkBinding(session, homeworkId);
  const [settingsOpen, setSettingsOpen] = useState(false);
  /** The page whose sheet the teacher chose to rescan (the confirmation is open). */
  const [rescanning, setRescanning] = useState<number | null>(null);
  const [photoOpen, setPhotoOpen] = useState(false);
  const lastTick = useRef(state.reselectTick);

  useEffect(() => session.setSchoolYear(schoolYearId), [session, schoolYearId]);

  // 请重新选择扫描仪: open the settings so the teacher can choose.
  useEffect(() => {
    if (state.reselectTick !== lastTick.current) {
      lastTick.current = state.reselectTick;
      if (state.reselectTick > 0) setSettingsOpen(true);
    }
  }, [state.reselectTick]);

  const openSettings = () => {
    setSettingsOpen(true);
    void session.ensureAgent();
  };

  const batch = state.batches.find((b) => b.id === state.currentBatchId) ?? null;
  const batchPages = state.currentBatchId ? (state.pages[state.currentBatchId] ?? []) : [];
  const waiting = new Set(batch?.rescanSeqs ?? []);
  const pages: TilePage[] = batchPages.map((p) => ({
    key: `${p.batchId}-${p.seq}`,
    seq: p.seq,
    name: p.name,
    thumbUrl: p.thumbUrl,
    side: p.side,
    blank: p.blank,
    upload: p.upload,
    uploadError: p.uploadError,
    retryAt: p.upload === 'pending' ? p.retryAt : null,
    duplicate: p.duplicate,
    rescanned: p.rescanned,
    awaitingRescan: waiting.has(p.seq),
  }));
  const scanning = batch?.state === 'scanning';
  const sideOf = new Map(batchPages.map((p) => [p.seq, p.side]));
  const rescanSheet = rescanning === null ? [] : sheetOfPage((n) => sideOf.get(n), rescanning);
  const showUpload = state.status === 'unreachable' || state.status === 'outdated';

  return (
    <Page
      title={homework ? s.bound.title(homework.title) : SCREENS.scan.title}
      lead={
        homework ? (
          <>
            {s.bound.lead}{' '}
            <Link to={paths.scan} className="text-blue-700 hover:underline">
              {s.bound.other}
            </Link>
          </>
        ) : (
          s.lead
        )
      }
      actions={
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => void session.requestScan(schoolYearId)}
            loading={
              schoolYearLoading || state.starting || (state.scanRequested && state.status !== 'unpaired')
            }
            disabled={scanning}
            data-testid="start-scan"
          >
            {state.starting ? s.starting : s.start}
          </Button>
          <Button variant="secondary" onClick={() => setPhotoOpen(true)} data-testid="photo-capture-open">
            {s.photo.open}
          </Button>
        </div>
      }
    >
      <div className="space-y-4">
        <AgentStatus
          state={state}
          onConnect={() => void session.ensureAgent()}
          onRecheck={() => void session.recheck()}
          onPair={() => session.openPairing()}
          onUnpair={() => void session.unpair()}
          onUpdate={(version) => void session.updateAgent(version)}
        />
        <SettingsSummary onEdit={openSettings} />
        <BatchPanel
          state={state}
          onPause={() => void session.pause()}
          onResume={() => void session.resume()}
          onFinish={() => void session.finish()}
          onRetry={() => void session.retryUploads()}
        />
        {/* Without an agent the empty scan viewer would only push the file upload out of sight. */}
        {(!showUpload || pages.length > 0) && (
          <PageViewer
            pages={pages}
            loading={state.loading || (scanning && waiting.size > 0)}
            follow={scanning}
            onRescan={state.status === 'ready' && batch ? setRescanning : undefined}
            rescanDisabled={scanning || state.action !== null}
          />
        )}
        {showUpload && <FileUpload schoolYearId={schoolYearId} homeworkId={homeworkId} />}
      </div>

      <ScanSettingsDialog
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        homeworkId={homeworkId}
        loadingSources={state.status === 'checking' || state.status === 'connecting' || state.refreshing}
        onRefresh={() => void session.refreshSources()}
      />
      <ConfirmDialog
        open={rescanning !== null}
        title={s.rescan.title}
        confirmLabel={s.rescan.confirm}
        busy={state.action === 'rescan'}
        onClose={() => setRescanning(null)}
        onConfirm={() => {
          if (rescanning === null) return;
          void session.rescan(rescanning).then((ok) => {
            if (ok) setRescanning(null);
          });
        }}
      >
        <p>{s.rescan.sheet(rescanSheet)}</p>
        <p className="mt-2 font-medium text-slate-800">{s.rescan.hint}</p>
      </ConfirmDialog>
      <PhotoCapture
        open={photoOpen}
        onClose={() => setPhotoOpen(false)}
        schoolYearId={schoolYearId}
        homeworkId={homeworkId}
      />
      <PairingDialog
        open={state.pairingOpen && state.status === 'unpaired'}
        pairing={state.pairing}
        onClose={() => session.closePairing()}
        onRequest={() => void session.requestPairing()}
        onConfirm={(code) => void session.confirmPairing(code)}
      />
    </Page>
  );
}
