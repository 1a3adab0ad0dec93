import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { connect, type Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import type { CallGuards } from './lib/call.js';
import { registerAccount } from './modules/account/routes.js';
import { DevSmsInbox, LogSmsProvider, type SmsProvider } from './modules/account/sms.js';
import { AuthRepository } from './modules/auth/repository.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService, type CaptchaMaker } from './modules/auth/service.js';
import { BasketRepository } from './modules/basket/repository.js';
import { basketRoutes } from './modules/basket/routes.js';
import { BasketService } from './modules/basket/service.js';
import { CatalogRepository } from './modules/catalog/repository.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { CatalogService } from './modules/catalog/service.js';
import { HomeworkRepository } from './modules/homework/repository.js';
import { registerHomework } from './modules/homework/routes.js';
import { recentHomeworkQuestions } from './modules/homework/service.js';
import { registerPapers } from './modules/papers/routes.js';
import { seedPaperTemplates } from './modules/papers/templates.js';
import { scheduleQuestionMaintenance } from './modules/questions/maintenance.js';
import { QuestionsRepository } from './modules/questions/repository.js';
import { questionRoutes } from './modules/questions/routes.js';
import { QuestionsService } from './modules/questions/service.js';
import { registerScan } from './modules/scan/routes.js';
import { registerSchool } from './modules/school/routes.js';
import { seedSchoolDemo } from './modules/school/seed.js';
import { SystemRepository } from './modules/system/repository.js';
import { systemRoutes } from './modules/system/routes.js';
import { SystemService } from './modules/system/service.js';
import { registerErrorHandler } from './plugins/errors.js';
import { FileStore, registerFiles } from './plugins/files.js';
import { registerWebApp } from './plugins/web.js';
import { seedCatalog } from './seed/catalog.js';
import { seedDemoSchool } from './seed/demo.js';

export interface AppOptions {
  config: Config;
  /** An open database (tests); otherwise the configuration's database is opened and closed with the app. */
  db?: Db;
  /** Clock in ms since epoch (tests move time forward). */
  clock?: () => number;
  /** Image-captcha drawing (tests supply a known text). */
  makeCaptcha?: CaptchaMaker;
  /** The SMS gateway; the embedded default writes codes to the log (and, in development, to the inbox call). */
  smsProvider?: SmsProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** Builds the host: database, migrations, seeds, plugins, then routes. Listening is server.ts's job. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? Date.now;
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] },
    trustProxy: config.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
  });

  const ownsDb = !options.db;
  const db =
    options.db ??
    connect({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      onIdleError: (err) => app.log.warn({ err }, 'idle database connection failed; it will be replaced'),
    });
  app.decorate('db', db);
  if (ownsDb) app.addHook('onClose', () => db.close());

  await migrateToLatest(db);
  await seedCatalog(db.kysely, clock);
  await seedPaperTemplates(db.kysely, db.dialect, clock);
  if (config.SEED_DEMO) {
    const seeded = await seedDemoSchool(db.kysely, clock);
    if (seeded) app.log.info('seeded 演示学校 with demo accounts');
    if (await seedSchoolDemo(db.kysely, clock))
      app.log.info('seeded 演示学校 teaching groups and assignments');
  }

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandler(app);
  await app.register(formbody);

  const authService = new AuthService(
    new AuthRepository(db.kysely),
    {
      clientId: config.OAUTH_CLIENT_ID,
      clientSecret: config.OAUTH_CLIENT_SECRET,
      accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
    },
    clock,
    options.makeCaptcha,
  );
  const guards: CallGuards = {
    authenticate: (request) => authService.authenticate(request.headers.authorization),
    checkClient: (request) => authService.checkClient(request.headers.authorization),
  };
  const catalogRepository = new CatalogRepository(db.kysely, db.dialect);

  app.get('/health', async () => ({ status: 'ok' }));

  authRoutes(app, guards, authService);
  systemRoutes(app, guards, new SystemService(new SystemRepository(db.kysely)));
  const questionsRepository = new QuestionsRepository(db.kysely, db.dialect);
  catalogRoutes(app, guards, new CatalogService(catalogRepository, questionsRepository));
  questionRoutes(app, guards, new QuestionsService(questionsRepository, clock));
  // Questions written without search tokens are indexed, recycle bins purged: now and daily.
  await scheduleQuestionMaintenance(app, questionsRepository, clock);
  basketRoutes(app, guards, new BasketService(new BasketRepository(db.kysely), catalogRepository, clock));
  // Smart composition avoids questions the chosen classes had in their latest homework.
  await registerPapers(app, guards, {
    db,
    clock,
    recentHomework: recentHomeworkQuestions(new HomeworkRepository(db.kysely)),
  });

  await registerScan(app, guards, { db, dataDir: config.DATA_DIR, clock });
  registerHomework(app, guards, { db, clock });

  // Schools, teams, invitations and the personal centre; stored images under /files/.
  const files = new FileStore(config.DATA_DIR);
  const devInbox =
    config.SEED_DEMO && process.env.NODE_ENV !== 'production' && !options.smsProvider
      ? new DevSmsInbox()
      : null;
  const school = await registerSchool(app, guards, {
    db,
    files,
    clock,
    verifyCaptcha: (key, code) => authService.verifyCaptcha(key, code),
  });
  const account = await registerAccount(app, guards, {
    db,
    files,
    clock,
    auth: authService,
    school,
    sms: options.smsProvider ?? new LogSmsProvider(app.log, devInbox, clock),
    devInbox,
  });
  registerFiles(app, guards, {
    store: files,
    privateChecks: { feedback: (relative, auth) => account.canReadFeedbackImage(relative, auth) },
  });

  await registerWebApp(app, config.WEB_DIST);
  return app;
}
