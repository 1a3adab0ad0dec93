import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import JSZip from 'jszip';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../lib/toast';
import { ExportButton } from './export-button';
import { ReportTable } from './report-table';
import { Toaster } from './toast';

interface Row {
  name: string;
  score: number | null;
}

const rows: Row[] = [
  { name: '李明', score: 92 },
  { name: '王芳', score: null },
];

afterEach(() => clearToasts());

describe('ReportTable', () => {
  it('shows every row with blanks as a dash', () => {
    render(
      <ReportTable
        title="学生成绩"
        columns={[
          { key: 'n', header: '姓名', value: (r: Row) => r.name },
          { key: 's', header: '总分', value: (r: Row) => r.score, align: 'right' },
        ]}
        rows={rows}
        rowKey={(r) => r.name}
        fileName={['第一单元']}
      />,
    );
    const table = screen.getByRole('table', { name: '学生成绩' });
    expect(table).toHaveTextContent('李明92');
    expect(table).toHaveTextContent('王芳—');
  });

  it('exports what the table shows to an .xlsx named after the homework and the table', async () => {
    const save = vi.fn();
    render(
      <>
        <Toaster />
        <ExportButton
          fileName={['第一单元', '学生成绩']}
          sheets={() => [
            { name: '学生成绩', header: ['姓名', '总分'], rows: rows.map((r) => [r.name, r.score]) },
          ]}
          save={save}
        />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: '导出 Excel' }));
    await waitFor(() => expect(save).toHaveBeenCalled());
    const [blob, name] = save.mock.calls[0] as [Blob, string];
    expect(name).toBe('第一单元-学生成绩.xlsx');
    const zip = await JSZip.loadAsync(await blob.arrayBuffer());
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    expect(sheet).toContain('李明');
    expect(sheet).toContain('<v>92</v>');
    expect(await screen.findByText('已导出 第一单元-学生成绩.xlsx')).toBeInTheDocument();
  });

  it('says there is nothing to export instead of saving an empty file', async () => {
    const save = vi.fn();
    render(
      <>
        <Toaster />
        <ExportButton
          fileName={['x']}
          sheets={() => [{ name: 'x', header: ['姓名'], rows: [] }]}
          save={save}
        />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: '导出 Excel' }));
    expect(await screen.findByText('没有可导出的数据')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
  });
});
