import { useState } from 'react';
import { CalendarIcon } from '../../../components/icons';
import { Listbox } from '../../../components/ui/listbox';
import { t } from '../../../i18n/zh-CN';
import { saveDefaultYear, useSchoolYears } from '../api/school-years';

/** Reloads the page (a separate function so tests can replace it). */
export const pageReload = { run: () => window.location.reload() };

/**
 * The default-school-year dropdown of the top bar: 暂无默认学年 when none is set; choosing one saves it
 * and reloads the page (SPEC §4).
 */
export function SchoolYearSelect({ orgId }: { orgId: string | null }) {
  const { data: years } = useSchoolYears(orgId);
  const [saving, setSaving] = useState(false);
  const current = years?.find((y) => y.isDefault) ?? null;
  return (
    <div className="flex items-center gap-1.5 text-slate-500">
      <CalendarIcon className="hidden size-4 xl:block" />
      <Listbox
        label={t.topBar.schoolYear}
        hideLabel
        value={current?.id ?? null}
        placeholder={saving ? t.topBar.savingYear : t.topBar.noDefaultYear}
        disabled={!orgId || saving || !years || years.length === 0}
        buttonClassName="h-8 max-w-[9.5rem] sm:max-w-none border-slate-200 shadow-none"
        options={(years ?? []).map((y) => ({ value: y.id, label: y.name }))}
        onChange={(id) => {
          if (!orgId || id === current?.id) return;
          setSaving(true);
          saveDefaultYear(orgId, id)
            .then(() => pageReload.run())
            .catch(() => setSaving(false));
        }}
      />
    </div>
  );
}
