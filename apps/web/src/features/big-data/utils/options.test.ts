import { describe, expect, it } from 'vitest';
import type { BigData } from '@zhzy/contracts';
import { bandsOption, classesOption, subjectsOption, trendOption } from './options';

const look = { dark: true, font: 13 };
type Series = { name: string; data: unknown[]; type: string }[];
const seriesOf = (o: unknown) => (o as { series: Series }).series;

describe('large-screen chart options', () => {
  it('draws the daily score rate as percentages with the sheets on a second axis', () => {
    const trend: BigData['scoreTrend'] = [
      { date: '2026-10-01', scoreRate: 0.6123, sheets: 80 },
      { date: '2026-10-08', scoreRate: 0.72, sheets: 120 },
    ];
    const o = trendOption(trend, look) as { xAxis: { data: string[] } };
    expect(o.xAxis.data).toEqual(['10-01', '10-08']);
    expect(seriesOf(o)[0]).toMatchObject({ name: '平均得分率', type: 'line', data: [61.2, 72] });
    expect(seriesOf(o)[1]).toMatchObject({ name: '答卷数', type: 'bar', data: [80, 120] });
  });

  it('puts the best class at the top of the ranking', () => {
    const classes: BigData['classes'] = [
      { classId: 'a', className: '七年级(1)班', homeworkCount: 6, scoreRate: 0.731 },
      { classId: 'b', className: '七年级(3)班', homeworkCount: 5, scoreRate: 0.641 },
    ];
    const o = classesOption(classes, look) as { yAxis: { data: string[] } };
    // ECharts draws categories bottom-up: the first listed class is the last category.
    expect(o.yAxis.data).toEqual(['七年级(3)班', '七年级(1)班']);
    expect(seriesOf(o)[0]!.data).toEqual([64.1, 73.1]);
  });

  it('labels subjects and bands with their figures, at the rem layout’s font size', () => {
    const s = subjectsOption(
      [{ subjectId: 's', subjectName: '数学', homeworkCount: 8, scoreRate: 0.676 }],
      look,
    ) as { xAxis: { data: string[]; axisLabel: { fontSize: number } } };
    expect(s.xAxis.data).toEqual(['数学']);
    expect(s.xAxis.axisLabel.fontSize).toBe(13);
    expect(seriesOf(s)[0]!.data).toEqual([67.6]);
    const b = bandsOption(
      [
        { label: '90%–100%', from: 90, to: 100, count: 12, rate: 0.1 },
        { label: '80%–90%', from: 80, to: 90, count: 30, rate: 0.25 },
      ],
      look,
    );
    expect(seriesOf(b)[0]!.data).toEqual([12, 30]);
  });
});
