import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ColorModeSchema, PAPER_SIZE_CODES, type PaperSizeName } from '@zhzy/contracts';
import { BreakpointDialog } from '../../../components/ui/breakpoint-dialog';
import { Button } from '../../../components/ui/button';
import { Listbox } from '../../../components/ui/listbox';
import { Segmented } from '../../../components/ui/segmented';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import { useRecentHomework } from '../../../api/homework';
import {
  readScannerState,
  saveScannerSetting,
  useScannerState,
  type ScannerSetting,
} from '../stores/scanner-settings';

type YesNo = 'yes' | 'no';
const yesNo: { value: YesNo; label: string }[] = [
  { value: 'yes', label: s.dialog.yes },
  { value: 'no', label: s.dialog.no },
];
const toYesNo = (v: boolean): YesNo => (v ? 'yes' : 'no');
const PAPERS = Object.entries(PAPER_SIZE_CODES) as [PaperSizeName, number][];
const COLOR_MODE_OPTIONS = ColorModeSchema.options;

/** A visible label above a control that carries the same label for assistive technology. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <p aria-hidden="true" className="text-sm font-medium text-slate-700">
        {label}
      </p>
      {children}
    </div>
  );
}

/** The form inside the dialog; it starts from the saved setting each time the dialog opens. */
function SettingsForm({
  onSaved,
  homeworkId,
  loadingSources,
  onRefresh,
}: {
  onSaved: () => void;
  homeworkId: string | null;
  loadingSources: boolean;
  onRefresh?: () => void;
}) {
  const { sources } = useScannerState();
  const [draft, setDraft] = useState<ScannerSetting>(() => {
    const { setting: saved, sourcesKnown } = readScannerState();
    if (!sourcesKnown) return saved;
    // A saved index that no longer names its device is shown as not chosen (请选择扫描仪).
    const source = sources.find((x) => x.id === saved.scannerIndex);
    const stillThere = source && (!saved.deviceId || source.deviceId === saved.deviceId);
    return stillThere ? saved : { ...saved, scannerIndex: null, deviceId: null };
  });
  const [error, setError] = useState<string | null>(null);
  const [sheetsText, setSheetsText] = useState(() => String(draft.virtualSheets));
  const sheetsId = useId();
  const chosen = sources.find((x) => x.id === draft.scannerIndex) ?? null;
  const homework = useRecentHomework(50, chosen?.driver === 'virtual').data?.records;
  const patch = (p: Partial<ScannerSetting>) => setDraft((d) => ({ ...d, ...p }));
  // Opened for a homework (/scan?homeworkId=): the picker starts on it once the list shows it (its card exists).
  const preselected = useRef(false);
  useEffect(() => {
    if (preselected.current || !homeworkId || !homework) return;
    preselected.current = true;
    if (homework.some((h) => h.id === homeworkId && h.card.pageCount > 0))
      setDraft((d) => ({ ...d, virtualHomeworkId: homeworkId }));
  }, [homeworkId, homework]);

  const save = () => {
    if (sources.length > 0 && !chosen) {
      setError(s.dialog.chooseScanner);
      return;
    }
    const sheets = Math.round(Number(sheetsText));
    saveScannerSetting({
      ...draft,
      deviceId: chosen?.deviceId ?? null,
      virtualSheets: Number.isFinite(sheets) && sheets >= 1 ? Math.min(200, sheets) : draft.virtualSheets,
    });
    onSaved();
  };

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Row label={s.dialog.scanner}>
        <Listbox
          label={s.dialog.scanner}
          hideLabel
          className="[&>button]:w-full"
          buttonClassName="w-full"
          value={draft.scannerIndex === null ? null : String(draft.scannerIndex)}
          placeholder={
            loadingSources
              ? s.dialog.loadingScanners
              : sources.length
                ? s.dialog.scannerPlaceholder
                : s.dialog.noScanner
          }
          disabled={sources.length === 0}
          options={sources.map((x) => ({ value: String(x.id), label: x.text }))}
          onChange={(v) => {
            setError(null);
            patch({ scannerIndex: Number(v) });
          }}
        />
        {error && (
          <p role="alert" className="text-xs text-red-600">
            {error}
          </p>
        )}
        {onRefresh && (
          <Button variant="link" onClick={onRefresh} disabled={loadingSources}>
            {s.dialog.refresh}
          </Button>
        )}
      </Row>

      <Row label={s.dialog.adaptive}>
        <Segmented
          label={s.dialog.adaptive}
          value={toYesNo(draft.adaptive)}
          options={yesNo}
          onChange={(v) => patch({ adaptive: v === 'yes' })}
        />
      </Row>

      {!draft.adaptive && (
        <Row label={s.dialog.paperSize}>
          <Segmented
            label={s.dialog.paperSize}
            value={String(draft.paperSize)}
            options={PAPERS.map(([name, code]) => ({ value: String(code), label: s.paperNames[name] }))}
            onChange={(v) => patch({ paperSize: Number(v) })}
            className="flex-wrap"
          />
        </Row>
      )}

      <Row label={s.dialog.duplex}>
        <Segmented
          label={s.dialog.duplex}
          value={toYesNo(draft.duplex)}
          options={yesNo}
          onChange={(v) => patch({ duplex: v === 'yes' })}
        />
      </Row>

      <Row label={s.dialog.colorMode}>
        <Segmented
          label={s.dialog.colorMode}
          value={draft.colorMode}
          options={COLOR_MODE_OPTIONS.map((m) => ({ value: m, label: s.dialog.colorModes[m] }))}
          onChange={(v) => patch({ colorMode: COLOR_MODE_OPTIONS.find((m) => m === v) ?? 'color' })}
        />
        <p className="text-xs text-slate-500">{s.dialog.colorModeHint}</p>
      </Row>

      <Row label={s.dialog.subjectTeacher}>
        <Segmented
          label={s.dialog.subjectTeacher}
          value={toYesNo(draft.subjectTeacher)}
          options={yesNo}
          onChange={(v) => patch({ subjectTeacher: v === 'yes' })}
        />
      </Row>

      {chosen?.driver === 'virtual' && (
        <div className="space-y-1.5">
          <label htmlFor={sheetsId} className="block text-sm font-medium text-slate-700">
            {s.dialog.virtualSheets}
          </label>
          <input
            id={sheetsId}
            type="number"
            min={1}
            max={200}
            value={sheetsText}
            onChange={(e) => setSheetsText(e.target.value)}
            className="h-9 w-28 rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
          />
          <p className="text-xs text-slate-500">{s.dialog.virtualSheetsHint}</p>
          <Row label={s.dialog.virtualHomework}>
            <Listbox
              label={s.dialog.virtualHomework}
              hideLabel
              className="[&>button]:w-full"
              buttonClassName="w-full"
              value={draft.virtualHomeworkId ?? ''}
              options={[
                { value: '', label: s.dialog.virtualDemoCard },
                ...(homework ?? []).map((h) => ({
                  value: h.id,
                  label: s.dialog.virtualHomeworkOption(h.title, h.classes.map((c) => c.name).join('、')),
                })),
              ]}
              placeholder={s.dialog.virtualDemoCard}
              onChange={(v) => patch({ virtualHomeworkId: v || null })}
            />
            <p className="text-xs text-slate-500">{s.dialog.virtualHomeworkHint}</p>
          </Row>
          <Row label={s.dialog.virtualTeacherMarks}>
            <Segmented
              label={s.dialog.virtualTeacherMarks}
              value={toYesNo(draft.virtualTeacherMarks)}
              options={yesNo}
              onChange={(v) => patch({ virtualTeacherMarks: v === 'yes' })}
            />
            <p className="text-xs text-slate-500">{s.dialog.virtualTeacherMarksHint}</p>
          </Row>
        </div>
      )}

      <div className="flex justify-end pt-2">
        <Button type="submit">{s.dialog.save}</Button>
      </div>
    </form>
  );
}

/**
 * The scan settings dialog of SPEC §2: titled 扫描设置, not closable by a backdrop click or Escape; scanner picker
 * (请选择扫描仪), adaptive, paper size only when adaptive is 否, duplex, 是否分配给学科老师, save. Saving writes the
 * setting to the shared scanner state and closes.
 */
export function ScanSettingsDialog({
  open,
  onClose,
  homeworkId = null,
  loadingSources = false,
  onRefresh,
}: {
  open: boolean;
  onClose: () => void;
  /** The homework the screen was opened for: preselected in the 演示作业 picker when it is listed. */
  homeworkId?: string | null;
  loadingSources?: boolean;
  onRefresh?: () => void;
}) {
  return (
    <BreakpointDialog open={open} onClose={onClose} title={s.dialog.title} dismissable={false}>
      {open && (
        <SettingsForm
          onSaved={onClose}
          homeworkId={homeworkId}
          loadingSources={loadingSources}
          {...(onRefresh ? { onRefresh } : {})}
        />
      )}
    </BreakpointDialog>
  );
}
