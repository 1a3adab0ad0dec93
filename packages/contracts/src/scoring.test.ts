import { describe, expect, it } from 'vitest';
import { normaliseKey, scoreObjective } from './scoring.js';

describe('objective scoring', () => {
  it('gives single choice full marks only for the key', () => {
    expect(scoreObjective('single', 'B', 'B', 30)).toBe(30);
    expect(scoreObjective('single', 'B', 'C', 30)).toBe(0);
    expect(scoreObjective('single', 'B', '', 30)).toBe(0);
  });

  it('gives true/false full marks only for the key', () => {
    expect(scoreObjective('truefalse', 'F', 'F', 20)).toBe(20);
    expect(scoreObjective('truefalse', 'F', 'T', 20)).toBe(0);
  });

  it('gives multiple choice full marks for exactly the key, half for some right and none wrong by default', () => {
    expect(scoreObjective('multiple', 'ACE', 'ACE', 40)).toBe(40);
    expect(scoreObjective('multiple', 'ACE', 'CA', 40)).toBe(20);
    expect(scoreObjective('multiple', 'ACE', 'A', 40)).toBe(20);
    expect(scoreObjective('multiple', 'ACE', 'AB', 40)).toBe(0);
    expect(scoreObjective('multiple', 'ACE', 'ABCE', 40)).toBe(0);
    expect(scoreObjective('multiple', 'ACE', '', 40)).toBe(0);
  });

  it('follows the homework partial rule: nothing for partial, or a share per right option', () => {
    expect(scoreObjective('multiple', 'ACE', 'AC', 40, 'zero')).toBe(0);
    expect(scoreObjective('multiple', 'ACE', 'AC', 45, 'proportional')).toBe(30);
    expect(scoreObjective('multiple', 'ACE', 'AD', 45, 'proportional')).toBe(0);
    expect(scoreObjective('multiple', 'ACE', 'A', 45, 'half')).toBe(22);
  });

  it('scores nothing without a key, so the answer waits for a person', () => {
    expect(scoreObjective('single', null, 'A', 30)).toBeNull();
  });

  it('reads keys as the question bank writes them', () => {
    expect(normaliseKey('truefalse', '错误')).toBe('F');
    expect(normaliseKey('truefalse', '<p>正确</p>')).toBe('T');
    expect(normaliseKey('multiple', 'c, a，E')).toBe('ACE');
    expect(normaliseKey('single', 'AB')).toBeNull();
    expect(normaliseKey('single', '<p>4</p>')).toBeNull();
    expect(normaliseKey('single', ' b ')).toBe('B');
  });
});
