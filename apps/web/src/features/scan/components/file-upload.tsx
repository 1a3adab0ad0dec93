import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';
import { useFileUpload } from '../hooks/use-file-upload';
import { ACCEPTED_FILES } from '../utils/split-pages';
import { PageViewer } from './page-viewer';

/** Upload scans from files when there is no agent: images, multi-page TIFF or PDF, one page per upload. */
export function FileUpload({
  schoolYearId,
  homeworkId = null,
}: {
  schoolYearId: string | null;
  /** The homework the screen is bound to: the uploaded batch is created for it. */
  homeworkId?: string | null;
}) {
  const { state, upload, retryFailed } = useFileUpload(schoolYearId, homeworkId);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const failed = state.items.filter((i) => i.status === 'failed').length;
  return (
    <section
      aria-labelledby="scan-upload-title"
      className="rounded-xl border border-slate-200 bg-white p-4"
      data-testid="file-upload"
    >
      <h2 id="scan-upload-title" className="text-base font-semibold text-slate-900">
        {s.upload.title}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{s.upload.lead}</p>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void upload([...e.dataTransfer.files]);
        }}
        className={cn(
          'mt-3 flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-5 text-center text-sm',
          over ? 'border-blue-400 bg-blue-50' : 'border-slate-200 bg-slate-50',
        )}
      >
        <div className="flex flex-wrap items-center justify-center gap-2">
          <Button variant="secondary" onClick={() => input.current?.click()} loading={state.busy}>
            {s.upload.choose}
          </Button>
          <span className="text-slate-500">{s.upload.drop}</span>
        </div>
        <p className="text-xs text-slate-500">
          {state.splitting ? s.upload.splitting(state.splitting) : s.upload.accept}
        </p>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPTED_FILES}
          className="sr-only"
          aria-label={s.upload.choose}
          data-testid="scan-file-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void upload(files);
          }}
        />
      </div>
      {state.items.length > 0 && (
        <div className="mt-3 space-y-2">
          {failed > 0 && !state.busy && (
            <div className="flex justify-end">
              <Button variant="danger" size="sm" onClick={() => void retryFailed()}>
                {s.upload.retry}
              </Button>
            </div>
          )}
          <PageViewer
            loading={false}
            pages={state.items.map((i) => ({
              key: i.key,
              seq: i.seq,
              name: i.name,
              label: i.label,
              thumbUrl: i.url,
              upload: i.status,
              uploadError: i.error,
              duplicate: i.duplicate,
            }))}
          />
        </div>
      )}
    </section>
  );
}
