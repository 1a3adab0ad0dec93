import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PDF_MIME, XLSX_MIME, calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import type { Metrics } from '../../lib/metrics.js';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import { attachmentHeader, cardFonts, safeFilename } from '../homework/card-pdf.js';
import { resultsProgress } from '../results/progress.js';
import type { ObjectStorage } from '../../lib/storage/index.js';
import { PageStorage } from '../scan/storage.js';
import { exportTables, workbook } from './export.js';
import { loadFormulaTypesetter } from '../../lib/math-pdf/tex-svg.js';
import { mistakeBookPdf, reportPdf } from './pdf.js';
import { AnalysisRepository } from './repository.js';
import { AnalysisService, type SimilarLookup } from './service.js';

/** Sends a body already serialised as JSON (views kept in memory, ADR 0021). */
function sendJson<T>(reply: FastifyReply, body: string): T {
  void reply.header('content-type', 'application/json; charset=utf-8').send(body);
  return reply as unknown as T;
}

/** The analysis views, the data centre and the large screen. */
function viewCalls(app: FastifyInstance, guards: CallGuards, analysis: AnalysisService): void {
  registerCall(app, guards, calls.analysisSettings, async ({ auth }) => ok(await analysis.settings(auth)));
  registerCall(app, guards, calls.saveAnalysisSettings, async ({ auth, body }) =>
    ok(await analysis.saveSettings(auth, body)),
  );
  registerCall(app, guards, calls.analysisFilters, async ({ auth, query }) =>
    ok(await analysis.filters(auth, query.schoolYearId)),
  );
  registerCall(app, guards, calls.analysisHomeworks, async ({ auth, query }) =>
    ok(await analysis.homeworks(auth, query)),
  );
  registerCall(app, guards, calls.analysisStudents, async ({ auth, query }) =>
    ok(await analysis.students(auth, query.classId, query.keyword)),
  );
  registerCall(app, guards, calls.homeworkAnalysis, async ({ auth, params, query, reply }) =>
    sendJson(reply, await analysis.viewJson(auth, 'analysis', params.id, query.classId)),
  );
  registerCall(app, guards, calls.gradeTrend, async ({ auth, query }) =>
    ok(await analysis.gradeTrend(auth, query)),
  );
  registerCall(app, guards, calls.classAnalysis, async ({ auth, query }) =>
    ok(await analysis.classAnalysis(auth, query.homeworkId, query.classId)),
  );
  registerCall(app, guards, calls.studentAnalysis, async ({ auth, query }) =>
    ok(await analysis.studentAnalysis(auth, query)),
  );
  registerCall(app, guards, calls.commentary, async ({ auth, params, query, reply }) =>
    sendJson(reply, await analysis.viewJson(auth, 'commentary', params.id, query.classId)),
  );
  registerCall(app, guards, calls.homeworkDetails, async ({ auth, params, query, reply }) =>
    sendJson(reply, await analysis.viewJson(auth, 'details', params.id, query.classId)),
  );
  registerCall(app, guards, calls.answerCrop, async ({ auth, params, reply }) => {
    const { bytes, mime } = await analysis.crop(auth, params.homeworkId, params.studentId, params.questionId);
    void reply.header('content-type', mime).header('cache-control', 'private, max-age=3600').send(bytes);
    return reply as unknown as Uint8Array;
  });
  registerCall(app, guards, calls.printGrade, async ({ auth, params, query }) =>
    ok(await analysis.printGrade(auth, params.id, query.classId, query.order)),
  );
  registerCall(app, guards, calls.mistakeBook, async ({ auth, query }) =>
    ok(await analysis.mistakeBook(auth, query)),
  );
  registerCall(app, guards, calls.subjectStats, async ({ auth, query }) =>
    ok(await analysis.subjectStats(auth, query)),
  );
  registerCall(app, guards, calls.markingReport, async ({ auth, query }) =>
    ok(await analysis.markingReport(auth, query.homeworkId)),
  );
  registerCall(app, guards, calls.averageScore, async ({ auth, query }) =>
    ok(await analysis.averageScore(auth, query.homeworkId)),
  );
  registerCall(app, guards, calls.bigData, async ({ auth }) => ok(await analysis.bigData(auth)));
}

/** Downloads: the workbook export, the report PDF and the 错题本 PDF. */
function exportCalls(app: FastifyInstance, guards: CallGuards, analysis: AnalysisService): void {
  registerCall(app, guards, calls.exportAnalysis, async ({ auth, body, reply }) => {
    const { filename, tables } = await exportTables(analysis, auth, body);
    const bytes = await workbook(tables);
    void reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', attachmentHeader(filename))
      .header('cache-control', 'no-store')
      .send(bytes);
    return reply as unknown as Uint8Array;
  });
  registerCall(app, guards, calls.reportPdf, async ({ auth, params, body, request, reply }) => {
    // Everything that can be refused is checked before the first byte: after it the status is 200 for good.
    const report = await analysis.homeworkAnalysis(auth, params.id, body.classId);
    await loadFormulaTypesetter();
    const stream = reportPdf(report, { fonts: cardFonts() });
    stream.on('error', (err) => request.log.error({ err, homeworkId: params.id }, 'report PDF failed'));
    const filename = safeFilename(ANALYSIS_TEXT.reportFile(report.homework.title, report.scope.name));
    void reply
      .header('content-type', PDF_MIME)
      .header('content-disposition', attachmentHeader(`${filename}.pdf`, 'report.pdf'))
      .header('cache-control', 'no-store')
      .send(stream);
    return reply as unknown as Blob;
  });
  registerCall(app, guards, calls.mistakeBookPdf, async ({ auth, body, request, reply }) => {
    const { books, scopeName, source } = await analysis.mistakeBooks(auth, body);
    const title = safeFilename(ANALYSIS_TEXT.mistakeBookFile(scopeName));
    await loadFormulaTypesetter();
    const stream = mistakeBookPdf(books, { fonts: cardFonts(), title, source });
    stream.on('error', (err) => request.log.error({ err }, 'mistake-book PDF failed'));
    void reply
      .header('content-type', PDF_MIME)
      .header('content-disposition', attachmentHeader(`${title}.pdf`, 'mistake-book.pdf'))
      .header('cache-control', 'no-store')
      .send(stream);
    return reply as unknown as Blob;
  });
}

export function analysisRoutes(app: FastifyInstance, guards: CallGuards, analysis: AnalysisService): void {
  viewCalls(app, guards, analysis);
  exportCalls(app, guards, analysis);
}

export interface AnalysisModuleOptions {
  db: Db;
  dataDir: string;
  /** The host's object store (crops are keys in it); else files under dataDir. */
  storage?: ObjectStorage;
  clock: () => number;
  /** The catalog's similar-question lookup (错题本's 举一反三). */
  similar: SimilarLookup;
  /** Counts cache hits and misses (the host's metrics). */
  metrics?: Metrics;
  /** Cuts a recognised page's crops when one is first read (recognition's `cropOnDemand`). */
  cropOnDemand?: (relative: string) => Promise<boolean>;
}

/** Wires the analysis module: repository, service and routes. */
export function registerAnalysis(app: FastifyInstance, guards: CallGuards, options: AnalysisModuleOptions) {
  const pages = new PageStorage(options.storage ?? options.dataDir, options.cropOnDemand);
  const service = new AnalysisService(
    new AnalysisRepository(options.db.kysely),
    resultsProgress(options.db.kysely),
    options.clock,
    options.similar,
    (relative) => pages.readCrop(relative),
    options.db.kysely,
    (cache) => (result, count) => options.metrics?.analysisCache.inc({ cache, result }, count),
  );
  analysisRoutes(app, guards, service);
  return service;
}
