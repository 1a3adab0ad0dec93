import { describe, expect, it } from 'vitest';
import { cleanRich } from './rich-editor';
import { checkQuestion, relabel } from './question-fields';

const base = { typeId: 't', difficulty: 3, stem: '<p>题干</p>', options: [], answer: '', analysis: '' };

describe('what a teacher writes', () => {
  it('keeps only the sanitised subset: emphasis, sub/superscripts, images as data URLs, formulas as text', () => {
    const html = cleanRich(
      '<div>a<b>b</b><script>alert(1)</script><span style="color:red" onclick="x()">c</span></div>' +
        '<div>x<sup>2</sup> \\(\\frac{1}{2}\\)<img src="data:image/png;base64,AAAA" onerror="x()"><img src="javascript:x"></div>',
    );
    expect(html).toBe(
      '<p>a<b>b</b>c</p><p>x<sup>2</sup> \\(\\frac{1}{2}\\)<img src="data:image/png;base64,AAAA"><img></p>',
    );
    expect(cleanRich('<p><br></p>')).toBe('');
  });

  it('checks a choice question as the host does', () => {
    const options = relabel([{ content: '1' }, { content: '2' }, { content: '' }]);
    expect(options.map((o) => o.label)).toEqual(['A', 'B', 'C']);
    expect(checkQuestion({ ...base, options, answer: 'B' }, '单选题')).toEqual({});
    expect(checkQuestion({ ...base, options, answer: 'AB' }, '单选题').answer).toBe(
      '单选题只能有一个正确答案',
    );
    expect(checkQuestion({ ...base, options, answer: 'A' }, '多选题').answer).toBe(
      '多选题至少需要两个正确答案',
    );
    expect(
      checkQuestion({ ...base, options: options.slice(0, 1), answer: 'A' }, '单选题').options,
    ).toBeDefined();
    expect(checkQuestion({ ...base, stem: '<p> </p>' }, '解答题').stem).toBe('请输入题干');
    expect(checkQuestion({ ...base, answer: '对' }, '判断题').answer).toBeDefined();
    expect(checkQuestion({ ...base, answer: '正确' }, '判断题')).toEqual({});
  });
});
