import ExcelJS from 'exceljs';
import type { AnalysisExport } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import type { AnalysisService } from './service.js';

// Every analysis table as .xlsx (exceljs): one sheet per table, a bold frozen header, numbers as numbers (rates as
// percentages with a number format, so Excel can still sort and sum them), nulls as empty cells.

type Cell = string | number | null;
interface Column {
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
  wb.creator = '智能作业';
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

const rank = (v: number | null) => v ?? '';

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
    case 'critical': {
      const a = await analysis.homeworkAnalysis(auth, body.homeworkId, body.classId);
      const base = `${a.homework.title}-${a.scope.name}`;
      if (body.table === 'scores') {
        const d = await analysis.details(auth, body.homeworkId, body.classId);
        const byId = new Map(d.rows.map((r) => [r.studentId, r]));
        return {
          filename: `${base}-成绩单.xlsx`,
          tables: [
            {
              name: '成绩单',
              columns: [
                { header: '姓名' },
                { header: '学号', width: 14 },
                { header: '班级', width: 14 },
                { header: '状态' },
                { header: '客观题' },
                { header: '主观题' },
                { header: '总分' },
                { header: '得分率', percent: true },
                { header: '班级名次' },
                { header: '年级名次' },
                { header: 'Z分数' },
                { header: 'T分数' },
                ...d.columns.map((c) => ({ header: `第${c.no}题(${c.fullScore}分)`, width: 12 })),
              ],
              rows: a.students.map((s) => [
                s.name,
                s.studentNo,
                s.className,
                s.statusName,
                s.objective,
                s.subjective,
                s.total,
                s.scoreRate,
                rank(s.classRank),
                rank(s.gradeRank),
                s.zScore,
                s.tScore,
                ...(byId.get(s.studentId)?.cells.map((c) => c.score) ?? []),
              ]),
            },
          ],
        };
      }
      if (body.table === 'questions')
        return {
          filename: `${base}-试题分析.xlsx`,
          tables: [
            {
              name: '试题分析',
              columns: [
                { header: '题号' },
                { header: '题型' },
                { header: '满分' },
                { header: '平均分' },
                { header: '得分率', percent: true },
                { header: '难度' },
                { header: '区分度' },
                { header: '区分度评价' },
                { header: '满分人数' },
                { header: '零分人数' },
                { header: '未作答' },
                { header: '正确答案', width: 16 },
                { header: '典型错误', width: 24 },
                { header: '知识点', width: 30 },
              ],
              rows: a.questions.map((q) => [
                q.no,
                q.typeName,
                q.fullScore,
                q.average,
                q.scoreRate,
                q.difficultyName,
                q.discrimination,
                q.discriminationName,
                q.fullCount,
                q.zeroCount,
                q.blankCount,
                q.objective ? q.correctAnswer : '',
                q.typicalWrong.map((w) => `${w.response || '未作答'}(${w.count}人)`).join('，'),
                q.knowledgePoints.map((k) => k.name).join('、'),
              ]),
            },
          ],
        };
      if (body.table === 'classes')
        return {
          filename: `${a.homework.title}-班级对比.xlsx`,
          tables: [
            {
              name: '班级对比',
              columns: [
                { header: '名次' },
                { header: '班级', width: 14 },
                { header: '任课教师', width: 14 },
                { header: '人数' },
                { header: '实考' },
                { header: '平均分' },
                { header: '超均率', percent: true },
                { header: '最高分' },
                { header: '最低分' },
                { header: '中位数' },
                { header: '标准差' },
                { header: '及格率', percent: true },
                { header: '良好率', percent: true },
                { header: '优秀率', percent: true },
              ],
              rows: a.classes.map((c) => [
                c.rank,
                c.className,
                c.teacherNames,
                c.stats.studentCount,
                c.stats.scoredCount,
                c.stats.average,
                c.overAverageRate,
                c.stats.max,
                c.stats.min,
                c.stats.median,
                c.stats.standardDeviation,
                c.stats.passRate,
                c.stats.goodRate,
                c.stats.excellentRate,
              ]),
            },
          ],
        };
      if (body.table === 'knowledgePoints')
        return {
          filename: `${base}-知识点.xlsx`,
          tables: [
            {
              name: '知识点掌握',
              columns: [
                { header: '知识点', width: 24 },
                { header: '题号', width: 16 },
                { header: '分值' },
                { header: '得分率', percent: true },
                { header: '年级得分率', percent: true },
                { header: '掌握情况' },
              ],
              rows: a.knowledgePoints.map((k) => [
                k.name,
                k.questionNos.join('、'),
                k.fullScore,
                k.scoreRate,
                k.gradeScoreRate,
                k.masteryName,
              ]),
            },
          ],
        };
      return {
        filename: `${base}-临界生.xlsx`,
        tables: [
          {
            name: '临界生',
            columns: [
              { header: '姓名' },
              { header: '学号', width: 14 },
              { header: '班级', width: 14 },
              { header: '总分' },
              { header: '得分率', percent: true },
              { header: '年级名次' },
              { header: '临界线' },
              { header: '线值' },
              { header: '差距' },
            ],
            rows: a.criticalStudents.map((c) => [
              c.name,
              c.studentNo,
              c.className,
              c.total,
              c.scoreRate,
              rank(c.gradeRank),
              c.line,
              c.lineValue,
              c.gap,
            ]),
          },
        ],
      };
    }
    case 'details': {
      const d = await analysis.details(auth, body.homeworkId, body.classId);
      return {
        filename: `${d.homework.title}-${d.scope.name}-作业详情.xlsx`,
        tables: [
          {
            name: '作业详情',
            columns: [
              { header: '姓名' },
              { header: '学号', width: 14 },
              { header: '班级', width: 14 },
              { header: '总分' },
              ...d.columns.map((c) => ({ header: `第${c.no}题`, width: 10 })),
            ],
            rows: d.rows.map((r) => [
              r.name,
              r.studentNo,
              r.className,
              r.total,
              ...r.cells.map((c) =>
                c.score === null ? null : c.response ? `${c.score}（${c.response}）` : c.score,
              ),
            ]),
          },
        ],
      };
    }
    case 'commentary': {
      const c = await analysis.commentary(auth, body.homeworkId, body.classId);
      return {
        filename: `${c.homework.title}-${c.scope.name}-讲评.xlsx`,
        tables: [
          {
            name: '讲评顺序',
            columns: [
              { header: '讲评顺序' },
              { header: '题号' },
              { header: '题型' },
              { header: '满分' },
              { header: '人均失分' },
              { header: '得分率', percent: true },
              { header: '错误人数' },
              { header: '错误选项分布', width: 30 },
              { header: '需重点讲评' },
            ],
            rows: c.questions.map((q) => [
              q.priority,
              q.no,
              q.typeName,
              q.fullScore,
              q.lostScore,
              q.scoreRate,
              q.wrongCount,
              q.wrongResponses.map((w) => `${w.response || '未作答'}：${w.count}人`).join('，'),
              q.needsDiscussion ? '是' : '否',
            ]),
          },
          {
            name: '需关注学生',
            columns: [
              { header: '姓名' },
              { header: '学号', width: 14 },
              { header: '班级', width: 14 },
              { header: '总分' },
              { header: '得分率', percent: true },
              { header: '原因', width: 36 },
            ],
            rows: c.followUp.map((f) => [
              f.name,
              f.studentNo,
              f.className,
              f.total,
              f.scoreRate,
              f.reasonText,
            ]),
          },
        ],
      };
    }
    case 'student': {
      const s = await analysis.studentAnalysis(auth, {
        studentId: body.studentId,
        subjectId: body.subjectId,
      });
      return {
        filename: `${s.student.name}-学情分析.xlsx`,
        tables: [
          {
            name: '成绩趋势',
            columns: [
              { header: '作业', width: 24 },
              { header: '学科' },
              { header: '日期', width: 12 },
              { header: '满分' },
              { header: '得分' },
              { header: '得分率', percent: true },
              { header: '班级平均' },
              { header: '年级平均' },
              { header: '班级名次' },
              { header: '年级名次' },
              { header: 'Z分数' },
              { header: 'T分数' },
            ],
            rows: s.trend.map((t) => [
              t.title,
              t.subjectName,
              t.date,
              t.fullScore,
              t.total,
              t.scoreRate,
              t.classAverage,
              t.gradeAverage,
              rank(t.classRank),
              rank(t.gradeRank),
              t.zScore,
              t.tScore,
            ]),
          },
          {
            name: '知识点掌握',
            columns: [
              { header: '知识点', width: 24 },
              { header: '作答次数' },
              { header: '得分率', percent: true },
              { header: '年级得分率', percent: true },
              { header: '掌握情况' },
            ],
            rows: s.knowledgePoints.map((k) => [
              k.name,
              k.questionCount,
              k.scoreRate,
              k.gradeScoreRate,
              k.masteryName,
            ]),
          },
          {
            name: '错题',
            columns: [
              { header: '作业', width: 24 },
              { header: '日期', width: 12 },
              { header: '题号' },
              { header: '题型' },
              { header: '作答' },
              { header: '得分' },
              { header: '满分' },
              { header: '年级得分率', percent: true },
            ],
            rows: s.wrongQuestions.map((w) => [
              w.homeworkTitle,
              w.date,
              w.no,
              w.typeName,
              w.response ?? '',
              w.score,
              w.fullScore,
              w.gradeScoreRate,
            ]),
          },
        ],
      };
    }
    case 'gradeTrend': {
      const g = await analysis.gradeTrend(auth, {
        subjectId: body.subjectId,
        schoolYearId: body.schoolYearId,
        from: body.from,
        to: body.to,
        limit: 50,
      });
      return {
        filename: `${g.subjectName}-成绩走势.xlsx`,
        tables: [
          {
            name: '成绩走势',
            columns: [
              { header: '作业', width: 24 },
              { header: '日期', width: 12 },
              { header: '实考' },
              { header: '年级平均' },
              { header: '得分率', percent: true },
              { header: '及格率', percent: true },
              ...g.classes.map((c) => ({ header: `${c.name}平均`, width: 14 })),
            ],
            rows: g.points.map((p) => [
              p.title,
              p.date,
              p.scoredCount,
              p.average,
              p.scoreRate,
              p.passRate,
              ...g.classes.map((c) => p.classes.find((x) => x.classId === c.id)?.average ?? null),
            ]),
          },
        ],
      };
    }
    case 'subjects': {
      const s = await analysis.subjectStats(auth, body);
      return {
        filename: `${s.schoolYearName}-学科统计.xlsx`,
        tables: [
          {
            name: '学科统计',
            columns: [
              { header: '学科' },
              { header: '作业数' },
              { header: '考试数' },
              { header: '已完成' },
              { header: '答卷数' },
              { header: '得分率', percent: true },
              { header: '及格率', percent: true },
              { header: '良好率', percent: true },
              { header: '优秀率', percent: true },
            ],
            rows: s.subjects.map((x) => [
              x.subjectName,
              x.homeworkCount,
              x.testCount,
              x.doneCount,
              x.sheetCount,
              x.scoreRate,
              x.passRate,
              x.goodRate,
              x.excellentRate,
            ]),
          },
        ],
      };
    }
    case 'marking': {
      const m = await analysis.markingReport(auth, body.homeworkId);
      return {
        filename: `${m.homework.title}-阅卷报告.xlsx`,
        tables: [
          {
            name: '阅卷教师',
            columns: [
              { header: '教师' },
              { header: '已阅' },
              { header: '题号', width: 16 },
              { header: '给分得分率', percent: true },
              { header: '同题平均', percent: true },
              { header: '偏差' },
              { header: '趋中比例', percent: true },
              { header: '评价' },
            ],
            rows: m.markers.map((x) => [
              x.name,
              x.scoredCount,
              x.questionNos.join('、'),
              x.scoreRate,
              x.peerScoreRate,
              x.deviation,
              x.middleShare,
              x.indicatorName,
            ]),
          },
          {
            name: '题目进度',
            columns: [
              { header: '题号' },
              { header: '题型' },
              { header: '满分' },
              { header: '总数' },
              { header: '已阅' },
              { header: '未阅' },
              { header: '进度', percent: true },
              { header: '平均分' },
              { header: '阅卷教师', width: 24 },
            ],
            rows: m.questions.map((q) => [
              q.no,
              q.typeName,
              q.fullScore,
              q.total,
              q.scored,
              q.remaining,
              q.progress,
              q.average,
              q.markers.map((x) => `${x.name}(${x.count})`).join('、'),
            ]),
          },
        ],
      };
    }
    case 'averages': {
      const a = await analysis.averageScore(auth, body.homeworkId);
      return {
        filename: `${a.homework.title}-班级均分对比.xlsx`,
        tables: [
          {
            name: '小题得分率',
            columns: [
              { header: '题号' },
              { header: '满分' },
              { header: '年级', percent: true },
              ...a.classes.map((c) => ({ header: c.className, width: 14, percent: true })),
            ],
            rows: a.questions.map((q) => [
              q.no,
              q.fullScore,
              q.gradeScoreRate,
              ...a.classes.map((c) => q.classes.find((x) => x.classId === c.classId)?.scoreRate ?? null),
            ]),
          },
        ],
      };
    }
  }
}
