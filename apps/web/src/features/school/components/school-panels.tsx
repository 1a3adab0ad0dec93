import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  AREAS,
  GRADES,
  IMAGE_MAX_BYTES,
  SCHOOL_TIME_ZONES,
  ACCOUNT_MESSAGES,
  UpdateSchoolSchema,
  type SchoolDetail,
} from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { ImageCropDialog } from '../../../components/ui/image-crop-dialog';
import { Listbox } from '../../../components/ui/listbox';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table } from '../../../components/ui/table';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import { useBusy } from '../../../lib/use-busy';
import { formatDate } from '../../../lib/utils';
import { useSchoolMembers, useSchoolSubjects } from '../../../api/school';
import {
  refreshUser,
  setDirectors,
  setSubjects,
  updateSchool,
  uploadLogo,
  useAudit,
  useGradeDirectors,
  useRevalidateSchool,
} from '../api/school';

const LOGO_SIZE = 512;

/** The school's logo: shown in the top bar; administrators crop and replace it. */
export function SchoolLogo({ school, canManage }: { school: SchoolDetail; canManage: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, run] = useBusy();
  const revalidate = useRevalidateSchool();

  const upload = (blob: Blob) =>
    run(async () => {
      await uploadLogo(school.id, blob);
      toast.success(ts.info.logoSaved);
      setFile(null);
      revalidate();
      await refreshUser();
    });

  return (
    <div className="flex flex-col items-center gap-2">
      <div className="flex size-20 items-center justify-center overflow-hidden rounded-xl bg-slate-100 ring-1 ring-slate-200">
        {school.logoUrl ? (
          <img src={school.logoUrl} alt={ts.info.logo} className="size-full object-contain" />
        ) : (
          <span aria-hidden="true" className="text-3xl font-semibold text-slate-500">
            {school.name.slice(0, 1)}
          </span>
        )}
      </div>
      {canManage && (
        <>
          <input
            ref={input}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            aria-label={ts.info.uploadLogo}
            onChange={(e) => {
              const f = e.target.files?.[0] ?? null;
              e.target.value = '';
              if (!f) return;
              if (f.size > IMAGE_MAX_BYTES) return void toast.error(ACCOUNT_MESSAGES.imageTooLarge);
              setFile(f);
            }}
          />
          <Button variant="link" size="sm" onClick={() => input.current?.click()}>
            {school.logoUrl ? ts.info.changeLogo : ts.info.uploadLogo}
          </Button>
          <ImageCropDialog
            file={file}
            maxSize={LOGO_SIZE}
            busy={busy}
            labels={{ ...ts.crop, cancel: ts.cancel }}
            onCancel={() => setFile(null)}
            onConfirm={(b) => void upload(b)}
          />
        </>
      )}
    </div>
  );
}

function InfoRow({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-3 py-2.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className={value ? 'text-slate-800' : 'text-slate-500'}>{value || ts.info.none}</dd>
    </div>
  );
}

/** A time zone's Chinese name when the product offers it, else its IANA name. */
const timeZoneName = (id: string) => SCHOOL_TIME_ZONES.find((z) => z.id === id)?.name ?? id;

/** The offered time zones, and the school's own when it is another. */
const timeZoneOptions = (current: string) =>
  [
    ...SCHOOL_TIME_ZONES,
    ...(SCHOOL_TIME_ZONES.some((z) => z.id === current) ? [] : [{ id: current, name: current }]),
  ].map((z) => ({ value: z.id, label: z.name }));

/** Name, region, address, phone, introduction and time zone; administrators edit them. */
export function InfoPanel({ school, canManage }: { school: SchoolDetail; canManage: boolean }) {
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState({ name: '', region: '', address: '', phone: '', intro: '', timeZone: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, run] = useBusy();
  const revalidate = useRevalidateSchool();

  useEffect(() => {
    if (editing)
      setForm({
        name: school.name,
        region: school.region ?? '',
        address: school.address ?? '',
        phone: school.phone ?? '',
        intro: school.intro ?? '',
        timeZone: school.timeZone,
      });
  }, [editing, school]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { orgId: school.id, ...form, region: form.region || null };
    const parsed = UpdateSchoolSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    await run(async () => {
      await updateSchool(body as never);
      toast.success(ts.info.saved);
      setEditing(false);
      revalidate();
      await refreshUser();
    });
  };

  return (
    <div className="max-w-3xl">
      <div className="flex items-center justify-between">
        <h3 className="text-base font-semibold text-slate-900">{ts.tabs.info}</h3>
        {canManage && (
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            {ts.info.edit}
          </Button>
        )}
      </div>
      <dl className="mt-2 divide-y divide-slate-100">
        <InfoRow label={ts.create.name} value={school.name} />
        <InfoRow label={ts.create.region} value={school.region} />
        <InfoRow label={ts.create.address} value={school.address} />
        <InfoRow label={ts.create.phone} value={school.phone} />
        <InfoRow label={ts.create.intro} value={school.intro} />
        <InfoRow label={ts.info.creator} value={school.creator?.nickname} />
        <InfoRow label={ts.info.createdAt} value={formatDate(school.createdAt)} />
        <InfoRow label={ts.info.defaultYear} value={school.defaultYear?.name ?? ts.info.noDefaultYear} />
        <InfoRow label={ts.info.timeZone} value={timeZoneName(school.timeZone)} />
      </dl>
      <p className="mt-4 text-xs text-slate-500">{ts.info.logoHint}</p>
      <Dialog open={editing} onClose={() => setEditing(false)} title={ts.info.edit} className="max-w-lg">
        <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
          <TextField
            label={ts.create.name}
            value={form.name}
            maxLength={50}
            error={errors.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
          <Listbox
            label={ts.create.region}
            value={form.region}
            placeholder={ts.create.regionPlaceholder}
            options={AREAS.map((a) => ({ value: a, label: a }))}
            onChange={(region) => setForm({ ...form, region })}
          />
          <TextField
            label={ts.create.address}
            value={form.address}
            maxLength={100}
            error={errors.address}
            onChange={(e) => setForm({ ...form, address: e.target.value })}
          />
          <TextField
            label={ts.create.phone}
            value={form.phone}
            maxLength={30}
            error={errors.phone}
            onChange={(e) => setForm({ ...form, phone: e.target.value })}
          />
          <Listbox
            label={ts.info.timeZone}
            value={form.timeZone}
            placeholder={ts.info.timeZone}
            options={timeZoneOptions(school.timeZone)}
            onChange={(timeZone) => setForm({ ...form, timeZone })}
          />
          <p className="-mt-2 text-xs text-slate-500">{ts.info.timeZoneHint}</p>
          <label className="block text-sm font-medium text-slate-700">
            {ts.create.intro}
            <textarea
              value={form.intro}
              maxLength={500}
              rows={3}
              onChange={(e) => setForm({ ...form, intro: e.target.value })}
              className="mt-1.5 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm font-normal focus:border-blue-500 focus:outline-none"
            />
          </label>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setEditing(false)}>
              {ts.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {ts.info.save}
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}

/** Subjects offered per stage (none ticked offers all). */
export function SubjectsPanel({ orgId, canManage }: { orgId: string; canManage: boolean }) {
  const { data, mutate } = useSchoolSubjects(orgId);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, run] = useBusy();
  useEffect(() => {
    if (data) setChosen(new Set(data.flatMap((s) => s.subjects.filter((x) => x.offered).map((x) => x.id))));
  }, [data]);
  if (!data) return <Skeleton className="h-48" />;
  const toggle = (id: string) =>
    setChosen((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const save = () =>
    run(async () => {
      await mutate(await setSubjects(orgId, [...chosen]), { revalidate: false });
      toast.success(ts.subjects.saved);
    });
  return (
    <div className="max-w-4xl space-y-5">
      <p className="text-sm text-slate-500">{ts.subjects.hint}</p>
      {data.map((stage) => (
        <fieldset key={stage.stageId} className="rounded-lg border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">{stage.stageName}</legend>
          <div className="flex flex-wrap gap-2">
            {stage.subjects.map((s) => (
              <label
                key={s.id}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-700 has-checked:border-blue-500 has-checked:bg-blue-50 has-checked:text-blue-700"
              >
                <input
                  type="checkbox"
                  disabled={!canManage}
                  checked={chosen.has(s.id)}
                  onChange={() => toggle(s.id)}
                  className="size-4 accent-blue-600"
                />
                {s.name}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      {canManage && (
        <Button loading={busy} onClick={() => void save()}>
          {ts.subjects.save}
        </Button>
      )}
    </div>
  );
}

/** Grade directors per grade; administrators choose them among the members. */
export function DirectorsPanel({ orgId, canManage }: { orgId: string; canManage: boolean }) {
  const { data, mutate } = useGradeDirectors(orgId);
  const [grade, setGrade] = useState<string | null>(null);
  const { data: members } = useSchoolMembers(orgId, '', '', canManage && grade !== null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState('');
  const [busy, run] = useBusy();
  const byGrade = new Map((data ?? []).map((d) => [d.grade, d.directors]));

  const open = (g: string) => {
    setGrade(g);
    setFilter('');
    setChosen(new Set((byGrade.get(g) ?? []).map((d) => d.memberId)));
  };
  const save = async () => {
    if (!grade) return;
    await run(async () => {
      await mutate(await setDirectors(orgId, grade, [...chosen]), { revalidate: false });
      toast.success(ts.directors.saved(grade));
      setGrade(null);
    });
  };
  if (!data) return <Skeleton className="h-48" />;
  const shown = (members ?? []).filter(
    (m) => !filter.trim() || m.nickname.includes(filter.trim()) || m.username.includes(filter.trim()),
  );
  return (
    <div className="max-w-3xl space-y-3">
      <p className="text-sm text-slate-500">{ts.directors.hint}</p>
      <Table
        caption={ts.directors.title}
        rows={[...GRADES]}
        rowKey={(g) => g}
        dense
        columns={[
          { key: 'grade', header: ts.classes.grade, cell: (g) => <span className="font-medium">{g}</span> },
          {
            key: 'directors',
            header: ts.directors.title,
            cell: (g) => {
              const list = byGrade.get(g) ?? [];
              return list.length ? (
                list.map((d) => d.nickname).join('、')
              ) : (
                <span className="text-slate-500">{ts.directors.none}</span>
              );
            },
          },
          ...(canManage
            ? [
                {
                  key: 'edit',
                  header: <span className="sr-only">{ts.directors.edit}</span>,
                  align: 'right' as const,
                  cell: (g: string) => (
                    <Button
                      variant="link"
                      size="sm"
                      onClick={() => open(g)}
                      aria-label={ts.directors.editTitle(g)}
                    >
                      {ts.directors.edit}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Dialog
        open={grade !== null}
        onClose={() => setGrade(null)}
        title={grade ? ts.directors.editTitle(grade) : ''}
      >
        <input
          type="search"
          value={filter}
          aria-label={ts.groups.filterMembers}
          placeholder={ts.members.keywordPlaceholder}
          onChange={(e) => setFilter(e.target.value)}
          className="mb-3 h-9 w-full rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:outline-none"
        />
        {!members ? (
          <Skeleton className="h-40" />
        ) : (
          <ul className="max-h-72 space-y-1 overflow-auto" aria-label={ts.directors.members}>
            {shown.map((m) => (
              <li key={m.memberId}>
                <label className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-50">
                  <input
                    type="checkbox"
                    checked={chosen.has(m.memberId)}
                    onChange={() =>
                      setChosen((c) => {
                        const next = new Set(c);
                        if (next.has(m.memberId)) next.delete(m.memberId);
                        else next.add(m.memberId);
                        return next;
                      })
                    }
                    className="size-4 accent-blue-600"
                  />
                  <span className="text-slate-800">{m.nickname}</span>
                  <span className="text-xs text-slate-500">{m.username}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setGrade(null)}>
            {ts.cancel}
          </Button>
          <Button loading={busy} onClick={() => void save()}>
            {ts.save}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

/** Administrative actions of the school, newest first. */
export function AuditPanel({ orgId }: { orgId: string }) {
  const [page, setPage] = useState(1);
  const { data } = useAudit(orgId, page, true);
  if (!data) return <Skeleton className="h-48" />;
  return (
    <div className="space-y-3">
      <Table
        caption={ts.audit.title}
        rows={data.records}
        rowKey={(r) => r.id}
        dense
        empty={ts.audit.empty}
        columns={[
          {
            key: 'time',
            header: ts.audit.time,
            className: 'whitespace-nowrap',
            cell: (r) => new Date(r.createdAt).toLocaleString('zh-CN', { hour12: false }),
          },
          { key: 'actor', header: ts.audit.actor, cell: (r) => r.actor?.nickname ?? ts.audit.system },
          { key: 'action', header: ts.audit.action, cell: (r) => r.actionName },
          { key: 'detail', header: ts.audit.detail, cell: (r) => r.detail },
        ]}
      />
      <div className="flex justify-end">
        <Pagination page={page} total={data.total} size={data.size} onChange={setPage} />
      </div>
    </div>
  );
}
