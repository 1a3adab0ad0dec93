import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PaperSummary } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import type { Column } from '../../../components/ui/table';
import { paths, withQuery } from '../../../config/paths';
import { composition } from '../../../i18n/composition';
import { toast } from '../../../lib/toast';
import { NO_LIST_FILTERS, copyPaper, usePaperList, type ListFilters } from '../api/papers';
import { PaperPreviewDrawer } from '../../../components/paper-preview-drawer';
import { PaperFilters, PaperListBody, paperColumns } from './common';

const c = composition.cloud;

/** 校本资源: papers colleagues shared to the school; preview, then copy into 我的试卷. */
export function SchoolPapersScreen() {
  const navigate = useNavigate();
  const [filters, setFilters] = useState<ListFilters>(NO_LIST_FILTERS);
  const { data, isLoading } = usePaperList('school', filters);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [copying, setCopying] = useState<string | null>(null);

  const copy = async (id: string) => {
    setCopying(id);
    try {
      const mine = await copyPaper(id);
      toast.success(c.copiedToMine);
      void navigate(withQuery(paths.edit, { paperId: mine.id }));
    } catch {
      // The client showed the message.
    } finally {
      setCopying(null);
    }
  };

  const columns: Column<PaperSummary>[] = [
    paperColumns.title((p) => (
      <button
        type="button"
        className="text-left font-medium text-slate-900 hover:text-blue-700 hover:underline"
        onClick={() => setPreviewId(p.id)}
      >
        {p.title}
      </button>
    )),
    paperColumns.subject,
    paperColumns.size,
    {
      key: 'owner',
      header: c.colOwner,
      cell: (p) => (p.mine ? c.me : p.ownerName),
      className: 'whitespace-nowrap',
    },
    paperColumns.updated,
    {
      key: 'actions',
      header: <span className="sr-only">{c.colActions}</span>,
      align: 'right',
      cell: (p) => (
        <div className="flex justify-end gap-1 whitespace-nowrap">
          <Button
            variant="ghost"
            size="sm"
            aria-label={c.previewOf(p.title)}
            onClick={() => setPreviewId(p.id)}
          >
            {c.preview}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label={c.copyToMineOf(p.title)}
            loading={copying === p.id}
            disabled={copying !== null}
            onClick={() => void copy(p.id)}
          >
            {c.copyToMine}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <PaperFilters value={filters} onChange={setFilters} status={false} />
      <PaperListBody
        data={data}
        isLoading={isLoading}
        caption={c.schoolCaption}
        columns={columns}
        onPage={(page) => setFilters((f) => ({ ...f, page }))}
        empty={<Empty title={c.schoolEmpty} description={c.schoolEmptyHint} />}
      />
      <PaperPreviewDrawer
        id={previewId}
        title={c.previewTitle}
        onClose={() => setPreviewId(null)}
        action={
          <Button loading={copying !== null} onClick={() => previewId && void copy(previewId)}>
            {c.copyToMine}
          </Button>
        }
      />
    </div>
  );
}
