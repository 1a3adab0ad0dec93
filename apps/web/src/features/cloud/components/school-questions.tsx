import { useState, type ReactNode } from 'react';
import { REVIEW_STATUS_NAMES, type Question, type ReviewStatus, type SchoolQuestion } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { SearchForm } from '../../../components/ui/search-form';
import { Pagination } from '../../../components/ui/pagination';
import { DifficultyTag, QuestionBody } from '../../../components/ui/question-body';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { SubjectPicker } from '../../../components/ui/subject-picker';
import { t } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { useSelection } from '../../../lib/selection';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useBusyKey } from '../../../lib/use-busy';
import { cn, formatDate } from '../../../lib/utils';
import { useStages } from '../../../api/catalog';
import {
  reviewQuestion,
  shareQuestion,
  useMyQuestions,
  useMyShares,
  useSchoolQuestions,
  withdrawSchoolQuestion,
} from '../api/questions';

const c = composition.cloud;
type Tab = 'approved' | 'mine' | 'shares' | 'pending' | 'rejected';

/** 校本题库: the school's questions; teachers share their own; administrators review what is shared. */
export function SchoolQuestionsScreen() {
  const { user } = useSession();
  const admin = user?.isAdministrator === true || user?.isCreator === true;
  const [tab, setTab] = useState<Tab>('approved');
  const tabs: { value: Tab; label: string }[] = [
    { value: 'approved', label: c.qSchool },
    { value: 'mine', label: c.qMine },
    { value: 'shares', label: c.qShares },
    ...(admin
      ? [
          { value: 'pending' as const, label: c.qPending },
          { value: 'rejected' as const, label: c.qRejected },
        ]
      : []),
  ];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Segmented label={c.qTabs} value={tab} options={tabs} onChange={setTab} />
        <p className="text-sm text-slate-500">{admin ? c.qAdminHint : c.qTeacherHint}</p>
      </div>
      {tab === 'mine' ? (
        <MyQuestions />
      ) : tab === 'shares' ? (
        <MyShares />
      ) : (
        <SchoolList key={tab} status={tab} admin={admin} />
      )}
    </div>
  );
}

function Card({ question, meta, actions }: { question: Question; meta: ReactNode; actions?: ReactNode }) {
  const [answer, setAnswer] = useState(false);
  return (
    <li className="rounded-xl border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-5 py-2 text-xs text-slate-500">
        <span className="rounded bg-slate-100 px-2 py-0.5 text-slate-700">{question.typeName}</span>
        <DifficultyTag level={question.difficulty} />
        {meta}
      </div>
      <div className="px-5 py-4">
        <QuestionBody question={question} showAnswer={answer} idPrefix="sq" />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 px-5 py-2">
        <Button variant="ghost" size="sm" aria-expanded={answer} onClick={() => setAnswer((v) => !v)}>
          {composition.questions.showAnswer}
        </Button>
        <div className="flex gap-1">{actions}</div>
      </div>
    </li>
  );
}

function ReviewBadge({ status }: { status: ReviewStatus }) {
  return (
    <span
      className={cn(
        'rounded px-2 py-0.5',
        status === 'approved' && 'bg-emerald-50 text-emerald-700',
        status === 'pending' && 'bg-amber-50 text-amber-700',
        status === 'rejected' && 'bg-red-50 text-red-700',
      )}
    >
      {REVIEW_STATUS_NAMES[status]}
    </span>
  );
}

function SchoolList({ status, admin }: { status: ReviewStatus; admin: boolean }) {
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const { data, isLoading, mutate } = useSchoolQuestions(status, page, keyword);
  const [rejecting, setRejecting] = useState<SchoolQuestion | null>(null);
  const [busy, runRow] = useBusyKey();

  const run = (id: string, work: () => Promise<unknown>, done: string) =>
    runRow(id, async () => {
      await work();
      toast.success(done);
      await mutate();
    });

  return (
    <div className="space-y-4">
      <SearchForm
        label={c.qSearch}
        placeholder={composition.bank.searchPlaceholder}
        submit={composition.bank.searchButton}
        className="flex gap-2 rounded-xl border border-slate-200 bg-white p-4"
        onSearch={(k) => {
          setKeyword(k);
          setPage(1);
        }}
      />
      {isLoading && !data ? (
        <SkeletonLines lines={8} />
      ) : data && data.records.length > 0 ? (
        <>
          <ul className="space-y-3">
            {data.records.map((r) => (
              <Card
                key={r.question.id}
                question={r.question}
                meta={
                  <>
                    <ReviewBadge status={r.reviewStatus} />
                    <span>{c.sharedByOn(r.sharedBy?.nickname ?? c.someone, formatDate(r.sharedAt))}</span>
                    {r.reviewNote && <span className="text-red-700">{c.note(r.reviewNote)}</span>}
                  </>
                }
                actions={
                  admin && status === 'pending' ? (
                    <>
                      <Button
                        size="sm"
                        loading={busy === r.question.id}
                        disabled={busy !== null}
                        onClick={() =>
                          void run(r.question.id, () => reviewQuestion(r.question.id, 'approve'), c.approved)
                        }
                      >
                        {c.approve}
                      </Button>
                      <Button
                        variant="danger"
                        size="sm"
                        disabled={busy !== null}
                        onClick={() => setRejecting(r)}
                      >
                        {c.reject}
                      </Button>
                    </>
                  ) : admin && status === 'approved' ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      loading={busy === r.question.id}
                      disabled={busy !== null}
                      onClick={() =>
                        void run(r.question.id, () => withdrawSchoolQuestion(r.question.id), c.withdrawn)
                      }
                    >
                      {c.withdraw}
                    </Button>
                  ) : null
                }
              />
            ))}
          </ul>
          <Pagination page={data.page} total={data.total} size={data.size} onChange={setPage} />
        </>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty
            title={
              status === 'pending'
                ? c.qPendingEmpty
                : status === 'rejected'
                  ? c.qRejectedEmpty
                  : c.qSchoolEmpty
            }
            description={status === 'approved' ? c.qSchoolEmptyHint : undefined}
          />
        </div>
      )}
      <RejectDialog
        item={rejecting}
        onClose={() => setRejecting(null)}
        onReject={async (note) => {
          if (!rejecting) return;
          await run(
            rejecting.question.id,
            () => reviewQuestion(rejecting.question.id, 'reject', note),
            c.rejected,
          );
          setRejecting(null);
        }}
      />
    </div>
  );
}

function RejectDialog({
  item,
  onClose,
  onReject,
}: {
  item: SchoolQuestion | null;
  onClose: () => void;
  onReject: (note: string) => Promise<void>;
}) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={item !== null} onClose={onClose} title={c.rejectTitle}>
      <label className="block text-sm text-slate-600">
        {c.rejectNote}
        <textarea
          value={note}
          maxLength={200}
          rows={3}
          placeholder={c.rejectPlaceholder}
          onChange={(e) => setNote(e.target.value)}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
        />
      </label>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t.cancel}
        </Button>
        <Button
          variant="danger"
          loading={busy}
          onClick={() => {
            setBusy(true);
            void onReject(note.trim()).finally(() => {
              setBusy(false);
              setNote('');
            });
          }}
        >
          {c.reject}
        </Button>
      </div>
    </Dialog>
  );
}

function MyQuestions() {
  const { data: stages } = useStages();
  const selection = useSelection();
  const [subjectId, setSubjectId] = useState<string | null>(selection?.subjectId ?? null);
  const [page, setPage] = useState(1);
  const { data, isLoading } = useMyQuestions(subjectId, page);
  const [busy, run] = useBusyKey();
  // A refused share (e.g. already waiting for review): the client showed the message.
  const share = (id: string) =>
    run(id, async () => {
      await shareQuestion(id);
      toast.success(c.sharedForReview);
    });
  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white p-4">
        <SubjectPicker
          stages={stages}
          value={subjectId}
          onChange={(v) => {
            setSubjectId(v?.subjectId ?? null);
            setPage(1);
          }}
        />
      </div>
      {!subjectId ? null : isLoading && !data ? (
        <SkeletonLines lines={8} />
      ) : data && data.records.length > 0 ? (
        <>
          <ul className="space-y-3">
            {data.records.map((q) => (
              <Card
                key={q.id}
                question={q}
                meta={<span>{c.createdOn(formatDate(q.createdAt))}</span>}
                actions={
                  <Button
                    size="sm"
                    variant="secondary"
                    loading={busy === q.id}
                    disabled={busy !== null}
                    onClick={() => void share(q.id)}
                  >
                    {c.shareQuestion}
                  </Button>
                }
              />
            ))}
          </ul>
          <Pagination page={data.page} total={data.total} size={data.size} onChange={setPage} />
        </>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty title={c.qMineEmpty} description={c.qMineEmptyHint} />
        </div>
      )}
    </div>
  );
}

function MyShares() {
  const [page, setPage] = useState(1);
  const { data, isLoading } = useMyShares(page);
  if (isLoading && !data) return <SkeletonLines lines={8} />;
  if (!data || data.records.length === 0) {
    return (
      <div className="rounded-xl border border-slate-200 bg-white">
        <Empty title={c.qSharesEmpty} description={c.qSharesEmptyHint} />
      </div>
    );
  }
  return (
    <>
      <ul className="space-y-3">
        {data.records.map((r) => (
          <Card
            key={r.question.id}
            question={r.question}
            meta={
              <>
                <ReviewBadge status={r.reviewStatus} />
                <span>{c.sharedOn(formatDate(r.sharedAt))}</span>
                {r.reviewNote && <span className="text-red-700">{c.note(r.reviewNote)}</span>}
              </>
            }
          />
        ))}
      </ul>
      <Pagination page={data.page} total={data.total} size={data.size} onChange={setPage} />
    </>
  );
}
