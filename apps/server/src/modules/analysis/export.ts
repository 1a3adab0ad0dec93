import ExcelJS from 'exceljs';
import type { AnalysisExport } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import type { AnalysisService } from './service.js';
import { EXPORT_SHEETS as S, EXPORT_TEXT as T } from '../../i18n/analysis-export.js';
import * as tables from './export-tables.js';

// Every analysis table as .xlsx (exceljs): one sheet per table, a bold frozen header, numbers as numbers (rates as
// percentages with a number format, so Excel can still sort and sum them), nulls as empty cells.

type Cell = string | number | null;
export interface Column {
  header: string;
  width?: number;
  /** Format numbers of the column as percentages (rates 0–1). */
  percent?: boolean;
}
export interface SheetTable {
  name: string;
  columns: Column[];
  rows: Cell[][];
}

/** Builds an .xlsx workbook from tables. */
export async function workbook(tables: SheetTable[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = T.creator;
  for (const t of tables) {
    const ws = wb.addWorksheet(t.name.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '), {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    ws.columns = t.columns.map((c) => ({
      header: c.header,
      width: c.width ?? Math.max(8, c.header.length * 2 + 2),
    }));
    ws.getRow(1).font = { bold: true };
    for (const row of t.rows) ws.addRow(row.map((v) => (v === null ? undefined : v)));
    t.columns.forEach((c, i) => {
      if (c.percent) ws.getColumn(i + 1).numFmt = '0.0%';
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The tables and the file name of one export. */
export async function exportTables(
  analysis: AnalysisService,
  auth: AuthContext,
  body: AnalysisExport,
): Promise<{ filename: string; tables: SheetTable[] }> {
  switch (body.table) {
    case 'scores':
    case 'questions':
    case 'classes':
    case 'knowledgePoints':
    case 'critical':
      return homeworkTables(analysis, auth, body);
    case 'details': {
      const d = await analysis.details(auth, body.homeworkId, body.classId);
      return {
        filename: T.fileName(d.homework.title, d.scope.name, S.details),
        tables: [tables.detailsTable(d)],
      };
    }
    case 'commentary': {
      const c = await analysis.commentary(auth, body.homeworkId, body.classId);
      return {
        filename: T.fileName(c.homework.title, c.scope.name, S.commentary),
        tables: tables.commentaryTables(c),
      };
    }
    case 'student': {
      const s = await analysis.studentAnalysis(auth, {
        studentId: body.studentId,
        subjectId: body.subjectId,
      });
      return { filename: T.fileName(s.student.name, S.student), tables: tables.studentTables(s) };
    }
    case 'gradeTrend': {
      const { subjectId, schoolYearId, from, to } = body;
      const g = await analysis.gradeTrend(auth, { subjectId, schoolYearId, from, to, limit: 50 });
      return { filename: T.fileName(g.subjectName, S.gradeTrend), tables: [tables.gradeTrendTable(g)] };
    }
    case 'subjects': {
      const s = await analysis.subjectStats(auth, body);
      return { filename: T.fileName(s.schoolYearName, S.subjects), tables: [tables.subjectsTable(s)] };
    }
    case 'marking': {
      const m = await analysis.markingReport(auth, body.homeworkId);
      return { filename: T.fileName(m.homework.title, S.marking), tables: tables.markingTables(m) };
    }
    case 'averages': {
      const a = await analysis.averageScore(auth, body.homeworkId);
      return { filename: T.fileName(a.homework.title, S.averages), tables: [tables.averagesTable(a)] };
    }
  }
}

type HomeworkTable = Extract<
  AnalysisExport,
  { table: 'scores' | 'questions' | 'classes' | 'knowledgePoints' | 'critical' }
>;

/** The tables of one homework's analysis (a class or the grade). */
async function homeworkTables(
  analysis: AnalysisService,
  auth: AuthContext,
  body: HomeworkTable,
): Promise<{ filename: string; tables: SheetTable[] }> {
  const a = await analysis.homeworkAnalysis(auth, body.homeworkId, body.classId);
  const file = (name: string) => T.fileName(a.homework.title, a.scope.name, name);
  switch (body.table) {
    case 'scores': {
      const d = await analysis.details(auth, body.homeworkId, body.classId);
      return { filename: file(S.scores), tables: [tables.scoresTable(a, d)] };
    }
    case 'questions':
      return { filename: file(S.questions), tables: [tables.questionsTable(a)] };
    case 'classes':
      return { filename: T.fileName(a.homework.title, S.classes), tables: [tables.classesTable(a)] };
    case 'knowledgePoints':
      return { filename: file(S.knowledgePointsFile), tables: [tables.knowledgePointsTable(a)] };
    case 'critical':
      return { filename: file(S.critical), tables: [tables.criticalTable(a)] };
  }
}
