import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { connect, type Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { refuseNulCharacters, type CallGuards } from './lib/call.js';
import { InProcessJobQueue, type JobQueue } from './lib/jobs.js';
import { Metrics } from './lib/metrics.js';
import { PgBossJobQueue } from './lib/pg-boss-queue.js';
import { DocumentSandbox } from './lib/sandbox/pool.js';
import { createStorage, type ObjectStorage } from './lib/storage/index.js';
import { registerAccount } from './modules/account/routes.js';
import { registerAgentDownloads } from './modules/agent-download/routes.js';
import { registerAnalysis } from './modules/analysis/routes.js';
import { registerRehearsal } from './modules/analysis/rehearse.js';
import { seedAnalysisDemo } from './modules/analysis/seed.js';
import { DevSmsInbox, LogSmsProvider, type SmsProvider } from './modules/account/sms.js';
import { AuthRepository } from './modules/auth/repository.js';
import { authRoutes } from './modules/auth/routes.js';
import { AUTH_WATCHED_TABLES, AuthService, type CaptchaMaker } from './modules/auth/service.js';
import { BasketRepository } from './modules/basket/repository.js';
import { basketRoutes } from './modules/basket/routes.js';
import { BasketService } from './modules/basket/service.js';
import { CatalogRepository } from './modules/catalog/repository.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { CatalogService } from './modules/catalog/service.js';
import { registerMaterials } from './modules/materials/routes.js';
import { seedMaterialsDemo } from './modules/materials/seed.js';
import { HomeworkRepository } from './modules/homework/repository.js';
import { registerHomework } from './modules/homework/routes.js';
import { registerPaperMarking } from './modules/paper-marking/routes.js';
import type { PaperMarkingService } from './modules/paper-marking/service.js';
import { registerMarking } from './modules/marking/routes.js';
import { seedMarkingDemo } from './modules/marking/seed.js';
import { recentHomeworkQuestions } from './modules/homework/service.js';
import { registerPapers } from './modules/papers/routes.js';
import { resultsProgress } from './modules/results/progress.js';
import { seedSharedDemoPapers } from './modules/papers/seed.js';
import type { PapersService } from './modules/papers/service.js';
import { seedPaperTemplates } from './modules/papers/templates.js';
import { scheduleQuestionMaintenance } from './modules/questions/maintenance.js';
import { QuestionsRepository } from './modules/questions/repository.js';
import { questionRoutes } from './modules/questions/routes.js';
import { QuestionsService } from './modules/questions/service.js';
import { registerRecognition } from './modules/recognition/routes.js';
import { registerScan } from './modules/scan/routes.js';
import { PageStorage } from './modules/scan/storage.js';
import { registerSchool } from './modules/school/routes.js';
import { seedSchoolDemo } from './modules/school/seed.js';
import { SystemRepository } from './modules/system/repository.js';
import { systemRoutes } from './modules/system/routes.js';
import { SystemService } from './modules/system/service.js';
import { registerCompression } from './plugins/compression.js';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './plugins/errors.js';
import { registerEtags } from './plugins/etag.js';
import { logOptions } from './plugins/log-redaction.js';
import { SignupLimit, registerRateLimit } from './plugins/rate-limit.js';
import { registerOperations } from './plugins/operations.js';
import { FileStore, registerFiles } from './plugins/files.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerWebApp } from './plugins/web.js';
import { seedCatalog } from './seed/catalog.js';
import { seedDemoSchool } from './seed/demo.js';
import { LOG_NAMES } from './i18n/messages.js';

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
  /** Background jobs; in this process unless production gives a shared queue. */
  jobs?: JobQueue;
  /** An object store (tests); otherwise the configuration's (DATA_DIR or S3), closed with the app. */
  storage?: ObjectStorage;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    jobs: JobQueue;
    /** Page images and stored files: DATA_DIR on disk, or an S3-compatible bucket shared by every instance. */
    storage: ObjectStorage;
    /** Prometheus metrics of this instance (served by `/metrics` and the admin port). */
    metrics: Metrics;
    /** True from the moment a shutdown starts (`/ready` answers 503). */
    isClosing: () => boolean;
  }
}

/** The general limit's per-account count, taken by the bearer check. */
type ApiRateLimit = ReturnType<typeof registerRateLimit>;

/** What every module of the host is wired with. */
interface Host {
  app: FastifyInstance;
  config: Config;
  clock: () => number;
  db: Db;
  storage: ObjectStorage;
  jobs: JobQueue;
  metrics: Metrics;
}

function createFastify(config: Config): FastifyInstance {
  const trusted = config.TRUST_PROXY;
  const app = Fastify({
    logger: logOptions(config.LOG_LEVEL),
    // Only the configured proxies: a hop count becomes "the nearest n hops", never "whoever sent the header".
    trustProxy: typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : trusted,
    clientErrorHandler: answerClientError,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    // Start-up work (migrations, worker pools, spool recovery) may be slow on a busy machine; never abort it at 10 s.
    pluginTimeout: 120_000,
  });

  // The first hook of a shutdown: from this moment /ready answers 503 so load balancers send no more requests,
  // while running requests and jobs finish.
  let closing = false;
  app.decorate('isClosing', () => closing);
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  return app;
}

/** The database, metrics, job queue and object store, each closed with the app when the app opened it. */
async function openInfrastructure(app: FastifyInstance, options: AppOptions): Promise<Host> {
  const { config } = options;
  const ownsDb = !options.db;
  const db =
    options.db ??
    connect({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
      onIdleError: (err) => app.log.warn({ err }, 'idle database connection failed; it will be replaced'),
    });
  app.decorate('db', db);
  const onJobError = (name: string, err: unknown) =>
    app.log.error({ err, job: name }, 'background job failed');
  // Several instances share pg-boss's queue in PostgreSQL; the embedded default runs jobs in this process.
  const metrics = new Metrics({ poolStats: db.poolStats });
  app.decorate('metrics', metrics);
  const queue =
    options.jobs ??
    (config.JOB_QUEUE === 'pg-boss'
      ? await PgBossJobQueue.start({
          connectionString: config.DATABASE_URL!,
          schema: config.JOB_QUEUE_SCHEMA,
          pollingIntervalSeconds: config.JOB_POLL_SECONDS,
          closeTimeoutSeconds: config.SHUTDOWN_TIMEOUT_SECONDS,
          onError: onJobError,
        })
      : new InProcessJobQueue(onJobError));
  const jobs = metrics.meterJobs(queue);
  app.decorate('jobs', jobs);
  // Running jobs finish before the database closes.
  app.addHook('preClose', () => jobs.close());
  if (ownsDb) app.addHook('onClose', () => db.close());

  const storage = options.storage ?? (await createStorage(config));
  app.decorate('storage', storage);
  if (!options.storage) app.addHook('onClose', () => storage.close());
  return { app, config, clock: options.clock ?? Date.now, db, storage, jobs, metrics };
}

/**
 * Replicas started together take turns: one migrates and seeds, the others then find it done. The returned
 * release is called once the last seed has run (or when a failed start-up closes the app).
 */
async function holdStartupLock(app: FastifyInstance, db: Db): Promise<() => Promise<void>> {
  const unlockStartup = await db.startupLock();
  let startupLocked = true;
  const releaseStartup = async () => {
    if (!startupLocked) return;
    startupLocked = false;
    await unlockStartup();
  };
  app.addHook('onClose', releaseStartup);
  return releaseStartup;
}

/** Migrations, the catalogue and templates; with SEED_DEMO the demo school, its groups and materials. */
async function migrateAndSeed({ app, config, clock, db, storage }: Host): Promise<void> {
  await migrateToLatest(db);
  await seedCatalog(db.kysely, clock, { checkedBank: config.SEED_CHECKED_BANK });
  await seedPaperTemplates(db.kysely, db.dialect, clock);
  if (!config.SEED_DEMO) return;
  const seeded = await seedDemoSchool(db.kysely, clock);
  if (seeded) app.log.info(`seeded ${LOG_NAMES.demoSchool} with demo accounts`);
  if (await seedSchoolDemo(db.kysely, clock))
    app.log.info(`seeded ${LOG_NAMES.demoSchool} teaching groups and assignments`);
  if (await seedMaterialsDemo(db.kysely, storage, clock))
    app.log.info(`seeded ${LOG_NAMES.demoSchool} materials`);
}

/** Request ids, security headers, errors, rate limits, form bodies, ETags and compression. */
async function registerPlugins({ app, config, clock }: Host): Promise<ApiRateLimit> {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerSecurityHeaders(app, {
    hstsMaxAge: config.HSTS_MAX_AGE,
    connectSrc: config.CSP_CONNECT_SRC.split(' ').filter(Boolean),
  });
  registerErrorHandler(app);
  // The general limit per caller; the bearer check below adds the per-account count.
  const rateLimit = registerRateLimit(app, config.RATE_LIMIT_PER_MINUTE, clock);
  refuseNulCharacters(app);
  await app.register(formbody);
  registerEtags(app);
  await registerCompression(app);
  return rateLimit;
}

/** The OAuth service and the guards every call is checked with (bearer plus per-account rate limit). */
function createAuth(
  { config, clock, db }: Host,
  rateLimit: ApiRateLimit,
  makeCaptcha: CaptchaMaker | undefined,
): { authService: AuthService; guards: CallGuards } {
  const authService = new AuthService(
    new AuthRepository(db.kysely),
    {
      clientId: config.OAUTH_CLIENT_ID,
      clientSecret: config.OAUTH_CLIENT_SECRET,
      accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
      verifiedTokenSeconds: config.VERIFIED_TOKEN_SECONDS,
    },
    clock,
    makeCaptcha,
  );
  // Every write of the rows a verified caller depends on, by any module, drops the verified tokens (ADR 0078).
  db.writes.on(AUTH_WATCHED_TABLES, () => authService.forgetVerifiedTokens());
  const guards: CallGuards = {
    authenticate: async (request) => {
      const caller = await authService.authenticate(request.headers.authorization);
      rateLimit.perUser(caller.userId);
      return caller;
    },
    checkClient: (request) => authService.checkClient(request.headers.authorization),
  };
  return { authService, guards };
}

/** What the question-bank modules hand on to the modules wired after them. */
interface BankModules {
  catalog: CatalogService;
  papers: PapersService;
  documents: DocumentSandbox;
}

/** System, catalogue, questions, basket and papers (with the shared demo papers). */
async function registerBankModules(host: Host, guards: CallGuards): Promise<BankModules> {
  const { app, config, clock, db } = host;
  registerAgentDownloads(app, { dir: config.AGENT_PACKAGES_DIR });
  systemRoutes(app, guards, new SystemService(new SystemRepository(db.kysely)));
  const catalogRepository = new CatalogRepository(db.kysely, db.dialect);
  const questionsRepository = new QuestionsRepository(db.kysely, db.dialect);
  catalogRoutes(app, guards, new CatalogService(catalogRepository, questionsRepository));
  questionRoutes(app, guards, new QuestionsService(questionsRepository, clock));
  // Questions written without search tokens are indexed, recycle bins purged: now and daily.
  await scheduleQuestionMaintenance(app, questionsRepository, clock);
  basketRoutes(app, guards, new BasketService(new BasketRepository(db.kysely), catalogRepository, clock));
  // Smart composition avoids questions the chosen classes had in their latest homework.
  // Word, PDF and workbook conversions run in child processes with memory and time limits (ADR 0041).
  const documents = new DocumentSandbox({ size: config.DOCUMENT_WORKERS });
  app.addHook('onClose', () => documents.close());
  const papers = await registerPapers(app, guards, {
    db,
    clock,
    documents,
    recentHomework: recentHomeworkQuestions(new HomeworkRepository(db.kysely)),
  });
  if (
    config.SEED_DEMO &&
    config.SEED_DEMO_RESULTS &&
    (await seedSharedDemoPapers({ db: db.kysely, papers, clock }))
  )
    app.log.info(`seeded ${LOG_NAMES.demoSchool} shared papers`);
  return { catalog: new CatalogService(catalogRepository, questionsRepository), papers, documents };
}

/** Recognition, scanning, homework and marking (with the scanned demo test). */
async function registerScanningModules(host: Host, guards: CallGuards, papers: PapersService) {
  const { app, config, clock, db, storage, jobs } = host;
  // Every stored page is queued for recognition in the worker pool; 纸上批阅 takes the score boxes of each.
  const late: { paperMarking?: PaperMarkingService } = {};
  const recognition = await registerRecognition(app, guards, {
    paperScores: () => late.paperMarking,
    db,
    jobs,
    dataDir: config.DATA_DIR,
    storage,
    clock,
    workers: config.RECOGNITION_WORKERS,
    workerMemoryMb: config.RECOGNITION_WORKER_MEMORY_MB,
  });
  late.paperMarking = registerPaperMarking(app, guards, {
    db,
    dataDir: config.DATA_DIR,
    storage,
    clock,
    cutCrops: (bytes, result) => recognition.pool.cutCrops(bytes, result),
  });
  await registerScan(app, guards, {
    db,
    dataDir: config.DATA_DIR,
    storage,
    clock,
    onPageStored: recognition.onPageStored,
  });
  const homework = registerHomework(app, guards, { db, clock, progress: resultsProgress(db.kysely) });
  registerMarking(app, guards, {
    db,
    dataDir: config.DATA_DIR,
    storage,
    clock,
    cropOnDemand: recognition.cropOnDemand,
  });
  if (config.SEED_DEMO && config.SEED_DEMO_SCANS) {
    const pages = new PageStorage(storage);
    if (await seedMarkingDemo({ db: db.kysely, papers, homework, pages, clock }))
      app.log.info(`seeded ${LOG_NAMES.demoSchool} with a scanned test in ${LOG_NAMES.marking}`);
  }
  return { recognition, homework };
}

/** Learning analysis, the data centre, the large screen, score sheets, 错题本 and exports (with demo results). */
async function registerAnalysisModules(
  host: Host,
  guards: CallGuards,
  { catalog, papers }: BankModules,
  { recognition, homework }: Awaited<ReturnType<typeof registerScanningModules>>,
): Promise<void> {
  const { app, config, clock, db, storage, metrics } = host;
  const analysis = registerAnalysis(app, guards, {
    db,
    dataDir: config.DATA_DIR,
    storage,
    clock,
    metrics,
    cropOnDemand: recognition.cropOnDemand,
    similar: (auth, questionId, size, exclude) => catalog.similar(auth, questionId, { size, exclude }),
  });
  // 错题重练 「发布为作业」: a paper of wrong questions published through the papers and homework services.
  registerRehearsal(app, guards, { analysis, papers, homework });
  if (config.SEED_DEMO && config.SEED_DEMO_RESULTS) {
    const pages = new PageStorage(storage);
    if (await seedAnalysisDemo({ db: db.kysely, clock, papers, homework, pages }))
      app.log.info(`seeded ${LOG_NAMES.demoSchool} demo homework with results`);
  }
}

/** Schools, teams, invitations and the personal centre; school materials; stored images under /files/. */
async function registerSchoolModules(
  host: Host,
  guards: CallGuards,
  shared: { authService: AuthService; signups: SignupLimit; smsProvider?: SmsProvider } & BankModules,
): Promise<void> {
  const { app, config, clock, db, storage } = host;
  const files = new FileStore(storage);
  const devInbox =
    config.SEED_DEMO && process.env.NODE_ENV !== 'production' && !shared.smsProvider
      ? new DevSmsInbox()
      : null;
  const school = await registerSchool(app, guards, {
    db,
    files,
    clock,
    verifyCaptcha: (key, code) => shared.authService.verifyCaptcha(key, code),
    documents: shared.documents,
    publicUrl: config.PUBLIC_URL,
    signups: shared.signups,
  });
  const account = await registerAccount(app, guards, {
    db,
    files,
    clock,
    auth: shared.authService,
    school,
    sms: shared.smsProvider ?? new LogSmsProvider(app.log, devInbox, clock),
    devInbox,
    signups: shared.signups,
  });
  // School materials and binding (papers come through the papers module's own access rules).
  await registerMaterials(app, guards, {
    db,
    dataDir: config.DATA_DIR,
    storage,
    clock,
    school,
    papers: shared.papers,
    documents: shared.documents,
  });
  registerFiles(app, guards, {
    store: files,
    privateChecks: { feedback: (relative, auth) => account.canReadFeedbackImage(relative, auth) },
  });
}

/** Builds the host: database, migrations, seeds, plugins, then routes. Listening is server.ts's job. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = createFastify(config);
  const host = await openInfrastructure(app, options);
  const releaseStartup = await holdStartupLock(app, host.db);
  await migrateAndSeed(host);

  const rateLimit = await registerPlugins(host);
  const { authService, guards } = createAuth(host, rateLimit, options.makeCaptcha);
  app.get('/health', async () => ({ status: 'ok' }));
  // /ready, /metrics (behind METRICS_TOKEN) and per-route request metrics.
  registerOperations(app, {
    metrics: host.metrics,
    metricsToken: config.METRICS_TOKEN,
    isClosing: app.isClosing,
  });

  // New accounts per address and overall: password, phone and invitation registration.
  const signups = new SignupLimit(config.REGISTER_PER_ADDRESS_PER_HOUR, config.REGISTER_PER_HOUR, host.clock);
  authRoutes(app, guards, authService, signups);
  const bank = await registerBankModules(host, guards);
  const scanning = await registerScanningModules(host, guards, bank.papers);
  await registerAnalysisModules(host, guards, bank, scanning);
  await releaseStartup();

  await registerSchoolModules(host, guards, {
    authService,
    signups,
    smsProvider: options.smsProvider,
    ...bank,
  });
  await registerWebApp(app, config.WEB_DIST);
  return app;
}
