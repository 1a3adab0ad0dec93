import { describe, expect, it } from 'vitest';
import { SavePaperSchema } from '@zhzy/contracts';
import { TWO_SECTIONS, question } from '../testing/paper';
import {
  addQuestions,
  contentKey,
  draftOf,
  headingOf,
  itemNumbers,
  moveItem,
  moveItemTo,
  moveSection,
  paperTotal,
  parseScore,
  questionCount,
  removeItem,
  replaceItem,
  saveBodyOf,
  sectionNumeral,
  sectionTotal,
  setItemScore,
  setSectionScore,
} from './draft';

const ids = (d: ReturnType<typeof draftOf>) => d.sections.map((s) => s.items.map((i) => i.questionId));

describe('score totals', () => {
  it('adds every question’s score: section defaults and per-question overrides', () => {
    const d = draftOf(TWO_SECTIONS());
    expect(sectionTotal(d.sections[0]!)).toBe(9);
    expect(paperTotal(d)).toBe(29);
    const one = setItemScore(d, 'item-q2', 5);
    expect(sectionTotal(one.sections[0]!)).toBe(11);
    expect(paperTotal(one)).toBe(31);
    expect(questionCount(one)).toBe(5);
  });

  it('stays exact with tenths (0.1 + 0.2 is 0.3, 3 × 2.5 is 7.5)', () => {
    let d = draftOf(TWO_SECTIONS());
    d = setSectionScore(d, d.sections[0]!.key, 2.5);
    expect(sectionTotal(d.sections[0]!)).toBe(7.5);
    d = setItemScore(d, 'item-q4', 0.1);
    d = setItemScore(d, 'item-q5', 0.2);
    expect(sectionTotal(d.sections[1]!)).toBe(0.3);
    expect(paperTotal(d)).toBe(7.8);
  });

  it('lets the questions that follow the section change with 每小题, and keeps overrides', () => {
    let d = draftOf(TWO_SECTIONS());
    d = setItemScore(d, 'item-q1', 6);
    d = setSectionScore(d, 's1', 4);
    expect(d.sections[0]!.items.map((i) => i.override)).toEqual([6, null, null]);
    expect(sectionTotal(d.sections[0]!)).toBe(14);
    // Setting a question to the section's score makes it follow the section again.
    d = setItemScore(d, 'item-q1', 4);
    expect(d.sections[0]!.items[0]!.override).toBeNull();
    // A section set to an overridden question's score absorbs the override.
    d = setItemScore(d, 'item-q2', 7);
    d = setSectionScore(d, 's1', 7);
    expect(d.sections[0]!.items[1]!.override).toBeNull();
  });

  it('writes the host’s heading, with 每小题 only when every question has the section’s score', () => {
    let d = draftOf(TWO_SECTIONS());
    expect(headingOf(d.sections[0]!, 0)).toBe('一、single（本大题共 3 小题，每小题 3 分，共 9 分）');
    d = setItemScore(d, 'item-q1', 5);
    expect(headingOf(d.sections[0]!, 0)).toBe('一、single（本大题共 3 小题，共 11 分）');
    expect(headingOf({ ...d.sections[1]!, items: [] }, 1)).toBe('二、written');
  });

  it('numbers sections 一 … 十一 … 二十三', () => {
    expect([0, 8, 9, 10, 19, 22].map(sectionNumeral)).toEqual(['一', '九', '十', '十一', '二十', '二十三']);
  });

  it('accepts 0–200 with at most one decimal', () => {
    expect(['0', '3', '2.5', '200', ' 12 '].map(parseScore)).toEqual([0, 3, 2.5, 200, 12]);
    expect(['', '-1', '2.25', '201', 'abc', '1e2'].map(parseScore)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('reordering', () => {
  it('moves a question up and down inside its section', () => {
    const d = draftOf(TWO_SECTIONS());
    expect(ids(moveItem(d, 's1', 2, 0))).toEqual([
      ['q3', 'q1', 'q2'],
      ['q4', 'q5'],
    ]);
    expect(ids(moveItem(d, 's1', 0, 1))).toEqual([
      ['q2', 'q1', 'q3'],
      ['q4', 'q5'],
    ]);
    // Out of range moves change nothing.
    expect(ids(moveItem(d, 's1', 5, 0))).toEqual(ids(d));
  });

  it('drops a question before a position, in its section or another', () => {
    const d = draftOf(TWO_SECTIONS());
    // Dropped below itself: the position counts without the question.
    expect(ids(moveItemTo(d, 'item-q1', 's1', 3))).toEqual([
      ['q2', 'q3', 'q1'],
      ['q4', 'q5'],
    ]);
    expect(ids(moveItemTo(d, 'item-q3', 's1', 0))).toEqual([
      ['q3', 'q1', 'q2'],
      ['q4', 'q5'],
    ]);
    expect(ids(moveItemTo(d, 'item-q2', 's2', 1))).toEqual([
      ['q1', 'q3'],
      ['q4', 'q2', 'q5'],
    ]);
  });

  it('moves sections and renumbers questions, running on or per section', () => {
    const d = moveSection(draftOf(TWO_SECTIONS()), 1, 0);
    expect(d.sections.map((s) => s.title)).toEqual(['written', 'single']);
    expect([...itemNumbers(d, 'continuous').values()]).toEqual([1, 2, 3, 4, 5]);
    expect(itemNumbers(d, 'continuous').get('item-q1')).toBe(3);
    expect(itemNumbers(d, 'perSection').get('item-q1')).toBe(1);
  });

  it('keeps items and their scores through moves (a moved override stays with its question)', () => {
    let d = setItemScore(draftOf(TWO_SECTIONS()), 'item-q3', 8);
    d = moveItem(d, 's1', 2, 0);
    expect(d.sections[0]!.items[0]).toMatchObject({ questionId: 'q3', override: 8 });
    expect(paperTotal(d)).toBe(34);
  });
});

describe('other edits and saving', () => {
  it('replaces a question in place, keeping its score', () => {
    let d = setItemScore(draftOf(TWO_SECTIONS()), 'item-q2', 4);
    d = replaceItem(d, 'item-q2', question('q9'));
    expect(ids(d)[0]).toEqual(['q1', 'q9', 'q3']);
    expect(d.sections[0]!.items[1]!.override).toBe(4);
  });

  it('adds a question to the section of its type, or a new section at the end', () => {
    let d = addQuestions(
      draftOf(TWO_SECTIONS()),
      [question('q6', 'qt-1'), question('q7', 'qt-3', 'judge')],
      () => 2,
    );
    expect(ids(d)).toEqual([['q1', 'q2', 'q3', 'q6'], ['q4', 'q5'], ['q7']]);
    expect(d.sections[2]).toMatchObject({ id: null, title: 'judge', defaultScore: 2 });
    // A question already in the paper is not added twice.
    d = addQuestions(d, [question('q1')], () => 2);
    expect(questionCount(d)).toBe(7);
  });

  it('saves the whole document with the version it was read at, valid for the contracts', () => {
    let d = removeItem(draftOf(TWO_SECTIONS()), 'item-q5');
    d = setItemScore(d, 'item-q1', 5);
    const body = saveBodyOf(d, 3, 'final');
    expect(SavePaperSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      version: 3,
      status: 'final',
      sections: [
        {
          id: 's1',
          defaultScore: 3,
          items: [
            { questionId: 'q1', score: 5 },
            { questionId: 'q2', score: null },
            { questionId: 'q3', score: null },
          ],
        },
        { id: 's2', items: [{ questionId: 'q4', score: null }] },
      ],
    });
  });

  it('sees no change in moving a question away and back', () => {
    const d = draftOf(TWO_SECTIONS());
    const back = moveItem(moveItem(d, 's1', 0, 2), 's1', 2, 0);
    expect(contentKey(back)).toBe(contentKey(d));
    expect(contentKey(moveItem(d, 's1', 0, 2))).not.toBe(contentKey(d));
  });
});
