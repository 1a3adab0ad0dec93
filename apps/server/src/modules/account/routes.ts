import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_MESSAGES, IMAGE_MAX_BYTES, calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { noStore, ok, registerCall, registerUploadCall, type CallGuards } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import type { FileStore } from '../../plugins/files.js';
import type { SignupLimit } from '../../plugins/rate-limit.js';
import type { SchoolModule } from '../school/routes.js';
import { cropOf } from './images.js';
import { AccountRepository } from './repository.js';
import { AccountService, type AuthFlows } from './service.js';
import { SmsCodes, type DevSmsInbox, type SmsProvider } from './sms.js';

const IMAGE_LIMITS = {
  maxBytes: IMAGE_MAX_BYTES,
  tooLarge: ACCOUNT_MESSAGES.imageTooLarge,
  noFile: ACCOUNT_MESSAGES.noFile,
};

const bytes = (file: Blob | Uint8Array): Buffer =>
  file instanceof Uint8Array ? Buffer.from(file.buffer, file.byteOffset, file.byteLength) : Buffer.alloc(0);

export interface AccountModuleOptions {
  db: Db;
  files: FileStore;
  clock: () => number;
  auth: AuthFlows;
  school: SchoolModule;
  sms: SmsProvider;
  /** Registrations per address and overall. */
  signups: SignupLimit;
  /** The development inbox (embedded provider with the demo seed, outside production); null switches the call off. */
  devInbox: DevSmsInbox | null;
}

/** Registration limits and the development inbox: what the SMS calls need beyond the service. */
export type SmsAccess = Pick<AccountModuleOptions, 'signups' | 'devInbox'>;

/** The caller's address and browser, recorded with a sign-in. */
const client = (request: { ip?: string; headers: Record<string, string | string[] | undefined> }) => ({
  ip: request.ip ?? null,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
});

function smsCalls(
  app: FastifyInstance,
  guards: CallGuards,
  service: AccountService,
  access: SmsAccess,
): void {
  // ── SMS, registration by phone, SMS sign-in, password reset
  // Sending codes has limits of its own (per phone, per address: SmsCodes); registering counts below.
  registerCall(app, guards, calls.sendSms, async ({ body, request }) =>
    ok(await service.sendSms(body, request.ip ?? null)),
  );
  registerCall(app, guards, calls.registerByPhone, async ({ body, request }) => {
    access.signups.take(request.ip ?? null);
    await service.registerByPhone(body);
    return ok(null, ACCOUNT_MESSAGES.registered);
  });
  registerCall(app, guards, calls.smsToken, async ({ body, request, reply }) => {
    noStore(reply);
    return service.smsSignIn(body.phone, body.smsCode, client(request));
  });
  registerCall(app, guards, calls.resetPassword, async ({ body }) => {
    await service.resetPassword(body);
    return ok(null, ACCOUNT_MESSAGES.passwordReset);
  });
  registerCall(app, guards, calls.smsInbox, async ({ query }) => {
    if (!access.devInbox) throw new AppError('NOT_FOUND');
    return ok(access.devInbox.list(query.phone));
  });
}

/** The personal centre: profile and feedback. */
function profileCalls(app: FastifyInstance, guards: CallGuards, service: AccountService): void {
  // ── profile
  registerCall(app, guards, calls.profile, async ({ auth }) => ok(await service.profile(auth)));
  registerCall(app, guards, calls.updateNickname, async ({ auth, body }) =>
    ok(await service.updateNickname(auth, body.nickname)),
  );
  registerCall(app, guards, calls.deleteAvatar, async ({ auth }) => ok(await service.deleteAvatar(auth)));
  registerCall(app, guards, calls.sendBindSms, async ({ auth, body, request }) =>
    ok(await service.sendBindSms(auth, body.phone, request.ip ?? null)),
  );
  registerCall(app, guards, calls.bindPhone, async ({ auth, body }) => {
    const profile = await service.bindPhone(auth, body.phone, body.smsCode);
    return ok(profile, ACCOUNT_MESSAGES.phoneBound);
  });
  registerCall(app, guards, calls.changePassword, async ({ auth, body }) => {
    await service.changePassword(auth, body);
    return ok(null, ACCOUNT_MESSAGES.passwordChanged);
  });
  registerCall(app, guards, calls.setDefaultSchool, async ({ auth, body }) =>
    ok(await service.setDefaultSchool(auth, body.orgId)),
  );
  registerCall(app, guards, calls.myTeaching, async ({ auth, query }) =>
    ok(await service.myTeaching(auth, query.orgId)),
  );

  // ── feedback
  registerCall(app, guards, calls.createFeedback, async ({ auth, body }) =>
    ok(await service.createFeedback(auth, body)),
  );
  registerCall(app, guards, calls.myFeedback, async ({ auth, query }) =>
    ok(await service.myFeedback(auth, query.page, query.size)),
  );
  registerCall(app, guards, calls.schoolFeedback, async ({ auth, query }) =>
    ok(await service.schoolFeedback(auth, query)),
  );
  registerCall(app, guards, calls.replyFeedback, async ({ auth, params, body }) =>
    ok(await service.replyFeedback(auth, params.id, body.reply)),
  );
}

export function accountRoutes(
  app: FastifyInstance,
  guards: CallGuards,
  service: AccountService,
  access: SmsAccess,
): void {
  smsCalls(app, guards, service, access);
  profileCalls(app, guards, service);
}

/** Image uploads: multipart, in their own scope. */
async function uploadRoutes(
  app: FastifyInstance,
  guards: CallGuards,
  service: AccountService,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart);
    registerUploadCall(scope, guards, calls.uploadAvatar, IMAGE_LIMITS, async ({ auth, body }) =>
      ok(await service.uploadAvatar(auth, bytes(body.file), cropOf(body))),
    );
    registerUploadCall(scope, guards, calls.uploadFeedbackImage, IMAGE_LIMITS, async ({ auth, body }) =>
      ok(await service.uploadFeedbackImage(auth, bytes(body.file))),
    );
  });
}

/** Wires accounts and the personal centre: SMS flows under /oauth, profile and feedback under /system/account. */
export async function registerAccount(
  app: FastifyInstance,
  guards: CallGuards,
  options: AccountModuleOptions,
): Promise<AccountService> {
  const repo = new AccountRepository(options.db.kysely);
  const service = new AccountService(
    repo,
    options.school.repository,
    options.school.school,
    new SmsCodes(repo, options.sms, options.clock),
    options.files,
    options.auth,
    options.clock,
  );
  accountRoutes(app, guards, service, options);
  await uploadRoutes(app, guards, service);
  return service;
}
