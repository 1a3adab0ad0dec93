import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ACCOUNT_MESSAGES,
  CreateFeedbackSchema,
  FEEDBACK_MAX_IMAGES,
  FEEDBACK_STATUS_NAMES,
  FEEDBACK_TYPES,
  IMAGE_MAX_BYTES,
  type Feedback,
  type FeedbackImage,
} from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Listbox } from '../../../components/ui/listbox';
import { Pagination } from '../../../components/ui/pagination';
import { Segmented } from '../../../components/ui/segmented';
import { Skeleton } from '../../../components/ui/skeleton';
import { zhCNAccount as ta } from '../../../i18n/account';
import { sessionStore } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import {
  createFeedback,
  replyFeedback,
  uploadFeedbackImage,
  useMyFeedback,
  useRevalidateAccount,
  useSchoolFeedback,
} from '../api/account';

type FeedbackType = (typeof FEEDBACK_TYPES)[number];
const MAX_CONTENT = 1000;

/** Screenshots are protected files: they load with the bearer, so they are fetched and shown as object URLs. */
function Screenshot({ image, label }: { image: FeedbackImage; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    const token = sessionStore.accessToken;
    fetch(image.url, { headers: token ? { Authorization: `bearer ${token}` } : {} })
      .then((r) => (r.ok ? r.blob() : null))
      .then((b) => {
        if (b && live) {
          url = URL.createObjectURL(b);
          setSrc(url);
        }
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [image.url]);
  return (
    <a
      href={src ?? undefined}
      target="_blank"
      rel="noreferrer"
      className="block size-16 overflow-hidden rounded-md bg-slate-100 ring-1 ring-slate-200"
    >
      {src && <img src={src} alt={label} className="size-full object-cover" />}
    </a>
  );
}

function StatusBadge({ f }: { f: Feedback }) {
  return (
    <span
      className={cn(
        'rounded px-1.5 py-0.5 text-xs font-medium',
        f.status === 'replied' ? 'bg-emerald-50 text-emerald-700' : 'bg-amber-50 text-amber-800',
      )}
    >
      {f.statusName}
    </span>
  );
}

function FeedbackItem({ f, children }: { f: Feedback; children?: React.ReactNode }) {
  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">{f.type}</span>
        <StatusBadge f={f} />
        <span>{new Date(f.createdAt).toLocaleString('zh-CN', { hour12: false })}</span>
      </div>
      <p className="mt-2 text-sm leading-6 whitespace-pre-wrap text-slate-800">{f.content}</p>
      {f.images.length > 0 && (
        <div className="mt-2 flex gap-2">
          {f.images.map((img, i) => (
            <Screenshot key={img.id} image={img} label={ta.feedback.screenshot(i + 1)} />
          ))}
        </div>
      )}
      {children}
      {f.reply && (
        <div className="mt-3 rounded-md bg-blue-50 px-3 py-2 text-sm">
          <p className="text-xs text-blue-700">
            {ta.feedback.repliedBy(
              f.repliedBy ?? '',
              f.repliedAt ? new Date(f.repliedAt).toLocaleString('zh-CN', { hour12: false }) : '',
            )}
          </p>
          <p className="mt-1 whitespace-pre-wrap text-slate-800">{f.reply}</p>
        </div>
      )}
    </li>
  );
}

/** The feedback form (type, content, up to 3 screenshots, contact) and my feedback with the replies. */
export function FeedbackPanel() {
  const [type, setType] = useState<FeedbackType>(FEEDBACK_TYPES[1]);
  const [content, setContent] = useState('');
  const [contact, setContact] = useState('');
  const [images, setImages] = useState<(FeedbackImage & { preview: string })[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [page, setPage] = useState(1);
  const { data } = useMyFeedback(page);
  const revalidate = useRevalidateAccount();
  const input = useRef<HTMLInputElement>(null);

  const addImage = async (file: File) => {
    if (file.size > IMAGE_MAX_BYTES) return void toast.error(ACCOUNT_MESSAGES.imageTooLarge);
    setUploading(true);
    try {
      const img = await uploadFeedbackImage(file);
      setImages((list) => [...list, { ...img, preview: URL.createObjectURL(file) }]);
    } catch {
      // Shown by the client.
    } finally {
      setUploading(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { type, content, contact: contact.trim() || undefined, imageIds: images.map((i) => i.id) };
    const parsed = CreateFeedbackSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await createFeedback(body);
      toast.success(ta.feedback.sent);
      setContent('');
      setContact('');
      for (const i of images) URL.revokeObjectURL(i.preview);
      setImages([]);
      setPage(1);
      revalidate('feedback');
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4" aria-label={ta.feedback.title}>
        <p className="text-sm text-slate-500">{ta.feedback.lead}</p>
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-slate-700">{ta.feedback.type}</p>
          <Segmented<FeedbackType>
            label={ta.feedback.type}
            value={type}
            options={FEEDBACK_TYPES.map((t) => ({ value: t, label: t }))}
            onChange={setType}
          />
        </div>
        <div>
          <label htmlFor="feedback-content" className="mb-1.5 block text-sm font-medium text-slate-700">
            {ta.feedback.content}
          </label>
          <textarea
            id="feedback-content"
            rows={6}
            maxLength={MAX_CONTENT}
            value={content}
            placeholder={ta.feedback.contentPlaceholder}
            aria-invalid={errors.content ? true : undefined}
            onChange={(e) => setContent(e.target.value)}
            className={cn(
              'block w-full rounded-md border px-3 py-2 text-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none',
              errors.content ? 'border-red-400' : 'border-slate-300',
            )}
          />
          <div className="mt-1 flex justify-between text-xs">
            <span role="alert" className="text-red-600">
              {errors.content}
            </span>
            <span className="text-slate-500">{ta.feedback.count(content.length, MAX_CONTENT)}</span>
          </div>
        </div>
        <div>
          <p className="mb-1.5 text-sm font-medium text-slate-700">{ta.feedback.images}</p>
          <div className="flex flex-wrap gap-2">
            {images.map((img, i) => (
              <div key={img.id} className="relative size-20 overflow-hidden rounded-md ring-1 ring-slate-200">
                <img
                  src={img.preview}
                  alt={ta.feedback.screenshot(i + 1)}
                  className="size-full object-cover"
                />
                <button
                  type="button"
                  aria-label={`${ta.feedback.removeImage}${i + 1}`}
                  onClick={() => setImages((list) => list.filter((x) => x.id !== img.id))}
                  className="absolute top-0.5 right-0.5 flex size-5 items-center justify-center rounded-full bg-slate-900/60 text-xs text-white"
                >
                  ×
                </button>
              </div>
            ))}
            {images.length < FEEDBACK_MAX_IMAGES && (
              <button
                type="button"
                onClick={() => input.current?.click()}
                disabled={uploading}
                className="flex size-20 flex-col items-center justify-center rounded-md border border-dashed border-slate-300 text-xs text-slate-500 hover:border-blue-400 hover:text-blue-600"
              >
                <span className="text-xl leading-none">+</span>
                {ta.feedback.addImage}
              </button>
            )}
          </div>
          <input
            ref={input}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            aria-label={ta.feedback.addImage}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void addImage(f);
            }}
          />
        </div>
        <div>
          <label htmlFor="feedback-contact" className="mb-1.5 block text-sm font-medium text-slate-700">
            {ta.feedback.contact}
          </label>
          <input
            id="feedback-contact"
            maxLength={50}
            value={contact}
            placeholder={ta.feedback.contactPlaceholder}
            onChange={(e) => setContact(e.target.value)}
            className="h-10 w-full rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:outline-none"
          />
        </div>
        <Button type="submit" loading={busy}>
          {ta.feedback.submit}
        </Button>
      </form>
      <section aria-label={ta.feedback.mine}>
        <h3 className="mb-3 text-base font-semibold text-slate-900">{ta.feedback.mine}</h3>
        {!data ? (
          <Skeleton className="h-40" />
        ) : data.records.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
            {ta.feedback.none}
          </p>
        ) : (
          <>
            <ul className="space-y-3">
              {data.records.map((f) => (
                <FeedbackItem key={f.id} f={f}>
                  {!f.reply && <p className="mt-2 text-xs text-slate-500">{ta.feedback.waiting}</p>}
                </FeedbackItem>
              ))}
            </ul>
            <div className="mt-3 flex justify-end">
              <Pagination page={page} total={data.total} size={data.size} onChange={setPage} />
            </div>
          </>
        )}
      </section>
    </div>
  );
}

function ReplyBox({ f, onSent }: { f: Feedback; onSent: () => void }) {
  const [open, setOpen] = useState(!f.reply);
  const [reply, setReply] = useState(f.reply ?? '');
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <Button variant="link" size="sm" className="mt-2" onClick={() => setOpen(true)}>
        {ta.schoolFeedback.edit}
      </Button>
    );
  }
  return (
    <form
      className="mt-3 flex flex-col gap-2 sm:flex-row"
      onSubmit={(e) => {
        e.preventDefault();
        if (!reply.trim()) return void toast.error(ACCOUNT_MESSAGES.replyRequired);
        setBusy(true);
        replyFeedback(f.id, reply.trim())
          .then(() => {
            toast.success(ta.schoolFeedback.replied);
            setOpen(false);
            onSent();
          })
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
    >
      <textarea
        rows={2}
        maxLength={1000}
        value={reply}
        aria-label={ta.schoolFeedback.replyPlaceholder}
        placeholder={ta.schoolFeedback.replyPlaceholder}
        onChange={(e) => setReply(e.target.value)}
        className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-blue-500 focus:outline-none"
      />
      <Button type="submit" loading={busy} className="self-end">
        {ta.schoolFeedback.send}
      </Button>
    </form>
  );
}

/** Administrators: the feedback of the school's members, with replies. */
export function SchoolFeedbackPanel({ orgId }: { orgId: string }) {
  const [status, setStatus] = useState<'' | 'pending' | 'replied'>('');
  const [page, setPage] = useState(1);
  const { data } = useSchoolFeedback(orgId, status, page);
  const revalidate = useRevalidateAccount();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-500">{ta.schoolFeedback.lead}</p>
        <Listbox
          label={ta.feedback.type}
          hideLabel
          value={status}
          placeholder={ta.schoolFeedback.all}
          options={[
            { value: '', label: ta.schoolFeedback.all },
            { value: 'pending', label: FEEDBACK_STATUS_NAMES.pending },
            { value: 'replied', label: FEEDBACK_STATUS_NAMES.replied },
          ]}
          onChange={(s) => {
            setStatus(s);
            setPage(1);
          }}
        />
      </div>
      {!data ? (
        <Skeleton className="h-40" />
      ) : data.records.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
          {ta.schoolFeedback.none}
        </p>
      ) : (
        <>
          <ul className="space-y-3">
            {data.records.map((f) => (
              <FeedbackItem key={f.id} f={f}>
                <p className="mt-2 text-xs text-slate-500">
                  {ta.schoolFeedback.author(f.author.nickname, f.author.username)}
                  {f.contact && ` · ${ta.schoolFeedback.contact(f.contact)}`}
                </p>
                <ReplyBox f={f} onSent={() => revalidate('school-feedback')} />
              </FeedbackItem>
            ))}
          </ul>
          <div className="flex justify-end">
            <Pagination page={page} total={data.total} size={data.size} onChange={setPage} />
          </div>
        </>
      )}
    </div>
  );
}
