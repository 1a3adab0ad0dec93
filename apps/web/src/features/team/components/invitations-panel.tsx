import { useState, type FormEvent } from 'react';
import {
  CreateInvitationSchema,
  GRADES,
  INVITE_LIMITS,
  INVITE_ROLES,
  INVITE_STATUSES,
  INVITE_STATUS_NAMES,
  SCHOOL_ROLE_NAMES,
  type CreatedInvitation,
  type Invitation,
  type InviteRole,
  type InviteStatus,
} from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { TextField } from '../../../components/ui/field';
import { Listbox } from '../../../components/ui/listbox';
import { Segmented } from '../../../components/ui/segmented';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table } from '../../../components/ui/table';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import { cn, formatDate } from '../../../lib/utils';
import { createInvitation, revokeInvitation, useInvitations, useRevalidateTeam } from '../api/team';

const STATUS_TONES: Record<InviteStatus, string> = {
  active: 'bg-emerald-50 text-emerald-700',
  expired: 'bg-slate-100 text-slate-500',
  revoked: 'bg-red-50 text-red-600',
  usedUp: 'bg-amber-50 text-amber-800',
};

function CreateDialog({
  open,
  orgId,
  onClose,
  onCreated,
}: {
  open: boolean;
  orgId: string;
  onClose: () => void;
  onCreated: (c: CreatedInvitation) => void;
}) {
  const [role, setRole] = useState<InviteRole>('teacher');
  const [grade, setGrade] = useState('');
  const [maxUses, setMaxUses] = useState(String(INVITE_LIMITS.defaultUses));
  const [days, setDays] = useState(String(INVITE_LIMITS.defaultDays));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      orgId,
      role,
      grade: role === 'gradeDirector' ? grade || null : null,
      maxUses: Number(maxUses),
      expiresInDays: Number(days),
      origin: window.location.origin,
    };
    const parsed = CreateInvitationSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onCreated(await createInvitation(body as never));
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title={ts.invites.createTitle}>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-slate-700">{ts.invites.role}</p>
          <Segmented<InviteRole>
            label={ts.invites.role}
            value={role}
            options={INVITE_ROLES.map((r) => ({ value: r, label: SCHOOL_ROLE_NAMES[r] }))}
            onChange={setRole}
          />
        </div>
        {role === 'gradeDirector' && (
          <div>
            <Listbox
              label={ts.invites.grade}
              value={grade}
              placeholder={ts.invites.gradePlaceholder}
              options={GRADES.map((g) => ({ value: g, label: g }))}
              onChange={setGrade}
            />
            {errors.grade && (
              <p role="alert" className="mt-1 text-xs text-red-600">
                {errors.grade}
              </p>
            )}
          </div>
        )}
        <div className="grid grid-cols-2 gap-4">
          <TextField
            label={ts.invites.maxUses}
            type="number"
            min={1}
            max={INVITE_LIMITS.maxUses}
            value={maxUses}
            error={errors.maxUses}
            onChange={(e) => setMaxUses(e.target.value)}
          />
          <TextField
            label={ts.invites.days}
            type="number"
            min={1}
            max={INVITE_LIMITS.maxDays}
            value={days}
            error={errors.expiresInDays}
            onChange={(e) => setDays(e.target.value)}
          />
        </div>
        <DialogActions onCancel={onClose} busy={busy} submitLabel={ts.invites.submit} className="pt-2" />
      </form>
    </Dialog>
  );
}

/** The link and QR code, shown once: only a digest of the token is stored. */
function CreatedDialog({ created, onClose }: { created: CreatedInvitation | null; onClose: () => void }) {
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.link);
      toast.success(ts.invites.copied);
    } catch {
      toast.error(ts.invites.copyFailed);
    }
  };
  const inv = created?.invitation;
  return (
    <Dialog open={created !== null} onClose={onClose} title={ts.invites.createdTitle} className="max-w-lg">
      {created && inv && (
        <div className="space-y-4">
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">{ts.invites.createdHint}</p>
          <p className="text-sm text-slate-600">
            {ts.invites.summary(
              inv.grade ? `${inv.roleName}（${inv.grade}）` : inv.roleName,
              inv.maxUses,
              formatDate(inv.expiresAt),
            )}
          </p>
          <div>
            <label htmlFor="invite-link" className="mb-1.5 block text-sm font-medium text-slate-700">
              {ts.invites.link}
            </label>
            <div className="flex gap-2">
              <input
                id="invite-link"
                readOnly
                value={created.link}
                onFocus={(e) => e.target.select()}
                className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 text-sm text-slate-700"
              />
              <Button onClick={() => void copy()}>{ts.invites.copy}</Button>
            </div>
          </div>
          <div className="flex items-end gap-4">
            <img
              src={created.qrCode}
              alt={ts.invites.qr}
              className="size-40 rounded-lg border border-slate-200 p-1"
            />
            <a
              href={created.qrCode}
              download={ts.invites.qrFile}
              className="text-sm text-blue-600 hover:underline"
            >
              {ts.invites.saveQr}
            </a>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** Invitations: create (link + QR code, shown once), list with uses and status, revoke. */
export function InvitationsPanel({ orgId }: { orgId: string }) {
  const [status, setStatus] = useState<InviteStatus | ''>('');
  const { data, isLoading } = useInvitations(orgId, status);
  const revalidate = useRevalidateTeam();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [busy, setBusy] = useState(false);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Listbox
          label={ts.invites.status}
          value={status}
          placeholder={ts.invites.allStatuses}
          options={[
            { value: '', label: ts.invites.allStatuses },
            ...INVITE_STATUSES.map((s) => ({ value: s, label: INVITE_STATUS_NAMES[s] })),
          ]}
          onChange={setStatus}
        />
        <Button onClick={() => setCreating(true)}>{ts.invites.create}</Button>
      </div>
      {isLoading && !data ? (
        <Skeleton className="h-40" />
      ) : (data ?? []).length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300">
          <Empty
            title={ts.invites.empty}
            description={ts.invites.emptyHint}
            action={<Button onClick={() => setCreating(true)}>{ts.invites.create}</Button>}
          />
        </div>
      ) : (
        <Table
          caption={ts.invites.list}
          rows={data ?? []}
          rowKey={(i) => i.id}
          columns={[
            {
              key: 'role',
              header: ts.invites.role,
              cell: (i) => (i.grade ? `${i.roleName}（${i.grade}）` : i.roleName),
            },
            {
              key: 'status',
              header: ts.invites.status,
              cell: (i) => (
                <span className={cn('rounded px-1.5 py-0.5 text-xs font-medium', STATUS_TONES[i.status])}>
                  {i.statusName}
                </span>
              ),
            },
            {
              key: 'uses',
              header: ts.invites.uses,
              cell: (i) => (
                <span title={i.uses.map((u) => u.nickname).join('、') || undefined} className="tabular-nums">
                  {ts.invites.usesOf(i.usedCount, i.maxUses)}
                </span>
              ),
            },
            {
              key: 'joined',
              header: ts.invites.joined,
              cell: (i) => i.uses.map((u) => u.nickname).join('、') || '—',
            },
            { key: 'expires', header: ts.invites.expiresAt, cell: (i) => formatDate(i.expiresAt) },
            { key: 'by', header: ts.invites.createdBy, cell: (i) => i.createdBy.nickname },
            {
              key: 'actions',
              header: <span className="sr-only">{ts.members.actions}</span>,
              align: 'right',
              cell: (i) =>
                i.status === 'active' ? (
                  <Button variant="link" size="sm" className="text-red-600!" onClick={() => setRevoking(i)}>
                    {ts.invites.revoke}
                  </Button>
                ) : null,
            },
          ]}
        />
      )}
      <CreateDialog
        open={creating}
        orgId={orgId}
        onClose={() => setCreating(false)}
        onCreated={(c) => {
          setCreating(false);
          setCreated(c);
          revalidate();
        }}
      />
      <CreatedDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        title={ts.invites.revokeTitle}
        confirmLabel={ts.invites.revoke}
        danger
        busy={busy}
        onClose={() => setRevoking(null)}
        onConfirm={() => {
          if (!revoking) return;
          setBusy(true);
          revokeInvitation(revoking.id)
            .then(() => {
              toast.success(ts.invites.revoked);
              revalidate();
            })
            .catch(() => undefined)
            .finally(() => {
              setBusy(false);
              setRevoking(null);
            });
        }}
      >
        {ts.invites.revokeBody}
      </ConfirmDialog>
    </div>
  );
}
