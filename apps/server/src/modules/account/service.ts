import {
  ACCOUNT_MESSAGES,
  FEEDBACK_STATUS_NAMES,
  GROUP_KIND_NAMES,
  MESSAGES,
  type ChangePassword,
  type CreateFeedback,
  type Feedback,
  type MyTeaching,
  type PhoneRegister,
  type Profile,
  type ResetPassword,
  type SendSms,
  type SentSms,
  type TokenResponse,
} from '@zhzy/contracts';
import { isUniqueViolation } from '../../db/dialect.js';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { FileStore } from '../../plugins/files.js';
import type { ClientInfo } from '../auth/service.js';
import { gradeOf, groupKind, maskPhone } from '../school/presenter.js';
import type { SchoolRepository } from '../school/repository.js';
import type { SchoolService } from '../school/service.js';
import { fileUrl } from '../system/service.js';
import { processImage, type SquareCrop } from './images.js';
import type { AccountRepository, FeedbackRecord } from './repository.js';
import type { SmsCodes } from './sms.js';
import { ACCOUNT_TEXT } from '../../i18n/messages.js';

/** What this module needs of the auth module's sessions and captchas. */
export interface AuthFlows {
  verifyCaptcha(key: string, code: string): Promise<boolean>;
  openSession(userId: string, client: ClientInfo): Promise<TokenResponse>;
  revokeUserSessions(userId: string, reason: string, exceptSessionId?: string): Promise<void>;
  clearAccountFailures(userId: string): Promise<void>;
}

/** Accounts and the personal centre: SMS flows, profile, avatar, phone, password, my teaching, feedback. */
export class AccountService {
  constructor(
    private readonly repo: AccountRepository,
    private readonly schoolRepo: SchoolRepository,
    private readonly school: SchoolService,
    private readonly sms: SmsCodes,
    private readonly files: FileStore,
    private readonly auth: AuthFlows,
    private readonly clock: () => number,
  ) {}

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  // ───────────── SMS, registration by phone, SMS sign-in, reset ─────────────

  /** Sends a code without a session: the image captcha first, then what the purpose needs of the phone. */
  async sendSms(input: SendSms, ip: string | null): Promise<SentSms> {
    if (!(await this.auth.verifyCaptcha(input.captchaKey, input.captchaCode)))
      throw new AppError('CAPTCHA', MESSAGES.captchaWrong);
    const owner = await this.repo.findUserByPhone(input.phone);
    if (input.purpose === 'register' && owner) throw new AppError('CONFLICT', ACCOUNT_MESSAGES.phoneTaken);
    if (input.purpose !== 'register' && !owner)
      throw new AppError('VALIDATION', ACCOUNT_MESSAGES.phoneNotBound);
    return this.sms.send(input.phone, input.purpose, ip);
  }

  /** The SMS code is proven first: without it nobody learns whether a username or a phone is taken (ADR 0042). */
  async registerByPhone(input: PhoneRegister): Promise<void> {
    await this.sms.consume(input.phone, 'register', input.smsCode);
    if (await this.repo.usernameTaken(input.username))
      throw new AppError('CONFLICT', ACCOUNT_MESSAGES.usernameTaken);
    if (await this.repo.findUserByPhone(input.phone))
      throw new AppError('CONFLICT', ACCOUNT_MESSAGES.phoneTaken);
    const now = this.now();
    try {
      await this.repo.insertUser({
        id: newId(),
        username: input.username,
        passwordHash: await hashPassword(input.password),
        nickname: input.nickname,
        phone: input.phone,
        now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', ACCOUNT_MESSAGES.usernameTaken);
      throw error;
    }
  }

  /** SMS sign-in: the code proves the phone; answers the token call's tokens. */
  async smsSignIn(phone: string, code: string, client: ClientInfo): Promise<TokenResponse> {
    const user = await this.repo.findUserByPhone(phone);
    if (!user) throw new AppError('VALIDATION', ACCOUNT_MESSAGES.smsWrong);
    await this.sms.consume(phone, 'login', code);
    if (user.disabled) throw new AppError('BAD_CREDENTIALS', ACCOUNT_MESSAGES.accountDisabled);
    return this.auth.openSession(user.id, client);
  }

  /** A new password with an SMS code: every session of the account ends, and its sign-in lock is lifted. */
  async resetPassword(input: ResetPassword): Promise<void> {
    const user = await this.repo.findUserByPhone(input.phone);
    if (!user) throw new AppError('VALIDATION', ACCOUNT_MESSAGES.smsWrong);
    await this.sms.consume(input.phone, 'reset', input.smsCode);
    await this.repo.updateUser(user.id, { passwordHash: await hashPassword(input.password) }, this.now());
    await this.auth.revokeUserSessions(user.id, 'password_reset');
    await this.auth.clearAccountFailures(user.id);
  }

  // ───────────── profile ─────────────

  async profile(auth: AuthContext): Promise<Profile> {
    const found = await this.repo.findUserWithSchools(auth.userId);
    if (!found) throw new AppError('UNAUTHORIZED');
    const { account: user, schools } = found;
    return {
      id: user.id,
      username: user.username,
      nickname: user.nickname,
      avatar: fileUrl(user.avatar),
      phone: maskPhone(user.phone),
      createdAt: user.createdAt,
      defaultOrgId: user.defaultOrgId,
      schools: schools.map((s) => ({
        id: s.id,
        name: s.name,
        logoUrl: fileUrl(s.logoPath),
        isDefault: s.id === user.defaultOrgId,
        isCreator: s.isCreator,
        isAdministrator: s.isAdministrator || s.isCreator,
        isGradeDirector: s.isGradeDirector,
      })),
    };
  }

  async updateNickname(auth: AuthContext, nickname: string): Promise<Profile> {
    await this.repo.updateUser(auth.userId, { nickname }, this.now());
    return this.profile(auth);
  }

  /** Stores a new avatar: validated by content, cropped square and resized to 256 px, re-encoded as WebP. */
  async uploadAvatar(auth: AuthContext, data: Buffer, crop?: SquareCrop): Promise<{ avatar: string | null }> {
    const image = await processImage(data, 'avatar', crop);
    const before = await this.repo.findUser(auth.userId);
    const relative = this.files.newPath('avatars', 'webp');
    await this.files.write(relative, image);
    await this.repo.updateUser(auth.userId, { avatar: relative }, this.now());
    await this.files.remove(before?.avatar);
    return { avatar: fileUrl(relative) };
  }

  async deleteAvatar(auth: AuthContext): Promise<{ avatar: null }> {
    const before = await this.repo.findUser(auth.userId);
    await this.repo.updateUser(auth.userId, { avatar: null }, this.now());
    await this.files.remove(before?.avatar);
    return { avatar: null };
  }

  async sendBindSms(auth: AuthContext, phone: string, ip: string | null): Promise<SentSms> {
    const owner = await this.repo.findUserByPhone(phone);
    if (owner?.id === auth.userId) throw new AppError('VALIDATION', ACCOUNT_MESSAGES.phoneSame);
    if (owner) throw new AppError('CONFLICT', ACCOUNT_MESSAGES.phoneTaken);
    return this.sms.send(phone, 'bind', ip);
  }

  async bindPhone(auth: AuthContext, phone: string, code: string): Promise<Profile> {
    const owner = await this.repo.findUserByPhone(phone);
    if (owner && owner.id !== auth.userId) throw new AppError('CONFLICT', ACCOUNT_MESSAGES.phoneTaken);
    await this.sms.consume(phone, 'bind', code);
    try {
      await this.repo.updateUser(auth.userId, { phone }, this.now());
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', ACCOUNT_MESSAGES.phoneTaken);
      throw error;
    }
    return this.profile(auth);
  }

  /** Old + new password; every other session of the account is signed out, this one stays. */
  async changePassword(auth: AuthContext, input: ChangePassword): Promise<void> {
    const user = await this.repo.findUser(auth.userId);
    if (!user || !(await verifyPassword(user.passwordHash, input.oldPassword)))
      throw new AppError('VALIDATION', ACCOUNT_MESSAGES.oldPasswordWrong);
    await this.repo.updateUser(auth.userId, { passwordHash: await hashPassword(input.password) }, this.now());
    await this.auth.revokeUserSessions(auth.userId, 'password_change', auth.sessionId);
  }

  async setDefaultSchool(auth: AuthContext, orgId: string): Promise<Profile> {
    if (!(await this.repo.isMember(orgId, auth.userId))) throw new AppError('FORBIDDEN', MESSAGES.forbidden);
    await this.repo.updateUser(auth.userId, { defaultOrgId: orgId }, this.now());
    return this.profile(auth);
  }

  /** My classes and subjects, groups and directed grades in one of my schools (the current one by default). */
  async myTeaching(auth: AuthContext, orgId?: string): Promise<MyTeaching> {
    const target = orgId ?? auth.orgId;
    const empty: MyTeaching = {
      orgId: null,
      orgName: null,
      subjects: [],
      classes: [],
      teaching: [],
      groups: [],
      gradeDirectorOf: [],
    };
    if (!target) return empty;
    const actor = await this.school.member(auth, target);
    const [org, subjects, classes, groups, grades] = await Promise.all([
      this.schoolRepo.members.findOrg(actor.orgId),
      this.schoolRepo.teaching.memberSubjects(actor.orgId, actor.userId),
      this.schoolRepo.teaching.teachingClasses(actor.orgId, actor.userId),
      this.schoolRepo.groups.groupsOfMembers(actor.orgId),
      this.schoolRepo.members.gradeDirectors(actor.orgId, actor.userId),
    ]);
    const taught = (c: (typeof classes)[number]) => ({
      id: c.id,
      name: c.name,
      grade: gradeOf(c),
      yearId: c.yearId,
      yearName: c.yearName,
    });
    const uniqueClasses = [...new Map(classes.map((c) => [c.id, taught(c)])).values()];
    const subjectOf = (s: (typeof subjects)[number]) => ({
      id: s.id,
      name: s.name,
      stageId: s.stageId,
      stageName: s.stageName,
    });
    return {
      orgId: actor.orgId,
      orgName: org?.name ?? null,
      subjects: subjects.map(subjectOf),
      classes: uniqueClasses,
      teaching: subjects.map((s) => ({
        ...subjectOf(s),
        classes: classes.filter((c) => c.subjectId === s.id).map(taught),
      })),
      groups: groups
        .filter((g) => g.userId === actor.userId)
        .map((g) => {
          const kind = groupKind(g.kind);
          return {
            id: g.id,
            name: g.name,
            kind,
            kindName: GROUP_KIND_NAMES[kind],
            isLeader: g.isLeader,
          };
        }),
      gradeDirectorOf: grades.map((g) => g.grade),
    };
  }

  // ───────────── feedback ─────────────

  async uploadFeedbackImage(auth: AuthContext, data: Buffer): Promise<{ id: string; url: string }> {
    const image = await processImage(data, 'screenshot');
    const relative = this.files.newPath('feedback', 'webp');
    await this.files.write(relative, image);
    const id = newId();
    await this.repo.insertFeedbackImage({
      id,
      userId: auth.userId,
      path: relative,
      createdAt: this.now(),
    });
    return { id, url: fileUrl(relative)! };
  }

  private async present(rows: FeedbackRecord[]): Promise<Feedback[]> {
    const images = await this.repo.imagesOf(rows.map((r) => r.id));
    return rows.map((r) => {
      const status = r.status === 'replied' ? 'replied' : 'pending';
      return {
        id: r.id,
        type: r.type as Feedback['type'],
        content: r.content,
        contact: r.contact,
        images: images.filter((i) => i.feedbackId === r.id).map((i) => ({ id: i.id, url: fileUrl(i.path)! })),
        status,
        statusName: FEEDBACK_STATUS_NAMES[status],
        reply: r.reply,
        repliedBy: r.replier ?? null,
        repliedAt: r.repliedAt,
        createdAt: r.createdAt,
        author: { userId: r.userId, username: r.username, nickname: r.nickname },
        orgId: r.orgId,
      };
    });
  }

  /** Sends feedback to the caller's current school's administrators, with screenshots uploaded before. */
  async createFeedback(auth: AuthContext, input: CreateFeedback & { imageIds: string[] }): Promise<Feedback> {
    const ids = [...new Set(input.imageIds)];
    const images = await this.repo.unattachedImages(auth.userId, ids);
    if (images.length !== ids.length)
      throw new AppError('VALIDATION', ACCOUNT_MESSAGES.feedbackImageNotFound);
    const id = newId();
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      await repo.insertFeedback({
        id,
        orgId: auth.orgId,
        userId: auth.userId,
        type: input.type,
        content: input.content,
        contact: input.contact || null,
        now,
      });
      await repo.attachImages(id, ids);
    });
    const row = await this.repo.findFeedback(id);
    return (await this.present([row!]))[0]!;
  }

  async myFeedback(auth: AuthContext, page: number, size: number) {
    const { feedback, total } = await this.repo.pageFeedback({ userId: auth.userId }, page, size);
    return { records: await this.present(feedback), total, page, size };
  }

  /** The feedback of a school's members (administrators only). */
  async schoolFeedback(
    auth: AuthContext,
    query: { orgId?: string | undefined; status?: string | undefined; page: number; size: number },
  ) {
    const actor = await this.school.access.admin(auth, query.orgId);
    const { feedback, total } = await this.repo.pageFeedback(
      { orgId: actor.orgId, status: query.status },
      query.page,
      query.size,
    );
    return { records: await this.present(feedback), total, page: query.page, size: query.size };
  }

  async replyFeedback(auth: AuthContext, id: string, reply: string): Promise<Feedback> {
    const row = await this.repo.findFeedback(id);
    const actor = await this.school.access.adminOfRow(
      auth,
      row?.orgId ?? undefined,
      ACCOUNT_MESSAGES.feedbackNotFound,
    );
    await this.repo.replyFeedback(id, reply, auth.userId, this.now());
    await this.schoolRepo.auditLog.audit({
      id: newId(),
      orgId: actor.orgId,
      actorId: actor.userId,
      action: 'feedback.reply',
      targetId: id,
      detail: ACCOUNT_TEXT.feedbackReplied(row!.nickname, row!.type),
      createdAt: this.now(),
    });
    const fresh = await this.repo.findFeedback(id);
    if (!fresh) throw notFound(ACCOUNT_MESSAGES.feedbackNotFound);
    return (await this.present([fresh]))[0]!;
  }

  /** A screenshot is read by its uploader and by the administrators of the school its feedback went to. */
  async canReadFeedbackImage(relative: string, auth: AuthContext): Promise<boolean> {
    const image = await this.repo.findImageByPath(relative);
    if (!image) return false;
    if (image.userId === auth.userId) return true;
    if (!image.orgId) return false;
    const membership = await this.schoolRepo.members.findMembership(image.orgId, auth.userId);
    return !!membership && (membership.isAdministrator || membership.isCreator);
  }
}
