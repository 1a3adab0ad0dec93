import { useEffect, useId, useState, type ReactNode } from 'react';
import { PAPER_FONT_SIZES, PAPER_LAYOUT_SIZES, type PaperSettings } from '@zhzy/contracts';
import { Segmented } from '../../../components/ui/segmented';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';

const s = composition.paperset;

function Group({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <div
      role="group"
      aria-labelledby={id}
      className="space-y-3 border-t border-slate-100 pt-4 first:border-0 first:pt-0"
    >
      <h3 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h3>
      {children}
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <span className="text-sm text-slate-600">{label}</span>
      {children}
    </div>
  );
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        className="size-4 accent-blue-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}

/** A whole-number box that commits only values inside its range (the text stays as typed until then). */
function NumberBox({
  label,
  value,
  min,
  max,
  onChange,
  allowEmpty = false,
  suffix,
}: {
  label: string;
  value: number | null;
  min: number;
  max: number;
  onChange: (v: number | null) => void;
  allowEmpty?: boolean;
  suffix?: string;
}) {
  const [text, setText] = useState(value === null ? '' : String(value));
  const id = useId();
  useEffect(() => {
    setText((cur) =>
      (cur.trim() === '' ? value === null : Number(cur) === value)
        ? cur
        : value === null
          ? ''
          : String(value),
    );
  }, [value]);
  const n = Number(text);
  const ok = text.trim() === '' ? allowEmpty : Number.isInteger(n) && n >= min && n <= max;
  return (
    <span className="inline-flex items-center gap-1.5">
      <label htmlFor={id} className="text-sm text-slate-600">
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        value={text}
        aria-invalid={!ok || undefined}
        title={ok ? undefined : s.range(min, max)}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          if (next.trim() === '') {
            if (allowEmpty) onChange(null);
            return;
          }
          const v = Number(next);
          if (Number.isInteger(v) && v >= min && v <= max) onChange(v);
        }}
        className={cn(
          'h-8 w-16 rounded-md border bg-white px-2 text-center text-sm tabular-nums focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none',
          ok ? 'border-slate-300' : 'border-red-400 bg-red-50',
        )}
      />
      {suffix && <span className="text-sm text-slate-500">{suffix}</span>}
    </span>
  );
}

/** Every setting of a paper's layout (/paperset, and the teacher's defaults in 试题设置). */
export function PaperSettingsForm({
  value,
  onChange,
}: {
  value: PaperSettings;
  onChange: (next: PaperSettings) => void;
}) {
  const set = <K extends keyof PaperSettings>(key: K, v: PaperSettings[K]) =>
    onChange({ ...value, [key]: v });
  const header = (patch: Partial<PaperSettings['header']>) => set('header', { ...value.header, ...patch });
  const margin = (k: keyof PaperSettings['margins'], v: number | null) =>
    v !== null && set('margins', { ...value.margins, [k]: v });
  const [fieldsText, setFieldsText] = useState(value.studentInfo.fields.join(' '));
  const [noticeText, setNoticeText] = useState(value.header.notice.join('\n'));
  useEffect(() => {
    setFieldsText((cur) =>
      splitFields(cur).join(' ') === value.studentInfo.fields.join(' ')
        ? cur
        : value.studentInfo.fields.join(' '),
    );
  }, [value.studentInfo.fields]);
  useEffect(() => {
    setNoticeText((cur) =>
      splitLines(cur).join('\n') === value.header.notice.join('\n') ? cur : value.header.notice.join('\n'),
    );
  }, [value.header.notice]);

  return (
    <div className="space-y-5">
      <Group title={s.page}>
        <Row label={s.paperSize}>
          <Segmented
            label={s.paperSize}
            value={value.paperSize}
            options={PAPER_LAYOUT_SIZES.map((p) => ({ value: p, label: s.sizeNames[p] }))}
            onChange={(v) => set('paperSize', v)}
          />
        </Row>
        <Row label={s.columns}>
          <Segmented
            label={s.columns}
            value={value.columns === null ? 'auto' : String(value.columns)}
            options={[
              { value: 'auto', label: s.columnsAuto },
              { value: '1', label: s.columnsOne },
              { value: '2', label: s.columnsTwo },
            ]}
            onChange={(v) => set('columns', v === 'auto' ? null : v === '1' ? 1 : 2)}
          />
        </Row>
        <div>
          <span className="text-sm text-slate-600">{s.margins}</span>
          <div className="mt-2 grid grid-cols-2 gap-2">
            <NumberBox
              label={s.top}
              value={value.margins.top}
              min={5}
              max={60}
              onChange={(v) => margin('top', v)}
              suffix={s.mm}
            />
            <NumberBox
              label={s.bottom}
              value={value.margins.bottom}
              min={5}
              max={60}
              onChange={(v) => margin('bottom', v)}
              suffix={s.mm}
            />
            <NumberBox
              label={s.left}
              value={value.margins.left}
              min={5}
              max={60}
              onChange={(v) => margin('left', v)}
              suffix={s.mm}
            />
            <NumberBox
              label={s.right}
              value={value.margins.right}
              min={5}
              max={60}
              onChange={(v) => margin('right', v)}
              suffix={s.mm}
            />
          </div>
        </div>
        <Row label={s.fontSize}>
          <Segmented
            label={s.fontSize}
            value={String(value.fontSize)}
            options={Object.entries(PAPER_FONT_SIZES).map(([name, pt]) => ({
              value: String(pt),
              label: name,
            }))}
            onChange={(v) => set('fontSize', Number(v) as PaperSettings['fontSize'])}
          />
        </Row>
      </Group>

      <Group title={s.headerGroup}>
        <label className="block text-sm text-slate-600">
          {s.school}
          <input
            value={value.header.school}
            maxLength={60}
            placeholder={s.schoolPlaceholder}
            onChange={(e) => header({ school: e.target.value })}
            className="mt-1 h-9 w-full rounded-md border border-slate-300 px-3 text-sm text-slate-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
          />
        </label>
        <div className="grid grid-cols-2 gap-2">
          <Check
            label={s.showTitle}
            checked={value.header.showTitle}
            onChange={(v) => header({ showTitle: v })}
          />
          <Check
            label={s.showSubtitle}
            checked={value.header.showSubtitle}
            onChange={(v) => header({ showSubtitle: v })}
          />
          <Check
            label={s.showFullScore}
            checked={value.header.showFullScore}
            onChange={(v) => header({ showFullScore: v })}
          />
          <Check label={s.scoreTable} checked={value.scoreTable} onChange={(v) => set('scoreTable', v)} />
        </div>
        <NumberBox
          label={s.examMinutes}
          value={value.header.examMinutes}
          min={1}
          max={600}
          allowEmpty
          onChange={(v) => header({ examMinutes: v })}
          suffix={s.minutesHint}
        />
        <Check
          label={s.showNotice}
          checked={value.header.showNotice}
          onChange={(v) => header({ showNotice: v })}
        />
        {value.header.showNotice && (
          <label className="block text-sm text-slate-600">
            {s.notice}
            <textarea
              value={noticeText}
              rows={4}
              onChange={(e) => {
                setNoticeText(e.target.value);
                header({ notice: splitLines(e.target.value) });
              }}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm leading-6 text-slate-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
            />
            <span className="text-xs text-slate-500">{s.noticeHint}</span>
          </label>
        )}
      </Group>

      <Group title={s.studentGroup}>
        <Check
          label={s.studentInfo}
          checked={value.studentInfo.show}
          onChange={(v) => set('studentInfo', { ...value.studentInfo, show: v })}
        />
        {value.studentInfo.show && (
          <label className="block text-sm text-slate-600">
            {s.studentFields}
            <input
              value={fieldsText}
              onChange={(e) => {
                setFieldsText(e.target.value);
                set('studentInfo', { ...value.studentInfo, fields: splitFields(e.target.value) });
              }}
              className="mt-1 h-9 w-full rounded-md border border-slate-300 px-3 text-sm text-slate-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
            />
            <span className="text-xs text-slate-500">{s.studentFieldsHint}</span>
          </label>
        )}
        <Check label={s.sealingLine} checked={value.sealingLine} onChange={(v) => set('sealingLine', v)} />
      </Group>

      <Group title={s.contentGroup}>
        <Row label={s.answers}>
          <Segmented
            label={s.answers}
            value={value.answers}
            options={[
              { value: 'none', label: s.answersNone },
              { value: 'end', label: s.answersEnd },
              { value: 'separate', label: s.answersSeparate },
            ]}
            onChange={(v) => set('answers', v)}
          />
        </Row>
        <Row label={s.numbering}>
          <Segmented
            label={s.numbering}
            value={value.numbering}
            options={[
              { value: 'continuous', label: s.numberingContinuous },
              { value: 'perSection', label: s.numberingPerSection },
            ]}
            onChange={(v) => set('numbering', v)}
          />
        </Row>
      </Group>
    </div>
  );
}

const splitFields = (text: string) =>
  text
    .split(/[\s,，、]+/)
    .map((x) => x.trim())
    .filter(Boolean)
    .slice(0, 6)
    .map((x) => x.slice(0, 10));

const splitLines = (text: string) =>
  text
    .split('\n')
    .map((x) => x.trim())
    .filter(Boolean)
    .slice(0, 10)
    .map((x) => x.slice(0, 200));
