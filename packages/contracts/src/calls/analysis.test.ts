import { describe, expect, it } from 'vitest';
import { AnalysisExportSchema, AnalysisSettingsSchema, MistakeBookPdfSchema } from './analysis.js';

describe('analysis contracts', () => {
  it('defaults the thresholds to 60 %, 70 % and 85 % of full marks and hides ranks', () => {
    expect(AnalysisSettingsSchema.parse({})).toMatchObject({
      passRate: 0.6,
      goodRate: 0.7,
      excellentRate: 0.85,
      showRank: false,
      criticalMode: 'score',
    });
  });

  it('refuses thresholds that do not rise, in Chinese', () => {
    const result = AnalysisSettingsSchema.safeParse({ passRate: 0.8, goodRate: 0.7, excellentRate: 0.9 });
    expect(result.error?.issues[0]?.message).toBe('及格线、良好线、优秀线应依次升高');
  });

  it('tells export tables apart by name', () => {
    expect(AnalysisExportSchema.parse({ table: 'scores', homeworkId: 'h1' })).toEqual({
      table: 'scores',
      homeworkId: 'h1',
    });
    expect(AnalysisExportSchema.safeParse({ table: 'marking' }).success).toBe(false);
  });

  it('asks for students or a class before printing 错题本', () => {
    const result = MistakeBookPdfSchema.safeParse({});
    expect(result.error?.issues[0]?.message).toBe('请选择学生或班级');
  });
});
