import { useEffect, useId, useState } from 'react';
import {
  PAPER_STATUS_NAMES,
  PublishHomeworkSchema,
  type HomeworkDetail,
  type HomeworkType,
  type PaperSummary,
} from '@zhzy/contracts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { zhCNHomework as th } from '../../../i18n/zh-CN';
import { toast } from '../../../lib/toast';
import { addDays } from '@zhzy/contracts';
import { useSchoolToday } from '../../../lib/school-day';
import { cn } from '../../../lib/utils';
import { DateInput } from '../../../components/ui/date-input';
import { useDefaultYearClasses } from '../../../api/classes';
import { usePaperDetail } from '../../../api/papers';
import { publishHomework, useMyPapers } from '../api/homework';

type Errors = Partial<Record<'paperId' | 'title' | 'classIds' | 'startDate' | 'dueDate', string>>;

function PaperPicker({
  selected,
  onSelect,
  error,
}: {
  selected: string | null;
  onSelect: (p: PaperSummary) => void;
  error?: string | undefined;
}) {
  const [keyword, setKeyword] = useState('');
  const { data } = useMyPapers(keyword.trim(), true);
  const ids = useId();
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-700">{th.publish.paper}</legend>
      <input
        type="search"
        aria-label={th.publish.searchPaper}
        placeholder={th.publish.searchPaper}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        className="mb-2 h-9 w-full rounded-md border border-slate-300 px-3 text-sm"
      />
      {!data ? (
        <SkeletonLines lines={3} />
      ) : data.records.length === 0 ? (
        <div className="rounded-lg bg-slate-50 px-4 py-5 text-center text-sm text-slate-500">
          <p>{keyword ? th.publish.noMatch : th.publish.noPapers}</p>
          {!keyword && (
            <ButtonLink to={paths.rehearse.select} size="sm" className="mt-3">
              {th.goCompose}
            </ButtonLink>
          )}
        </div>
      ) : (
        <ul className="max-h-56 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-1">
          {data.records.map((p) => {
            const empty = p.questionCount === 0;
            return (
              <li key={p.id}>
                <label
                  className={cn(
                    'flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm',
                    selected === p.id ? 'bg-blue-50' : 'hover:bg-slate-50',
                    empty ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
                  )}
                >
                  <input
                    type="radio"
                    name={`${ids}-paper`}
                    checked={selected === p.id}
                    disabled={empty}
                    onChange={() => onSelect(p)}
                    className="size-4 accent-blue-600"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-800">{p.title}</span>
                    <span className="block text-xs text-slate-500">
                      {th.publish.paperMeta(p.stageName, p.subjectName, p.questionCount, p.totalScore)}
                      {' · '}
                      {PAPER_STATUS_NAMES[p.status]}
                      {empty && ` · ${th.publish.emptyPaper}`}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {error && (
        <p role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * 发布作业: a paper of the teacher's (chosen here, or handed in from /edit or /answerCard), its title, homework or
 * test, classes of the default school year, start and due dates, and 是否分配给学科老师. Publishing freezes the
 * paper and its answer card.
 */
export function PublishDialog({
  open,
  orgId,
  initialPaperId,
  onClose,
  onPublished,
}: {
  open: boolean;
  orgId: string | null;
  initialPaperId: string | null;
  onClose: () => void;
  onPublished: (homework: HomeworkDetail) => void;
}) {
  const ids = useId();
  const { today } = useSchoolToday(orgId);
  const [paperId, setPaperId] = useState<string | null>(initialPaperId);
  const [paperTitle, setPaperTitle] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [titleTouched, setTitleTouched] = useState(false);
  const [type, setType] = useState<HomeworkType>('homework');
  const [classIds, setClassIds] = useState<string[]>([]);
  const [startDate, setStartDate] = useState(today);
  const [dueDate, setDueDate] = useState(() => addDays(today, 7));
  // The school's own time zone arrives after the first paint: untouched default dates follow its "today".
  const [defaultDay, setDefaultDay] = useState(today);
  useEffect(() => {
    if (today === defaultDay) return;
    setDefaultDay(today);
    if (startDate === defaultDay) setStartDate(today);
    if (dueDate === addDays(defaultDay, 7)) setDueDate(addDays(today, 7));
  }, [today, defaultDay, startDate, dueDate]);
  const [subjectTeacher, setSubjectTeacher] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const { data: handed } = usePaperDetail(initialPaperId);
  const classList = useDefaultYearClasses(orgId);
  const years = classList.data;
  const classesFailed = Boolean(classList.error);

  // A paper handed in from elsewhere: its title prefills the homework's.
  useEffect(() => {
    if (handed && paperId === handed.id && paperTitle === null) {
      setPaperTitle(handed.title);
      if (!titleTouched) setTitle(handed.title);
    }
  }, [handed, paperId, paperTitle, titleTouched]);

  const choose = (p: PaperSummary) => {
    setPaperId(p.id);
    setPaperTitle(p.title);
    if (!titleTouched) setTitle(p.title);
    setErrors((e) => ({ ...e, paperId: undefined }));
  };
  const toggleClass = (id: string, on: boolean) => {
    setClassIds((list) => (on ? [...new Set([...list, id])] : list.filter((x) => x !== id)));
    setErrors((e) => ({ ...e, classIds: undefined }));
  };
  const classes = years?.classes ?? [];

  const submit = async () => {
    if (!paperId) {
      setErrors({ paperId: th.publish.pickPaper });
      return;
    }
    const parsed = PublishHomeworkSchema.safeParse({
      paperId,
      type,
      title,
      classIds,
      startDate,
      dueDate,
      subjectTeacher,
    });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Errors;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const homework = await publishHomework(parsed.data);
      toast.success(th.publish.done(homework.title));
      onPublished(homework);
    } catch {
      // The client showed the host's reason (an empty paper, a class of another year …).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title={th.publish.title} className="sm:max-w-2xl">
      <div className="space-y-4">
        {initialPaperId && paperId === initialPaperId ? (
          <div className="rounded-lg bg-slate-50 px-3 py-2 text-sm">
            <span className="text-slate-500">{th.publish.paperPrefix}</span>
            <span className="font-medium text-slate-800">{paperTitle ?? '…'}</span>
            <Button variant="link" className="ml-2" onClick={() => setPaperId(null)}>
              {th.publish.otherPaper}
            </Button>
          </div>
        ) : (
          <PaperPicker selected={paperId} onSelect={choose} error={errors.paperId} />
        )}

        <TextField
          label={th.publish.titleLabel}
          value={title}
          maxLength={80}
          onChange={(e) => {
            setTitle(e.target.value);
            setTitleTouched(true);
            setErrors((x) => ({ ...x, title: undefined }));
          }}
          error={errors.title}
        />

        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm font-medium text-slate-700">{th.publish.type}</span>
          <Segmented
            label={th.publish.type}
            value={type}
            options={[
              { value: 'homework', label: th.types.homework },
              { value: 'test', label: th.types.test },
            ]}
            onChange={setType}
          />
        </div>

        <fieldset>
          <legend className="mb-1.5 flex w-full items-center justify-between text-sm font-medium text-slate-700">
            <span>
              {th.publish.classes}
              {years?.year && <span className="ml-2 font-normal text-slate-500">{years.year.name}</span>}
            </span>
          </legend>
          {classesFailed ? (
            <p className="text-sm text-red-600">{th.publish.classesFailed}</p>
          ) : !years ? (
            <SkeletonLines lines={2} />
          ) : !years.year ? (
            <p className="text-sm text-amber-700">{th.publish.noYear}</p>
          ) : classes.length === 0 ? (
            <p className="text-sm text-slate-500">{th.publish.noClasses}</p>
          ) : (
            <>
              <div className="grid grid-cols-2 gap-1.5 sm:grid-cols-3">
                {classes.map((c) => (
                  <label key={c.id} className="flex items-center gap-2 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      checked={classIds.includes(c.id)}
                      onChange={(e) => toggleClass(c.id, e.target.checked)}
                      className="size-4 accent-blue-600"
                    />
                    {c.name}
                  </label>
                ))}
              </div>
              <Button
                variant="link"
                className="mt-1"
                onClick={() => {
                  setClassIds(classIds.length === classes.length ? [] : classes.map((c) => c.id));
                  setErrors((e) => ({ ...e, classIds: undefined }));
                }}
              >
                {classIds.length === classes.length ? th.publish.none : th.publish.all}
              </Button>
            </>
          )}
          {errors.classIds && (
            <p role="alert" className="mt-1 text-xs text-red-600">
              {errors.classIds}
            </p>
          )}
        </fieldset>

        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="publish-start" className="mb-1.5 block text-sm font-medium text-slate-700">
              {th.publish.startDate}
            </label>
            <DateInput
              id="publish-start"
              label={th.publish.startDate}
              value={startDate}
              onChange={setStartDate}
              invalid={Boolean(errors.startDate)}
              describedBy={errors.startDate ? 'publish-start-error' : undefined}
            />
            {errors.startDate && (
              <p id="publish-start-error" role="alert" className="mt-1 text-xs text-red-600">
                {errors.startDate}
              </p>
            )}
          </div>
          <div>
            <label htmlFor="publish-due" className="mb-1.5 block text-sm font-medium text-slate-700">
              {th.publish.dueDate}
            </label>
            <DateInput
              id="publish-due"
              label={th.publish.dueDate}
              value={dueDate}
              min={startDate}
              onChange={(day) => {
                setDueDate(day);
                setErrors((x) => ({ ...x, dueDate: undefined }));
              }}
              invalid={Boolean(errors.dueDate)}
              describedBy={errors.dueDate ? 'publish-due-error' : undefined}
            />
            {errors.dueDate && (
              <p id="publish-due-error" role="alert" className="mt-1 text-xs text-red-600">
                {errors.dueDate}
              </p>
            )}
          </div>
        </div>

        <div
          role="radiogroup"
          aria-labelledby={`${ids}-st`}
          className="flex flex-wrap items-center gap-4 text-sm"
        >
          <span id={`${ids}-st`} className="font-medium text-slate-700">
            {th.publish.subjectTeacher}
          </span>
          {[true, false].map((v) => (
            <label key={String(v)} className="flex items-center gap-1.5 text-slate-700">
              <input
                type="radio"
                name={`${ids}-st`}
                checked={subjectTeacher === v}
                onChange={() => setSubjectTeacher(v)}
                className="size-4 accent-blue-600"
              />
              {v ? th.publish.yes : th.publish.no}
            </label>
          ))}
        </div>
        <p className="text-xs leading-5 text-slate-500">{th.publish.freezeNote}</p>
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {th.cancel}
        </Button>
        <Button loading={busy} onClick={() => void submit()}>
          {th.publish.submit}
        </Button>
      </div>
    </Dialog>
  );
}
