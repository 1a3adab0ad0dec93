import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PaperSummary } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { PaperPreviewDrawer } from '../../../components/paper-preview-drawer';
import { Empty } from '../../../components/ui/empty';
import { Pagination } from '../../../components/ui/pagination';
import { SearchForm } from '../../../components/ui/search-form';
import { Skeleton } from '../../../components/ui/skeleton';
import { SubjectPicker } from '../../../components/ui/subject-picker';
import { paths, withQuery } from '../../../config/paths';
import { composition } from '../../../i18n/composition';
import { formatDate } from '../../../lib/utils';
import { toast } from '../../../lib/toast';
import { useStages } from '../../../api/catalog';
import { copyPaper, useTemplates } from '../api/templates';

const s = composition.templates;

/** 模板试卷: shipped and school templates; preview, then copy into 我的试卷 and edit. */
export function TemplatesScreen() {
  const navigate = useNavigate();
  const { data: stages } = useStages();
  const [subjectId, setSubjectId] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const { data, isLoading } = useTemplates({ subjectId, keyword, page });
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [copying, setCopying] = useState<string | null>(null);

  const copy = async (paper: Pick<PaperSummary, 'id'>) => {
    setCopying(paper.id);
    try {
      const mine = await copyPaper(paper.id);
      toast.success(s.copied);
      void navigate(withQuery(paths.edit, { paperId: mine.id }));
    } catch {
      // The client showed the message.
    } finally {
      setCopying(null);
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-4">
        <SubjectPicker
          stages={stages}
          value={subjectId}
          allowAll
          onChange={(v) => {
            setSubjectId(v?.subjectId ?? null);
            setPage(1);
          }}
        />
        <SearchForm
          label={s.search}
          placeholder={s.searchPlaceholder}
          submit={composition.bank.searchButton}
          className="flex min-w-60 flex-1 gap-2"
          onSearch={(k) => {
            setKeyword(k);
            setPage(1);
          }}
        />
      </div>
      {isLoading && !data ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-40 rounded-xl" />
          ))}
        </div>
      ) : data && data.records.length > 0 ? (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {data.records.map((p) => (
            <li key={p.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-5">
              <div className="flex items-start justify-between gap-2">
                <h2 className="font-semibold leading-6 text-slate-900">{p.title}</h2>
                <span className="shrink-0 rounded bg-blue-50 px-2 py-0.5 text-xs text-blue-700">
                  {p.owner === 'system' ? s.system : s.school}
                </span>
              </div>
              {p.subtitle && <p className="mt-1 text-sm text-slate-500">{p.subtitle}</p>}
              <p className="mt-3 text-sm text-slate-500">
                {s.meta(`${p.stageName}${p.subjectName}`, p.questionCount, p.totalScore)}
              </p>
              <p className="mt-1 text-xs text-slate-500">
                {p.owner === 'system'
                  ? s.updated(formatDate(p.updatedAt))
                  : s.sharedBy(p.ownerName, formatDate(p.updatedAt))}
              </p>
              <div className="mt-auto flex justify-end gap-2 pt-4">
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={s.previewOf(p.title)}
                  onClick={() => setPreviewId(p.id)}
                >
                  {s.preview}
                </Button>
                <Button
                  size="sm"
                  aria-label={s.copyOf(p.title)}
                  loading={copying === p.id}
                  disabled={copying !== null}
                  onClick={() => void copy(p)}
                >
                  {s.copy}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty title={s.empty} description={s.emptyHint} />
        </div>
      )}
      {data && <Pagination page={data.page} total={data.total} size={data.size} onChange={setPage} />}
      <PaperPreviewDrawer
        id={previewId}
        title={s.previewTitle}
        onClose={() => setPreviewId(null)}
        action={
          <Button
            loading={copying !== null}
            disabled={!previewId}
            onClick={() => previewId && void copy({ id: previewId })}
          >
            {s.copy}
          </Button>
        }
      />
    </div>
  );
}
