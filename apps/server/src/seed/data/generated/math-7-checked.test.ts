import { describe, expect, it } from 'vitest';
import { MATH_7_CHECKED } from './math-7-checked.js';
import { MATH_TEXTBOOKS } from '../math-textbooks.js';
import { QUESTION_SEEDS } from '../questions.js';
import type { QuestionSeed } from '../types.js';

// Every checked question is re-computed here from what a student reads, with an evaluator of its own (not the
// generator's arithmetic): the givens (`x=3`, `\angle\alpha=35^\circ`, a system of them) are substituted and every
// other formula must hold. A 判断题 is right exactly when its claim holds; a choice's answer names exactly the
// options that hold; a 填空题's answer put in its blank makes the claim hold; a 解答题's answer holds.

type Env = Map<string, number>;

class Expr {
  private i = 0;
  private readonly t: string[];
  constructor(
    src: string,
    private readonly env: Env,
  ) {
    this.t = tokens(src);
  }
  private peek() {
    return this.t[this.i];
  }
  private eat(tok?: string) {
    const got = this.t[this.i++];
    if (tok !== undefined && got !== tok)
      throw new Error(`expected ${tok}, got ${got} in ${this.t.join(' ')}`);
    return got!;
  }
  get rest() {
    return this.t.slice(this.i);
  }
  sum(): number {
    let v = this.product();
    for (let op = this.peek(); op === '+' || op === '-'; op = this.peek()) {
      this.eat();
      const rhs = this.product();
      v = op === '+' ? v + rhs : v - rhs;
    }
    return v;
  }
  private product(): number {
    let v = this.unary();
    for (;;) {
      const op = this.peek();
      if (op === '\\times' || op === '\\cdot') {
        this.eat();
        v *= this.unary();
      } else if (op === '\\div') {
        this.eat();
        v /= this.unary();
      } else if (op !== undefined && /^([\d.]+|[a-z]|\(|\\left|\\frac|\\sqrt|\\angle)/.test(op)) {
        v *= this.power(); // implicit multiplication: 3x, 2(x+1)
      } else return v;
    }
  }
  private unary(): number {
    if (this.peek() === '-') {
      this.eat();
      return -this.unary();
    }
    if (this.peek() === '+') {
      this.eat();
      return this.unary();
    }
    return this.power();
  }
  private power(): number {
    const base = this.atom();
    if (this.peek() !== '^') return base;
    this.eat('^');
    const exp = this.group();
    return exp === null ? base : base ** exp;
  }
  /** A braced group or a single atom; null for a degree sign. */
  private group(): number | null {
    if (this.peek() === '{') {
      this.eat('{');
      if (this.peek() === '\\circ') {
        this.eat();
        this.eat('}');
        return null;
      }
      const v = this.sum();
      this.eat('}');
      return v;
    }
    if (this.peek() === '\\circ') {
      this.eat();
      return null;
    }
    return this.atom();
  }
  private atom(): number {
    const tok = this.eat();
    if (/^[\d.]+$/.test(tok)) return Number(tok);
    if (/^[a-z]$/.test(tok) || tok === '\\angle') {
      const name = tok === '\\angle' ? `\\angle${this.eat()}` : tok;
      const v = this.env.get(name);
      if (v === undefined) throw new Error(`unknown ${name}`);
      return v;
    }
    if (tok === '(' || tok === '{') {
      const v = this.sum();
      this.eat(tok === '(' ? ')' : '}');
      return v;
    }
    if (tok === '\\left') {
      const open = this.eat();
      const v = this.sum();
      this.eat('\\right');
      this.eat(open === '(' ? ')' : '|');
      return open === '|' ? Math.abs(v) : v;
    }
    if (tok === '\\frac') {
      const n = this.group()!;
      const d = this.group()!;
      return n / d;
    }
    if (tok === '\\sqrt') {
      let index = 2;
      if (this.peek() === '[') {
        this.eat('[');
        index = this.sum();
        this.eat(']');
      }
      const v = this.group()!;
      return index === 3 ? Math.cbrt(v) : v ** (1 / index);
    }
    throw new Error(`cannot read ${tok} in ${this.t.join(' ')}`);
  }
}

function tokens(src: string): string[] {
  return [...src.matchAll(/\\[a-zA-Z]+|\\.|\d+(?:\.\d+)?|\S/g)].map((m) => m[0]).filter((t) => t !== '\\,');
}

const RELATIONS: Record<string, (a: number, b: number) => boolean> = {
  '=': (a, b) => Math.abs(a - b) < 1e-9,
  '\\gt': (a, b) => a > b,
  '\\lt': (a, b) => a < b,
  '\\ge': (a, b) => a >= b - 1e-9,
  '\\le': (a, b) => a <= b + 1e-9,
  '\\ne': (a, b) => Math.abs(a - b) >= 1e-9,
};

/** The formula's parts between relation signs, and the signs. */
function split(tex: string): { parts: string[]; ops: string[] } {
  const parts: string[] = [];
  const ops: string[] = [];
  let depth = 0;
  let last = 0;
  const re = /\\(?:gt|lt|ge|le|ne)(?![a-zA-Z])|=|[{}()]/g;
  for (let m = re.exec(tex); m; m = re.exec(tex)) {
    if (m[0] === '{' || m[0] === '(') depth++;
    else if (m[0] === '}' || m[0] === ')') depth--;
    else if (depth === 0) {
      parts.push(tex.slice(last, m.index));
      ops.push(m[0]);
      last = m.index + m[0].length;
    }
  }
  parts.push(tex.slice(last));
  return { parts, ops };
}

const rowsOf = (tex: string) => {
  const cases = /^\\begin\{cases\}([\s\S]*)\\end\{cases\}$/.exec(tex.trim());
  return cases ? cases[1]!.split('\\\\') : [tex];
};

const isGiven = (row: string) =>
  /^\s*(?:[a-z]|\\angle\\?[a-zA-Z0-9]+)\s*=\s*-?[\d.]+(?:\^\{?\\circ\}?)?\s*$/.test(row);

function holds(formulas: string[], free: string[] = []): boolean {
  const givens = formulas.filter((f) => rowsOf(f).every(isGiven)).flatMap(rowsOf);
  // A formula without a relation (\(\angle1\), \(a\parallel b\)) names something; it claims nothing.
  const claims = formulas
    .filter((f) => !rowsOf(f).every(isGiven))
    .flatMap(rowsOf)
    .filter((row) => split(row).ops.length > 0);
  // A ± claim (√64=±8) names two values: it holds only when both do.
  const signs = claims.flatMap((c) =>
    c.includes('\\pm') ? [c.replaceAll('\\pm', '+'), c.replaceAll('\\pm', '-')] : [c],
  );
  const check = (given: Env) =>
    signs.every((claim) => {
      let env = given;
      const { parts, ops } = split(claim);
      // \(\angle2=180^{\circ}-\angle1=61^{\circ}\): a name not given yet is defined by what follows it.
      const name = parts[0]!.replace(/\s+/g, '');
      if (/^(?:[a-z]|\\angle\\?[a-zA-Z0-9]+)$/.test(name) && !env.has(name) && ops[0] === '=') {
        env = new Map(env).set(name, new Expr(parts[1]!, env).sum());
      }
      const values = parts.map((part) => new Expr(part, env).sum());
      return ops.every((op, k) => RELATIONS[op]!(values[k]!, values[k + 1]!));
    });
  const base: Env = new Map();
  for (const g of givens) {
    const { parts } = split(g);
    base.set(parts[0]!.replace(/\s+/g, ''), new Expr(parts[1]!, base).sum());
  }
  // Free letters (an identity such as 3a+2a=5a): it must hold for several values.
  const trials = [
    [2, 3, 5, 7],
    [-1, 4, -3, 2],
    [0.5, -2, 3, -5],
  ];
  return trials.every((vals) => {
    const env = new Map(base);
    free.forEach((name, k) => env.has(name) || env.set(name, vals[k % vals.length]! + k * 0.37));
    return check(env);
  });
}

const formulasOf = (html: string) =>
  [
    ...html
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .matchAll(/\\\(([\s\S]*?)\\\)/g),
  ].map((m) => m[1]!);

const lettersOf = (formulas: string[]) => [
  ...new Set(
    formulas
      .join(' ')
      .replace(/\\[a-zA-Z]+/g, ' ')
      .match(/[a-z]/g) ?? [],
  ),
];

/** The claim of a question holds when `answer` is taken for its blanks / choice. */
function verdict(q: QuestionSeed): string[] {
  const problems: string[] = [];
  const stem = formulasOf(q.stem);
  const free = (fs: string[]) =>
    lettersOf(fs).filter(
      (l) => !fs.some((f) => rowsOf(f).some((r) => new RegExp(`^\\s*${l}\\s*=`).test(r) && isGiven(r))),
    );
  switch (q.type) {
    case '判断题': {
      const ok = holds(stem, free(stem));
      if (ok !== (q.answer === '正确'))
        problems.push(`${q.key}: claim ${ok ? 'holds' : 'fails'} but answer is ${q.answer}`);
      break;
    }
    case '单选题':
    case '多选题': {
      const right = (q.options ?? [])
        .map((o, k) => ({
          label: 'ABCD'[k]!,
          ok: holds([...stem, ...formulasOf(o)], free([...stem, ...formulasOf(o)])),
        }))
        .filter((o) => o.ok)
        .map((o) => o.label)
        .join('');
      if (right !== q.answer)
        problems.push(`${q.key}: options holding ${right || '(none)'} but answer ${q.answer}`);
      if (q.type === '单选题' && right.length !== 1) problems.push(`${q.key}: ${right.length} options hold`);
      break;
    }
    case '填空题': {
      const answer = formulasOf(q.answer);
      const open = stem.filter((f) => /=\s*$/.test(f));
      const all =
        answer.length === 1 && open.length === 1 && !rowsOf(answer[0]!).every(isGiven)
          ? stem.map((f) => (f === open[0] ? `${f}${answer[0]}` : f))
          : answer.length === 1 && open.length === 1
            ? stem.map((f) => (f === open[0] ? `${f}${answer[0]}` : f))
            : [...stem.filter((f) => !open.includes(f)), ...answer];
      if (!holds(all, free(all)))
        problems.push(`${q.key}: the answer ${q.answer} does not make ${q.stem} hold`);
      break;
    }
    case '解答题': {
      const answer = formulasOf(q.answer);
      if (answer.length === 0 || !holds(answer, free(answer)))
        problems.push(`${q.key}: the answer ${q.answer} does not hold`);
      break;
    }
  }
  return problems;
}

describe('the checked 七年级 mathematics questions', () => {
  it('are right: every computed answer holds when evaluated from what the student reads', () => {
    expect(MATH_7_CHECKED.length).toBeGreaterThanOrEqual(500);
    const problems = MATH_7_CHECKED.flatMap((q) => {
      try {
        return verdict(q);
      } catch (e) {
        return [
          `${q.key}: ${(e as Error).message} — ${q.stem} ${JSON.stringify(q.options ?? [])} ${q.answer}`,
        ];
      }
    });
    expect(problems).toEqual([]);
  });

  it('are well formed: answers, analyses, four distinct options and every difficulty in every section and type', () => {
    for (const q of MATH_7_CHECKED) {
      expect(q.answer.trim(), q.key).not.toBe('');
      expect(q.analysis.length, q.key).toBeGreaterThan(20);
      expect(q.knowledgeKeys.length, q.key).toBeGreaterThan(0);
      if (q.options) expect(new Set(q.options).size, q.key).toBe(4);
    }
    const levels = new Map<string, Set<number>>();
    for (const q of MATH_7_CHECKED) {
      const k = `${q.sectionKey} ${q.type}`;
      if (!levels.has(k)) levels.set(k, new Set());
      levels.get(k)!.add(q.difficulty);
    }
    for (const [k, seen] of levels) expect([...seen].sort(), k).toEqual([1, 2, 3, 4, 5]);
  });

  it('catches a wrong answer (the check itself can fail)', () => {
    const q = MATH_7_CHECKED.find((x) => x.type === '填空题')!;
    expect(verdict({ ...q, answer: String.raw`\(99999\)` })).toHaveLength(1);
    const j = MATH_7_CHECKED.find((x) => x.type === '判断题')!;
    expect(verdict({ ...j, answer: j.answer === '正确' ? '错误' : '正确' })).toHaveLength(1);
  });

  it('give every section of the 七年级 textbooks at least 60 distinct questions (the bank seeded with them)', () => {
    const sections = MATH_TEXTBOOKS.filter((t) => t.key === 'm7a' || t.key === 'm7b').flatMap((t) =>
      t.chapters.flatMap((c) => c.sections),
    );
    expect(sections).toHaveLength(34);
    const distinct = new Map<string, Set<string>>();
    for (const q of QUESTION_SEEDS) {
      if (!distinct.has(q.sectionKey)) distinct.set(q.sectionKey, new Set());
      distinct.get(q.sectionKey)!.add(JSON.stringify([q.type, q.stem, q.options ?? []]));
    }
    const short = sections
      .map((s) => `${s.name}: ${distinct.get(s.key)?.size ?? 0}`)
      .filter((_, i) => (distinct.get(sections[i]!.key)?.size ?? 0) < 60);
    expect(short).toEqual([]);
  });
});
