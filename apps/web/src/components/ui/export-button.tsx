import { useState } from 'react';
import { defaultSaveFile } from '@zhzy/api-client';
import { zhReportKit as tk } from '../../i18n/report-kit';
import { toast } from '../../lib/toast';
import { exportFileName, writeXlsx, type SheetData } from '../../lib/xlsx';
import { Button, type ButtonSize } from './button';

/**
 * 导出 Excel: builds the sheets when clicked (from what the screen shows), writes the workbook in the browser and
 * saves it. A table with no rows says so instead of saving an empty file; a failure shows SPEC §8's 下载失败.
 */
export function ExportButton({
  sheets,
  fileName,
  size = 'sm',
  label = tk.export.button,
  save = defaultSaveFile,
}: {
  sheets: () => SheetData[];
  /** Parts of the file name (homework, class, report name), joined with '-'. */
  fileName: (string | null | undefined)[];
  size?: ButtonSize;
  label?: string;
  /** Replaced in tests. */
  save?: (blob: Blob, name: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    const data = sheets();
    if (data.every((s) => s.rows.length === 0)) {
      toast(tk.export.empty, 'info');
      return;
    }
    setBusy(true);
    try {
      const name = exportFileName(fileName);
      save(await writeXlsx(data), name);
      toast.success(tk.export.done(name));
    } catch {
      toast.error(tk.export.failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" size={size} loading={busy} onClick={() => void run()}>
      {busy ? tk.export.working : label}
    </Button>
  );
}
