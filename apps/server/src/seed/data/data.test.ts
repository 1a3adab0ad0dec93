import { describe, expect, it } from 'vitest';
import { AREAS } from '@zhzy/contracts';
import { sanitizeRichText } from '../../modules/questions/rich-content.js';
import { questionSearchTokens } from '../../modules/questions/search-text.js';
import { KNOWLEDGE_TREES } from './knowledge.js';
import { MATH_TEXTBOOKS } from './math-textbooks.js';
import { GIVEN_NAMES, SURNAMES } from './names.js';
import { OTHER_TEXTBOOKS } from './other-textbooks.js';
import { QUESTION_SEEDS } from './questions.js';
import { QUESTION_TYPES, type KnowledgeSeed, type SubjectName, type TextbookSeed } from './types.js';

const TEXTBOOKS: TextbookSeed[] = [...MATH_TEXTBOOKS, ...OTHER_TEXTBOOKS];
const SUBJECTS = Object.keys(QUESTION_TYPES) as SubjectName[];
const LETTERS = 'ABCDEFG';

function flatten(nodes: KnowledgeSeed[]): KnowledgeSeed[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}
function leaves(nodes: KnowledgeSeed[]): KnowledgeSeed[] {
  return flatten(nodes).filter((n) => !n.children || n.children.length === 0);
}
function depth(nodes: KnowledgeSeed[]): number {
  return nodes.length === 0 ? 0 : 1 + Math.max(...nodes.map((n) => depth(n.children ?? [])));
}
function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
const textOf = (q: (typeof QUESTION_SEEDS)[number]) => [q.stem, q.answer, q.analysis, ...(q.options ?? [])];

describe('textbook seeds', () => {
  it('gives every textbook, chapter and section a key no other node uses', () => {
    const keys = TEXTBOOKS.flatMap((t) => [
      t.key,
      ...t.chapters.flatMap((c) => [c.key, ...c.sections.map((s) => s.key)]),
    ]);
    expect(duplicates(keys)).toEqual([]);
  });

  it('has no empty textbook or chapter and no blank names', () => {
    for (const t of TEXTBOOKS) {
      expect(t.chapters.length, t.key).toBeGreaterThan(0);
      expect(t.name.trim()).not.toBe('');
      for (const c of t.chapters) {
        expect(c.sections.length, c.key).toBeGreaterThan(0);
        expect(c.name.trim()).not.toBe('');
        for (const s of c.sections) expect(s.name.trim(), s.key).not.toBe('');
      }
    }
  });

  it('offers the six 人教版 junior-high mathematics volumes', () => {
    expect(MATH_TEXTBOOKS.map((t) => t.key)).toEqual(['m7a', 'm7b', 'm8a', 'm8b', 'm9a', 'm9b']);
    for (const t of MATH_TEXTBOOKS) expect(t.subject).toBe('数学');
  });

  it('offers one textbook for each of 语文, 英语 and 物理', () => {
    expect(OTHER_TEXTBOOKS.map((t) => [t.key, t.subject])).toEqual([
      ['c7a', '语文'],
      ['e7a', '英语'],
      ['p8a', '物理'],
    ]);
  });

  it('keys chapters and sections under their textbook', () => {
    for (const t of TEXTBOOKS) {
      for (const c of t.chapters) {
        expect(c.key.startsWith(`${t.key}-`), c.key).toBe(true);
        for (const s of c.sections) expect(s.key.startsWith(`${c.key}-`), s.key).toBe(true);
      }
    }
  });
});

describe('knowledge trees', () => {
  it('uses each knowledge key once across all subjects', () => {
    const keys = SUBJECTS.flatMap((s) => flatten(KNOWLEDGE_TREES[s]).map((n) => n.key));
    expect(duplicates(keys)).toEqual([]);
  });

  it('is two or three levels deep for every subject', () => {
    for (const s of SUBJECTS) {
      expect(depth(KNOWLEDGE_TREES[s]), s).toBeGreaterThanOrEqual(2);
      expect(depth(KNOWLEDGE_TREES[s]), s).toBeLessThanOrEqual(3);
    }
  });

  it('has at least 80 mathematics leaf points and 15 for every other subject', () => {
    expect(leaves(KNOWLEDGE_TREES.数学).length).toBeGreaterThanOrEqual(80);
    for (const s of SUBJECTS.filter((x) => x !== '数学')) {
      expect(leaves(KNOWLEDGE_TREES[s]).length, s).toBeGreaterThanOrEqual(15);
    }
  });

  it('prefixes keys with the subject letter', () => {
    const prefix: Record<SubjectName, string> = { 数学: 'k-m-', 语文: 'k-c-', 英语: 'k-e-', 物理: 'k-p-' };
    for (const s of SUBJECTS)
      for (const n of flatten(KNOWLEDGE_TREES[s])) expect(n.key.startsWith(prefix[s]), n.key).toBe(true);
  });
});

describe('question seeds', () => {
  const textbookByKey = new Map(TEXTBOOKS.map((t) => [t.key, t]));

  it('uses each question key once', () => {
    expect(duplicates(QUESTION_SEEDS.map((q) => q.key))).toEqual([]);
  });

  it('every question points at an existing textbook of its own subject', () => {
    for (const q of QUESTION_SEEDS) {
      const t = textbookByKey.get(q.textbookKey);
      expect(t, q.key).toBeDefined();
      expect(t?.subject, q.key).toBe(q.subject);
    }
  });

  it('every question points at an existing section of its textbook', () => {
    for (const q of QUESTION_SEEDS) {
      const sections =
        textbookByKey.get(q.textbookKey)?.chapters.flatMap((c) => c.sections.map((s) => s.key)) ?? [];
      expect(sections, q.key).toContain(q.sectionKey);
    }
  });

  it("every question's knowledge points exist in its subject's tree", () => {
    for (const q of QUESTION_SEEDS) {
      const keys = new Set(flatten(KNOWLEDGE_TREES[q.subject]).map((n) => n.key));
      expect(q.knowledgeKeys.length, q.key).toBeGreaterThan(0);
      expect(duplicates(q.knowledgeKeys), q.key).toEqual([]);
      for (const k of q.knowledgeKeys) expect(keys.has(k), `${q.key} → ${k}`).toBe(true);
    }
  });

  it("every question's type is one of its subject's question types", () => {
    for (const q of QUESTION_SEEDS) expect(QUESTION_TYPES[q.subject], q.key).toContain(q.type);
  });

  it('gives choice questions at least four unlabelled options and an answer of valid letters', () => {
    for (const q of QUESTION_SEEDS.filter((x) => x.type === '单选题' || x.type === '多选题')) {
      const options = q.options ?? [];
      expect(options.length, q.key).toBeGreaterThanOrEqual(4);
      for (const o of options) {
        expect(o.trim(), q.key).not.toBe('');
        expect(o, q.key).not.toMatch(/^\s*[A-G]\s*[.．、:：]/);
      }
      const valid = LETTERS.slice(0, options.length);
      expect(q.answer, q.key).toMatch(new RegExp(`^[${valid}]+$`));
      expect([...q.answer].sort().join(''), `${q.key}: letters in order`).toBe(q.answer);
      expect(duplicates([...q.answer]), q.key).toEqual([]);
      if (q.type === '单选题') expect(q.answer.length, q.key).toBe(1);
      else expect(q.answer.length, q.key).toBeGreaterThanOrEqual(2);
    }
  });

  it('gives options only to choice questions', () => {
    for (const q of QUESTION_SEEDS.filter((x) => x.type !== '单选题' && x.type !== '多选题')) {
      expect(q.options, q.key).toBeUndefined();
    }
  });

  it('answers true-or-false questions with 正确 or 错误', () => {
    for (const q of QUESTION_SEEDS.filter((x) => x.type === '判断题'))
      expect(['正确', '错误'], q.key).toContain(q.answer);
  });

  it('marks every blank of a fill-in question with full-width underscores', () => {
    for (const q of QUESTION_SEEDS.filter((x) => x.type === '填空题'))
      expect(q.stem, q.key).toContain('＿＿＿＿');
  });

  it('has a non-empty stem, answer and analysis, and a year between 2021 and 2026', () => {
    for (const q of QUESTION_SEEDS) {
      expect(q.stem.trim(), q.key).not.toBe('');
      expect(q.answer.trim(), q.key).not.toBe('');
      expect(q.analysis.trim(), q.key).not.toBe('');
      expect(q.source.trim(), q.key).not.toBe('');
      expect(q.year, q.key).toBeGreaterThanOrEqual(2021);
      expect(q.year, q.key).toBeLessThanOrEqual(2026);
      expect([1, 2, 3, 4, 5], q.key).toContain(q.difficulty);
    }
  });

  it('balances formula delimiters and braces in every text field', () => {
    for (const q of QUESTION_SEEDS) {
      for (const text of textOf(q)) {
        expect(count(text, '\\('), q.key).toBe(count(text, '\\)'));
        expect(count(text, '\\['), q.key).toBe(count(text, '\\]'));
        for (const [, formula] of text.matchAll(/\\\((.*?)\\\)/gs)) {
          const f = formula ?? '';
          expect(count(f, '{'), `${q.key}: ${f}`).toBe(count(f, '}'));
          expect(f, `${q.key}: raw < or > inside a formula`).not.toMatch(/[<>]/);
        }
      }
    }
  });

  it('has at least 72 mathematics questions using all five types and all five difficulties', () => {
    const math = QUESTION_SEEDS.filter((q) => q.subject === '数学');
    expect(math.length).toBeGreaterThanOrEqual(72);
    expect(new Set(math.map((q) => q.type))).toEqual(new Set(QUESTION_TYPES.数学));
    expect(new Set(math.map((q) => q.difficulty))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it('has at least six questions in every chapter of 七年级上册 and 七年级下册', () => {
    for (const t of MATH_TEXTBOOKS.filter((x) => x.key === 'm7a' || x.key === 'm7b')) {
      for (const c of t.chapters) {
        const sections = new Set(c.sections.map((s) => s.key));
        const n = QUESTION_SEEDS.filter((q) => sections.has(q.sectionKey)).length;
        expect(n, `${c.key} ${c.name}`).toBeGreaterThanOrEqual(6);
      }
    }
  });

  it('has at least six questions for each of 语文, 英语 and 物理, using every type of the subject', () => {
    for (const s of SUBJECTS.filter((x) => x !== '数学')) {
      const qs = QUESTION_SEEDS.filter((q) => q.subject === s);
      expect(qs.length, s).toBeGreaterThanOrEqual(6);
      expect(new Set(qs.map((q) => q.type)), s).toEqual(new Set(QUESTION_TYPES[s]));
    }
  });
});

describe('the demo bank of issue 4', () => {
  const bySubject = (s: SubjectName) => QUESTION_SEEDS.filter((q) => q.subject === s);
  const hasFormula = (q: (typeof QUESTION_SEEDS)[number]) => textOf(q).some((t) => t.includes('\\('));

  it('holds at least 600 questions across the four subjects, at least 300 of them mathematics', () => {
    expect(QUESTION_SEEDS.length).toBeGreaterThanOrEqual(600);
    expect(bySubject('数学').length).toBeGreaterThanOrEqual(300);
    for (const s of SUBJECTS) expect(bySubject(s).length, s).toBeGreaterThanOrEqual(50);
  });

  it('writes mathematics with formulas: at least 300 mathematics questions contain LaTeX', () => {
    expect(bySubject('数学').filter(hasFormula).length).toBeGreaterThanOrEqual(300);
  });

  it('covers every chapter of 七年级上册 and 下册 with at least 15 questions and every section with at least 3', () => {
    for (const t of MATH_TEXTBOOKS.filter((x) => x.key === 'm7a' || x.key === 'm7b')) {
      for (const c of t.chapters) {
        const sections = new Set(c.sections.map((s) => s.key));
        expect(
          QUESTION_SEEDS.filter((q) => sections.has(q.sectionKey)).length,
          c.name,
        ).toBeGreaterThanOrEqual(15);
        for (const s of c.sections)
          expect(QUESTION_SEEDS.filter((q) => q.sectionKey === s.key).length, s.name).toBeGreaterThanOrEqual(
            3,
          );
      }
    }
  });

  it('uses all five difficulty levels in mathematics and physics and at least four elsewhere', () => {
    for (const s of ['数学', '物理'] as const)
      expect(new Set(bySubject(s).map((q) => q.difficulty)), s).toEqual(new Set([1, 2, 3, 4, 5]));
    for (const s of SUBJECTS)
      expect(new Set(bySubject(s).map((q) => q.difficulty)).size, s).toBeGreaterThanOrEqual(4);
  });

  it('gives every choice question distinct options', () => {
    for (const q of QUESTION_SEEDS.filter((x) => x.options))
      expect(duplicates(q.options!), q.key).toEqual([]);
  });

  it('never repeats a question (stem and options) within a subject', () => {
    for (const s of SUBJECTS)
      expect(duplicates(bySubject(s).map((q) => JSON.stringify([q.stem, q.options ?? []]))), s).toEqual([]);
  });

  it('names only areas of the contracts as regions', () => {
    for (const q of QUESTION_SEEDS.filter((x) => x.region !== undefined))
      expect(AREAS as readonly string[], q.key).toContain(q.region);
  });

  it('is already clean: the server-side sanitiser leaves every text as written', () => {
    const normalise = (html: string) => html.replace(/<br\s*\/?>/g, '<br />').trim();
    for (const q of QUESTION_SEEDS)
      for (const text of textOf(q)) expect(sanitizeRichText(text), q.key).toBe(normalise(text));
  });

  it('gives every question searchable words', () => {
    for (const q of QUESTION_SEEDS) {
      const tokens = questionSearchTokens({
        ...q,
        options: (q.options ?? []).map((content) => ({ content })),
        knowledgePoints: [],
      });
      expect(tokens.split(' ').length, q.key).toBeGreaterThanOrEqual(3);
    }
  });

  it('keeps the keys of the first hand-written questions that baskets and tests refer to', () => {
    const keys = new Set(QUESTION_SEEDS.map((q) => q.key));
    for (const key of ['q-m7a-1-1-01', 'q-m7a-1-2-06', 'q-c7a-1-1-01']) expect(keys.has(key), key).toBe(true);
  });
});

describe('name lists', () => {
  it('has at least 80 distinct surnames, including a few compound ones', () => {
    expect(SURNAMES.length).toBeGreaterThanOrEqual(80);
    expect(duplicates(SURNAMES)).toEqual([]);
    expect(SURNAMES.filter((s) => s.length === 2).length).toBeGreaterThanOrEqual(2);
    for (const s of SURNAMES) expect(s).toMatch(/^[\u4e00-\u9fff]{1,2}$/);
  });

  it('has at least 200 distinct given names of one or two characters', () => {
    expect(GIVEN_NAMES.length).toBeGreaterThanOrEqual(200);
    expect(duplicates(GIVEN_NAMES)).toEqual([]);
    for (const g of GIVEN_NAMES) expect(g).toMatch(/^[\u4e00-\u9fff]{1,2}$/);
  });
});
