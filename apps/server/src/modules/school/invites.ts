import QRCode from 'qrcode';
import sharp from 'sharp';
import {
  MESSAGES,
  SCHOOL_MESSAGES,
  type CreatedInvitation,
  type InvitePreview,
  type InviteRegister,
  type InviteRole,
  type InviteStatus,
  type Invitation,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import { hashToken, isoAfter, newId, randomToken } from '../../lib/ids.js';
import { hashPassword } from '../../lib/passwords.js';
import { fileUrl } from '../system/service.js';
import { INVITE_ROLE_NAMES, invitationStatus, presentInvitation } from './presenter.js';
import type { InvitationRecord, SchoolRepository } from './repository.js';
import type { AuditLog, SchoolService } from './service.js';
import { AUTH_TEXT, SCHOOL_TEXT } from '../../i18n/messages.js';

const DAY_SECONDS = 24 * 3_600;

const STATUS_MESSAGES: Record<Exclude<InviteStatus, 'active'>, string> = {
  expired: SCHOOL_MESSAGES.inviteExpired,
  revoked: SCHOOL_MESSAGES.inviteRevoked,
  usedUp: SCHOOL_MESSAGES.inviteUsedUp,
};

/** Checks an image captcha (the auth module's). */
export type CaptchaCheck = (key: string, code: string) => Promise<boolean>;

export interface CreateInvitationInput {
  orgId?: string | undefined;
  role: InviteRole;
  grade?: string | null | undefined;
  maxUses: number;
  expiresInDays: number;
  origin?: string | undefined;
}

/**
 * Invitations: a link token (shown once, stored as its digest) and its QR code, with a role, an expiry and a number of
 * uses; revoked by an administrator; accepted by a signed-in account or by a new one registered on the spot.
 */
export class InviteService {
  constructor(
    private readonly repo: SchoolRepository,
    private readonly school: SchoolService,
    private readonly log: AuditLog,
    private readonly clock: () => number,
    private readonly verifyCaptcha: CaptchaCheck,
  ) {}

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  async create(
    auth: AuthContext,
    input: CreateInvitationInput,
    publicUrl: string | undefined,
  ): Promise<CreatedInvitation> {
    const actor = await this.school.access.admin(auth, input.orgId);
    const token = randomToken(24);
    const id = newId();
    const now = this.clock();
    await this.repo.transaction(async (repo) => {
      await repo.invitations.insertInvitation({
        id,
        orgId: actor.orgId,
        tokenHash: hashToken(token),
        role: input.role,
        grade: input.role === 'gradeDirector' ? (input.grade ?? null) : null,
        maxUses: input.maxUses,
        usedCount: 0,
        expiresAt: isoAfter(now, input.expiresInDays * DAY_SECONDS),
        revokedAt: null,
        createdBy: actor.userId,
        createdAt: new Date(now).toISOString(),
      });
      await this.log.record(
        repo,
        actor,
        'invite.create',
        id,
        SCHOOL_TEXT.invitation(
          INVITE_ROLE_NAMES[input.role],
          input.role === 'gradeDirector' ? String(input.grade) : null,
          input.maxUses,
          input.expiresInDays,
        ),
      );
    });
    // PUBLIC_URL, else the administrator's own browser origin, else a link on this site: never the Host header. The
    // token rides in the fragment, which browsers keep to themselves.
    const base = (publicUrl ?? input.origin ?? '').replace(/\/+$/, '');
    const link = `${base}/invite#token=${encodeURIComponent(token)}`;
    const qrCode = await qrPng(link);
    return { invitation: await this.one(id), token, link, qrCode };
  }

  private async one(id: string): Promise<Invitation> {
    const row = (
      await this.repo.invitations.listInvitations((await this.repo.invitations.findInvitation(id))!.orgId)
    ).find((r) => r.id === id)!;
    return presentInvitation(row, await this.repo.invitations.invitationUses([id]), this.now());
  }

  async list(
    auth: AuthContext,
    query: { orgId?: string | undefined; status?: InviteStatus | undefined },
  ): Promise<Invitation[]> {
    const actor = await this.school.access.admin(auth, query.orgId);
    const rows = await this.repo.invitations.listInvitations(actor.orgId);
    const uses = await this.repo.invitations.invitationUses(rows.map((r) => r.id));
    const now = this.now();
    return rows
      .map((r) => presentInvitation(r, uses, now))
      .filter((i) => !query.status || i.status === query.status);
  }

  async revoke(auth: AuthContext, id: string): Promise<Invitation> {
    const row = await this.repo.invitations.findInvitation(id);
    const actor = await this.school.access.adminOfRow(auth, row?.orgId, SCHOOL_MESSAGES.inviteNotFound);
    await this.repo.transaction(async (repo) => {
      await repo.invitations.revokeInvitation(id, this.now());
      await this.log.record(repo, actor, 'invite.revoke', id, INVITE_ROLE_NAMES[row!.role as InviteRole]);
    });
    return this.one(id);
  }

  private async byToken(token: string) {
    const row = await this.repo.invitations.findInvitationByHash(hashToken(token));
    if (!row) throw new AppError('VALIDATION', SCHOOL_MESSAGES.inviteInvalid);
    return row;
  }

  /** What the /invite page shows; an unknown token is refused, a spent one is described. */
  async preview(token: string): Promise<InvitePreview> {
    const row = await this.byToken(token);
    const status = invitationStatus(row, this.now());
    const role = row.role as InviteRole;
    return {
      schoolName: row.orgName,
      logoUrl: fileUrl(row.logoPath),
      role,
      roleName: INVITE_ROLE_NAMES[role],
      grade: row.grade,
      inviter: row.inviter,
      expiresAt: row.expiresAt,
      status,
      usable: status === 'active',
      message: status === 'active' ? null : STATUS_MESSAGES[status],
    };
  }

  private assertUsable(row: InvitationRecord) {
    const status = invitationStatus(row, this.now());
    if (status !== 'active') throw new AppError('CONFLICT', STATUS_MESSAGES[status]);
  }

  /**
   * Joins the invitation's school in one transaction: takes a use (a conditional update, so racing acceptances never
   * exceed the maximum), adds the membership with the invited role, records the use and, for an account without a
   * current school, makes this school theirs.
   */
  private async join(
    repo: SchoolRepository,
    row: InvitationRecord & { orgName: string },
    userId: string,
    nickname: string,
    hadDefault: boolean,
  ) {
    const now = this.now();
    if (!(await repo.invitations.takeInvitationUse(row.id, now))) {
      const fresh = await repo.invitations.findInvitation(row.id);
      const status = fresh ? invitationStatus(fresh, now) : 'revoked';
      throw new AppError(
        'CONFLICT',
        status === 'active' ? SCHOOL_MESSAGES.inviteUsedUp : STATUS_MESSAGES[status],
      );
    }
    const role = row.role as InviteRole;
    await repo.members.insertMembership({
      id: newId(),
      orgId: row.orgId,
      userId,
      isCreator: false,
      isAdministrator: role === 'administrator',
      isGradeDirector: role === 'gradeDirector',
      defaultYearId: null,
      createdAt: now,
    });
    if (role === 'gradeDirector' && row.grade)
      await repo.members.setGradesOf(row.orgId, userId, [row.grade], now);
    await repo.invitations.insertInvitationUse({ invitationId: row.id, userId, createdAt: now });
    if (!hadDefault) await repo.members.setDefaultOrg(userId, row.orgId, now);
    await this.log.record(
      repo,
      { orgId: row.orgId, userId },
      'invite.accept',
      row.id,
      `${nickname}（${INVITE_ROLE_NAMES[role]}）`,
    );
    return { orgId: row.orgId, orgName: row.orgName, role, becameDefault: !hadDefault };
  }

  /** A signed-in account joins the school. */
  async accept(auth: AuthContext, token: string) {
    const row = await this.byToken(token);
    this.assertUsable(row);
    if (await this.repo.members.findMembership(row.orgId, auth.userId))
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.alreadyMember);
    const user = await this.repo.members.findUser(auth.userId);
    if (!user) throw new AppError('UNAUTHORIZED');
    return this.repo.transaction((repo) =>
      this.join(repo, row, user.id, user.nickname, user.defaultOrgId !== null),
    );
  }

  /** A new account (registration form + image captcha) that joins the school at once. */
  async register(input: InviteRegister) {
    if (!(await this.verifyCaptcha(input.captchaKey, input.captchaCode)))
      throw new AppError('CAPTCHA', MESSAGES.captchaWrong);
    const row = await this.byToken(input.token);
    this.assertUsable(row);
    const passwordHash = await hashPassword(input.password);
    const userId = newId();
    const now = this.now();
    return this.repo.transaction(async (repo) => {
      const created = await repo.invitations.insertUser({
        id: userId,
        username: input.username,
        passwordHash,
        nickname: input.nickname,
        createdAt: now,
      });
      if (!created) throw new AppError('CONFLICT', AUTH_TEXT.usernameTaken);
      return this.join(repo, row, userId, input.nickname, false);
    });
  }
}

/**
 * The link's QR code as a 320 px PNG data URL. qrcode's own PNG encoder deflates on the event loop (17 ms warm, over
 * 100 ms cold); its SVG takes 1–4 ms, and sharp rasterises it on libvips' threads.
 */
async function qrPng(link: string): Promise<string> {
  const svg = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  const png = await sharp(Buffer.from(svg)).resize(320, 320).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}
