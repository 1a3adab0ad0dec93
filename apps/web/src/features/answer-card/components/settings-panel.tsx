import { useId } from 'react';
import { CARD_COLUMNS, CARD_SIZES, type CardIdentity, type CardSettings } from '@zhzy/contracts';
import { Listbox } from '../../../components/ui/listbox';
import { Segmented } from '../../../components/ui/segmented';
import { zhCNCards as tc } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';
import { columnsOf } from '../utils/settings';

const IDENTITIES: CardIdentity[] = ['qr', 'bubbles', 'barcode'];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function Row({ label, children, id }: { label: string; children: React.ReactNode; id?: string }) {
  return (
    <div className="space-y-1.5">
      <div id={id} className="text-sm font-medium text-slate-700">
        {label}
      </div>
      {children}
    </div>
  );
}

/** Size and columns, identity mode, objective grouping, page limit and sealing line. */
export function SettingsPanel({
  settings,
  disabled,
  onChange,
}: {
  settings: CardSettings;
  disabled: boolean;
  onChange: (patch: Partial<CardSettings>) => void;
}) {
  const identityId = useId();
  const s = tc.settings;
  const columns = CARD_COLUMNS[settings.size];
  const current = columnsOf(settings);
  return (
    <fieldset disabled={disabled} className="space-y-4 disabled:opacity-70">
      <legend className="sr-only">{s.heading}</legend>
      <Row label={s.size}>
        <Segmented
          label={s.size}
          value={settings.size}
          options={CARD_SIZES.map((v) => ({ value: v, label: s.sizes[v] }))}
          onChange={(size) => onChange({ size })}
        />
      </Row>
      <Row label={s.columns}>
        {columns.length > 1 ? (
          <Segmented
            label={s.columns}
            value={String(current)}
            options={columns.map((n) => ({ value: String(n), label: s.columnNames[n] }))}
            onChange={(v) => onChange({ columns: Number(v) as 1 | 2 | 3 })}
          />
        ) : (
          <p className="text-sm text-slate-500">
            {s.onlyColumns(s.sizes[settings.size], s.columnNames[current])}
          </p>
        )}
      </Row>
      <div role="radiogroup" aria-labelledby={identityId} className="space-y-1.5">
        <div id={identityId} className="text-sm font-medium text-slate-700">
          {s.identity}
        </div>
        {IDENTITIES.map((v) => {
          const on = settings.identity === v;
          return (
            <label
              key={v}
              className={cn(
                'flex cursor-pointer gap-2.5 rounded-lg border px-3 py-2 text-sm transition-colors',
                on ? 'border-blue-500 bg-blue-50/60' : 'border-slate-200 hover:border-slate-300',
              )}
            >
              <input
                type="radio"
                name={identityId}
                value={v}
                checked={on}
                onChange={() => onChange({ identity: v })}
                className="mt-0.5 size-4 accent-blue-600"
              />
              <span>
                <span className="block font-medium text-slate-800">{s.identities[v].label}</span>
                <span className="block text-xs leading-5 text-slate-500">{s.identities[v].hint}</span>
              </span>
            </label>
          );
        })}
      </div>
      {settings.identity === 'bubbles' && (
        <Listbox
          label={s.digits}
          className="justify-between"
          value={String(settings.studentNumberDigits)}
          options={range(4, 12).map((n) => ({ value: String(n), label: s.digitsValue(n) }))}
          placeholder={s.digits}
          disabled={disabled}
          onChange={(v) => onChange({ studentNumberDigits: Number(v) })}
        />
      )}
      <Listbox
        label={s.group}
        className="justify-between"
        value={String(settings.objectiveGroupSize)}
        options={range(1, 10).map((n) => ({ value: String(n), label: s.groupValue(n) }))}
        placeholder={s.group}
        disabled={disabled}
        onChange={(v) => onChange({ objectiveGroupSize: Number(v) })}
      />
      <Listbox
        label={s.maxPages}
        className="justify-between"
        value={String(settings.maxPages)}
        options={range(1, 8).map((n) => ({ value: String(n), label: s.maxPagesValue(n) }))}
        placeholder={s.maxPages}
        disabled={disabled}
        onChange={(v) => onChange({ maxPages: Number(v) })}
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={settings.sealingLine}
          onChange={(e) => onChange({ sealingLine: e.target.checked })}
          className="size-4 accent-blue-600"
        />
        {s.sealingLine}
      </label>
    </fieldset>
  );
}
