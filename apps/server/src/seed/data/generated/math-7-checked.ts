/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed } from '../types.js';
import {
  BLANK,
  SLOT,
  fmt,
  int,
  m,
  nonZero,
  pick,
  poly,
  seededRandom,
  shuffle,
  yearAndSource,
  type Draft,
  type Rng,
} from './kit.js';
import { MORE_TOPICS } from './math-7-checked-more.js';

// 人教版 七年级 上/下: five structures over one computed fact each — 判断 (a claim, true or false), 单选 (which one
// is right), 多选 (which ones are right), 填空 (the value) and 解答 (worked). A fact is a relation that holds:
// `\(x=v\)` formulas are the givens and every other formula must be true under them, so the seed's data test can
// check every question by evaluating its formulas.

/** A computed fact: the claim with the right value, the blank to ask for, wrong values and the working. */
export interface Fact {
  /** HTML of the claim with `value` in its place (formulas in \( … \)). */
  claim: (value: string) => string;
  /** The same claim with the value asked for: ends with a formula ending in "=" before the blank. */
  ask: string;
  /** The right value (TeX). */
  value: string;
  /** Wrong values a careless student writes (TeX), distinct from the value. */
  wrong: string[];
  /** Worked steps (HTML). */
  steps: string;
}

export interface Topic {
  /** A short name: the generators' names and keys are built from it. */
  name: string;
  textbookKey: 'm7a' | 'm7b';
  sectionKey: string;
  knowledgeKeys: string[];
  /** What the options of a choice are, e.g. “下列计算”. */
  what: string;
  /** A fact at a difficulty level 1–5. */
  fact: (rng: Rng, level: number) => Fact;
  /** Questions per structure (default 10); 12 where the section has few others. */
  perStructure?: number;
}

const neg = (n: number) => (n < 0 ? `(${fmt(n)})` : fmt(n));

// ───────────── the topics ─────────────

const TOPICS: Topic[] = [
  {
    name: 'addsub',
    textbookKey: 'm7a',
    sectionKey: 'm7a-2-1',
    knowledgeKeys: ['k-m-rational-addsub'],
    what: '下列计算',
    fact: (rng, level) => {
      const n = level <= 2 ? 2 : level <= 4 ? 3 : 4;
      const nums = Array.from({ length: n }, (_, i) =>
        i === 0 ? nonZero(rng, -9 * level, 9 * level) : nonZero(rng, -12 * level, 12 * level),
      );
      const ops = nums.slice(1).map(() => pick(rng, ['+', '-'] as const));
      let tex = fmt(nums[0]!);
      let value = nums[0]!;
      ops.forEach((op, i) => {
        tex += `${op}${neg(nums[i + 1]!)}`;
        value += op === '+' ? nums[i + 1]! : -nums[i + 1]!;
      });
      const plain = ops.map((op, i) => (op === '-' ? -nums[i + 1]! : nums[i + 1]!));
      return {
        claim: (v) => m(`${tex}=${v}`),
        ask: `计算：${m(`${tex}=`)}${BLANK}`,
        value: fmt(value),
        wrong: [fmt(-value), fmt(value + 2 * (nums[1] ?? 1)), fmt(value - 2), fmt(value + 10)],
        steps: `<p>减去一个数等于加上它的相反数：${m(`${tex}=${[nums[0]!, ...plain].map((x, i) => (i === 0 ? fmt(x) : `+${neg(x)}`)).join('')}=${fmt(value)}`)}。</p>`,
      };
    },
  },
  {
    name: 'muldiv',
    textbookKey: 'm7a',
    sectionKey: 'm7a-2-2',
    knowledgeKeys: ['k-m-rational-mul', 'k-m-rational-div'],
    what: '下列计算',
    fact: (rng, level) => {
      const a = nonZero(rng, -9, 9);
      const b = nonZero(rng, -9, 9);
      const c = nonZero(rng, -6, 6);
      if (level <= 2) {
        const value = a * b;
        return {
          claim: (v) => m(`${fmt(a)}\\times${neg(b)}=${v}`),
          ask: `计算：${m(`${fmt(a)}\\times${neg(b)}=`)}${BLANK}`,
          value: fmt(value),
          wrong: [fmt(-value), fmt(a + b), fmt(value + 1)],
          steps: `<p>两数相乘，同号得正，异号得负，并把绝对值相乘：${m(`${fmt(a)}\\times${neg(b)}=${fmt(value)}`)}。</p>`,
        };
      }
      if (level <= 4) {
        const product = a * b;
        const value = b * c;
        const tex = `${fmt(product)}\\div${neg(a)}\\times${neg(c)}`;
        return {
          claim: (v) => m(`${tex}=${v}`),
          ask: `计算：${m(`${tex}=`)}${BLANK}`,
          value: fmt(value),
          wrong: [fmt(-value), fmt(product * c), fmt(value + 2)],
          steps: `<p>乘除混合运算从左到右依次进行：${m(`${tex}=${neg(b)}\\times${neg(c)}=${fmt(value)}`)}。</p>`,
        };
      }
      const value = a * b - c * a;
      const tex = `${fmt(a)}\\times${neg(b)}-${neg(c)}\\times${neg(a)}`;
      return {
        claim: (v) => m(`${tex}=${v}`),
        ask: `计算：${m(`${tex}=`)}${BLANK}`,
        value: fmt(value),
        wrong: [fmt(a * b + c * a), fmt(-value), fmt(a * (b + c))],
        steps: `<p>先算乘法，再算减法：${m(`${tex}=${neg(a * b)}-${neg(c * a)}=${fmt(value)}`)}；也可以逆用乘法分配律：${m(`${fmt(a)}\\times(${fmt(b)}-${neg(c)})=${fmt(value)}`)}。</p>`,
      };
    },
  },
  {
    name: 'power',
    textbookKey: 'm7a',
    sectionKey: 'm7a-2-3',
    knowledgeKeys: ['k-m-rational-power'],
    what: '下列各式',
    fact: (rng, level) => {
      const a = int(rng, 2, level <= 2 ? 4 : 6);
      const n = int(rng, 2, level <= 3 ? 3 : 4);
      const inside = (-a) ** n;
      const outside = -(a ** n);
      if (level <= 2) {
        return {
          claim: (v) => m(`(-${a})^{${n}}=${v}`),
          ask: `计算：${m(`(-${a})^{${n}}=`)}${BLANK}`,
          value: fmt(inside),
          wrong: [fmt(-inside), fmt(-a * n), fmt(a * n)],
          steps: `<p>${m(`(-${a})^{${n}}`)} 表示 ${n} 个 ${m(`-${a}`)} 相乘，${n % 2 === 0 ? '偶' : '奇'}次幂的符号为${n % 2 === 0 ? '正' : '负'}，所以结果是 ${m(fmt(inside))}。</p>`,
        };
      }
      const b = nonZero(rng, -5, 5);
      const value = outside + inside * b;
      const tex = `-${a}^{${n}}+(-${a})^{${n}}\\times${neg(b)}`;
      return {
        claim: (v) => m(`${tex}=${v}`),
        ask: `计算：${m(`${tex}=`)}${BLANK}`,
        value: fmt(value),
        wrong: [fmt(inside + inside * b), fmt(-value), fmt(outside - inside * b)],
        steps: `<p>注意 ${m(`-${a}^{${n}}=${fmt(outside)}`)}（底数是 ${a}），${m(`(-${a})^{${n}}=${fmt(inside)}`)}（底数是 ${m(`-${a}`)}）。<br>原式 ${m(`=${neg(outside)}+${neg(inside)}\\times${neg(b)}=${fmt(value)}`)}。</p>`,
      };
    },
  },
  {
    name: 'abs',
    textbookKey: 'm7a',
    sectionKey: 'm7a-1-2',
    knowledgeKeys: ['k-m-rational-abs', 'k-m-rational-opposite'],
    what: '下列各式',
    fact: (rng, level) => {
      const a = nonZero(rng, -15, 15);
      const b = nonZero(rng, -15, 15);
      if (level <= 2) {
        const value = Math.abs(a) + Math.abs(b);
        return {
          claim: (v) => m(`\\left|${fmt(a)}\\right|+\\left|${fmt(b)}\\right|=${v}`),
          ask: `计算：${m(`\\left|${fmt(a)}\\right|+\\left|${fmt(b)}\\right|=`)}${BLANK}`,
          value: fmt(value),
          wrong: [fmt(a + b), fmt(-value), fmt(Math.abs(a - b) + 1)],
          steps: `<p>负数的绝对值是它的相反数，正数的绝对值是它本身：${m(`\\left|${fmt(a)}\\right|=${Math.abs(a)}`)}，${m(`\\left|${fmt(b)}\\right|=${Math.abs(b)}`)}，和为 ${value}。</p>`,
        };
      }
      const value = -Math.abs(a) - -b * (level >= 4 ? 2 : 1);
      const k = level >= 4 ? 2 : 1;
      const tex = `-\\left|${fmt(a)}\\right|-${k === 2 ? '2\\times' : ''}${neg(-b)}`;
      return {
        claim: (v) => m(`${tex}=${v}`),
        ask: `计算：${m(`${tex}=`)}${BLANK}`,
        value: fmt(value),
        wrong: [fmt(Math.abs(a) + k * b), fmt(-value), fmt(-Math.abs(a) - k * b)],
        steps: `<p>${m(`-\\left|${fmt(a)}\\right|=${fmt(-Math.abs(a))}`)}，减去 ${m(`${k === 2 ? '2\\times' : ''}${neg(-b)}=${fmt(-b * k)}`)} 等于加上 ${m(fmt(b * k))}，结果为 ${m(fmt(value))}。</p>`,
      };
    },
  },
  {
    name: 'alg-value',
    textbookKey: 'm7a',
    sectionKey: 'm7a-3-2',
    knowledgeKeys: ['k-m-alg-value'],
    what: '代数式的值的计算',
    fact: (rng, level) => {
      const x = nonZero(rng, -4, 4);
      const a = nonZero(rng, -5, 5);
      const b = int(rng, -9, 9);
      if (level <= 2) {
        const expr = poly([
          [a, 'x'],
          [b, ''],
        ]);
        const value = a * x + b;
        return {
          claim: (v) => `当 ${m(`x=${fmt(x)}`)} 时，${m(`${expr}=${v}`)}`,
          ask: `当 ${m(`x=${fmt(x)}`)} 时，${m(`${expr}=`)}${BLANK}`,
          value: fmt(value),
          wrong: [fmt(-a * x + b), fmt(a + x + b), fmt(value + 1)],
          steps: `<p>把 ${m(`x=${fmt(x)}`)} 代入：${m(`${fmt(a)}\\times${neg(x)}${b < 0 ? '' : '+'}${fmt(b)}=${fmt(value)}`)}。</p>`,
        };
      }
      const y = nonZero(rng, -3, 3);
      const c = nonZero(rng, -3, 3);
      const expr =
        level <= 4
          ? `${poly([
              [a, 'x^{2}'],
              [c, 'y'],
            ])}`
          : `${poly([
              [a, 'x^{2}'],
              [c, 'xy'],
              [b, ''],
            ])}`;
      const value = level <= 4 ? a * x * x + c * y : a * x * x + c * x * y + b;
      return {
        claim: (v) => `当 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 时，${m(`${expr}=${v}`)}`,
        ask: `当 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 时，${m(`${expr}=`)}${BLANK}`,
        value: fmt(value),
        wrong: [fmt(-value), fmt(value - 2 * a * x * x), fmt(value + c)],
        steps: `<p>把 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 代入，先算乘方，再算乘法，最后算加减，负数代入时要加括号，结果为 ${m(fmt(value))}。</p>`,
      };
    },
  },
  {
    name: 'like-terms',
    textbookKey: 'm7a',
    sectionKey: 'm7a-4-2',
    knowledgeKeys: ['k-m-poly-combine', 'k-m-poly-like'],
    what: '下列合并同类项',
    fact: (rng, level) => {
      const v = pick(rng, ['a^{2}b', 'ab^{2}', 'x^{2}', 'xy', 'mn', 'x^{2}y']);
      const p1 = nonZero(rng, -7, 9);
      const p2 = nonZero(rng, -7, 9);
      const q1 = nonZero(rng, -6, 6);
      if (level <= 2 || p1 + p2 === 0) {
        return {
          claim: (val) =>
            m(
              `${poly([
                [p1, v],
                [p2, v],
              ])}=${val}`,
            ),
          ask: `合并同类项：${m(
            `${poly([
              [p1, v],
              [p2, v],
            ])}=`,
          )}${BLANK}`,
          value: poly([[p1 + p2, v]]),
          wrong: [
            poly([[p1 + p2 + 1, v]]),
            poly([[p1 - p2 === 0 ? 7 : p1 - p2, v]]),
            poly([[p1 * p2, v]]),
            poly([[-(p1 + p2) || 4, v]]),
          ],
          steps: `<p>同类项合并时，系数相加，字母和字母的指数不变：${m(`(${fmt(p1)}${p2 < 0 ? '' : '+'}${fmt(p2)})${v}=${poly([[p1 + p2, v]])}`)}。</p>`,
        };
      }
      const q2 = nonZero(rng, -6, 6);
      const w = pick(
        rng,
        ['a', 'b', 'x', 'y'].filter((s) => !v.startsWith(s) || v.length > 2),
      );
      const expr = poly([
        [p1, v],
        [q1, w],
        [p2, v],
        [q2, w],
      ]);
      const value = poly([
        [p1 + p2, v],
        [q1 + q2, w],
      ]);
      return {
        claim: (val) => m(`${expr}=${val}`),
        ask: `化简：${m(`${expr}=`)}${BLANK}`,
        value,
        wrong: [
          poly([
            [p1 + p2, v],
            [q1 - q2 === q1 + q2 ? q1 + q2 + 2 : q1 - q2, w],
          ]),
          poly([[p1 + p2 + q1 + q2 || 1, v]]),
          poly([
            [p1 - p2 === p1 + p2 ? 5 : p1 - p2, v],
            [q1 + q2, w],
          ]),
        ],
        steps: `<p>先找出同类项，再把系数相加：${m(`(${fmt(p1)}${p2 < 0 ? '' : '+'}${fmt(p2)})${v}+(${fmt(q1)}${q2 < 0 ? '' : '+'}${fmt(q2)})${w}=${value}`)}。</p>`,
      };
    },
  },
  {
    name: 'eq-solution',
    textbookKey: 'm7a',
    sectionKey: 'm7a-5-2',
    knowledgeKeys: ['k-m-eq1-solve', 'k-m-eq1-solution'],
    what: '下列方程的解',
    fact: (rng, level) => {
      const x = nonZero(rng, -6, 8);
      const a = nonZero(rng, -5, 6) || 2;
      let eq: string;
      let steps: string;
      if (level <= 2) {
        const b = nonZero(rng, -9, 9);
        eq = `${poly([
          [a, 'x'],
          [b, ''],
        ])}=${fmt(a * x + b)}`;
        steps = `<p>移项得 ${m(`${poly([[a, 'x']])}=${fmt(a * x)}`)}，系数化为 1 得 ${m(`x=${fmt(x)}`)}。</p>`;
      } else if (level <= 3) {
        const b = nonZero(rng, -5, 5);
        const c = nonZero(rng, -4, 4);
        const a2 = a === c ? a + 1 : a;
        // a2(x + b) = c·x + d
        const d = a2 * (x + b) - c * x;
        eq = `${fmt(a2)}(x${b < 0 ? '' : '+'}${fmt(b)})=${poly([
          [c, 'x'],
          [d, ''],
        ])}`;
        steps = `<p>去括号得 ${m(
          `${poly([
            [a2, 'x'],
            [a2 * b, ''],
          ])}=${poly([
            [c, 'x'],
            [d, ''],
          ])}`,
        )}，移项、合并同类项得 ${m(`${poly([[a2 - c, 'x']])}=${fmt((a2 - c) * x)}`)}，所以 ${m(`x=${fmt(x)}`)}。</p>`;
      } else {
        const d1 = pick(rng, [2, 3, 4]);
        const d2 = pick(
          rng,
          [3, 5, 6].filter((d) => d !== d1),
        );
        const b = int(rng, -5, 5);
        // (x + b)/d1 − x/d2 = k with k chosen so x solves it: k = (x+b)/d1 − x/d2 must be exact → pick x multiple
        const xx = d1 * d2 * nonZero(rng, -2, 2);
        const lhs = (xx + b) / d1 - xx / d2;
        const kNum = (xx + b) * d2 - xx * d1;
        const kDen = d1 * d2;
        const kTex =
          kNum % kDen === 0
            ? fmt(kNum / kDen)
            : `${kNum < 0 ? '-' : ''}\\frac{${Math.abs(kNum) / gcd(kNum, kDen)}}{${kDen / gcd(kNum, kDen)}}`;
        eq = `\\frac{x${b < 0 ? '' : '+'}${fmt(b)}}{${d1}}-\\frac{x}{${d2}}=${kTex}`;
        steps = `<p>两边同乘 ${d1 * d2} 去分母：${m(`${d2}(x${b < 0 ? '' : '+'}${fmt(b)})-${d1}x=${fmt(lhs * d1 * d2)}`)}，去括号、移项、合并得 ${m(`${poly([[d2 - d1, 'x']])}=${fmt((d2 - d1) * xx)}`)}，所以 ${m(`x=${fmt(xx)}`)}。</p>`;
        return {
          claim: (v) => `方程 ${m(eq)} 的解是 ${m(`x=${v}`)}`,
          ask: `方程 ${m(eq)} 的解是 ${m('x=')}${BLANK}`,
          value: fmt(xx),
          wrong: [fmt(-xx), fmt(xx + d1), fmt(xx - d2)],
          steps,
        };
      }
      return {
        claim: (v) => `方程 ${m(eq)} 的解是 ${m(`x=${v}`)}`,
        ask: `方程 ${m(eq)} 的解是 ${m('x=')}${BLANK}`,
        value: fmt(x),
        wrong: [fmt(-x), fmt(x + 1), fmt(x - 2)],
        steps,
      };
    },
  },
  {
    name: 'angle',
    textbookKey: 'm7a',
    sectionKey: 'm7a-6-3',
    knowledgeKeys: ['k-m-geo-compl'],
    what: '下列关于余角、补角的计算',
    fact: (rng, level) => {
      const a = int(rng, 12, 78);
      if (level <= 2) {
        return {
          claim: (v) =>
            `若 ${m(`\\angle\\alpha=${a}^{\\circ}`)}，则它的余角 ${m(`90^{\\circ}-\\angle\\alpha=${v}^{\\circ}`)}`,
          ask: `若 ${m(`\\angle\\alpha=${a}^{\\circ}`)}，则它的余角 ${m(`90^{\\circ}-\\angle\\alpha=`)}${BLANK}°`,
          value: fmt(90 - a),
          wrong: [fmt(180 - a), fmt(a), fmt(90 - a + 10)],
          steps: `<p>和为 ${m('90^{\\circ}')} 的两个角互为余角，所以余角是 ${m(`90^{\\circ}-${a}^{\\circ}=${90 - a}^{\\circ}`)}。</p>`,
        };
      }
      if (level <= 3) {
        return {
          claim: (v) =>
            `若 ${m(`\\angle\\alpha=${a}^{\\circ}`)}，则它的补角 ${m(`180^{\\circ}-\\angle\\alpha=${v}^{\\circ}`)}`,
          ask: `若 ${m(`\\angle\\alpha=${a}^{\\circ}`)}，则它的补角 ${m(`180^{\\circ}-\\angle\\alpha=`)}${BLANK}°`,
          value: fmt(180 - a),
          wrong: [fmt(90 - a), fmt(a), fmt(180 - a - 10)],
          steps: `<p>和为 ${m('180^{\\circ}')} 的两个角互为补角，所以补角是 ${m(`180^{\\circ}-${a}^{\\circ}=${180 - a}^{\\circ}`)}。</p>`,
        };
      }
      return {
        claim: (v) =>
          `若 ${m(`\\angle\\alpha=${a}^{\\circ}`)}，则它的补角比它的余角大 ${m(`(180^{\\circ}-\\angle\\alpha)-(90^{\\circ}-\\angle\\alpha)=${v}^{\\circ}`)}`,
        ask: `若 ${m(`\\angle\\alpha=${a}^{\\circ}`)}，则它的补角比它的余角大 ${m(`(180^{\\circ}-\\angle\\alpha)-(90^{\\circ}-\\angle\\alpha)=`)}${BLANK}°`,
        value: '90',
        wrong: [fmt(2 * a), fmt(180 - 2 * a), fmt(90 - a)],
        steps: `<p>补角是 ${m(`${180 - a}^{\\circ}`)}，余角是 ${m(`${90 - a}^{\\circ}`)}，相差 ${m('90^{\\circ}')}——任何一个锐角的补角都比它的余角大 ${m('90^{\\circ}')}。</p>`,
      };
    },
  },
  {
    name: 'roots',
    textbookKey: 'm7b',
    sectionKey: 'm7b-8-3',
    knowledgeKeys: ['k-m-real-op', 'k-m-real-arith-sqrt', 'k-m-real-cbrt'],
    what: '下列计算',
    fact: (rng, level) => {
      const s = int(rng, 2, 12);
      const c = nonZero(rng, -5, 5);
      if (level <= 2) {
        return {
          claim: (v) => m(`\\sqrt{${s * s}}=${v}`),
          ask: `计算：${m(`\\sqrt{${s * s}}=`)}${BLANK}`,
          value: fmt(s),
          wrong: [`\\pm ${s}`, fmt(-s), fmt(s * s)],
          steps: `<p>${m(`\\sqrt{${s * s}}`)} 表示 ${s * s} 的算术平方根，是非负数：因为 ${m(`${s}^{2}=${s * s}`)}，所以 ${m(`\\sqrt{${s * s}}=${s}`)}。</p>`,
        };
      }
      const value = s + c;
      const tex = `\\sqrt{${s * s}}+\\sqrt[3]{${c ** 3}}`;
      if (level <= 4) {
        return {
          claim: (v) => m(`${tex}=${v}`),
          ask: `计算：${m(`${tex}=`)}${BLANK}`,
          value: fmt(value),
          wrong: [fmt(s - c), fmt(-value), fmt(s + Math.abs(c) + (c < 0 ? 0 : 1))],
          steps: `<p>${m(`\\sqrt{${s * s}}=${s}`)}，${m(`\\sqrt[3]{${c ** 3}}=${fmt(c)}`)}，所以原式 ${m(`=${s}+${neg(c)}=${fmt(value)}`)}。</p>`,
        };
      }
      const k = nonZero(rng, 2, 3);
      const tex2 = `${k}\\sqrt{${s * s}}-\\sqrt[3]{${c ** 3}}+\\left|-${s}\\right|`;
      const value2 = k * s - c + s;
      return {
        claim: (v) => m(`${tex2}=${v}`),
        ask: `计算：${m(`${tex2}=`)}${BLANK}`,
        value: fmt(value2),
        wrong: [fmt(k * s + c + s), fmt(k * s - c - s), fmt(-value2)],
        steps: `<p>${m(`${k}\\sqrt{${s * s}}=${k * s}`)}，${m(`\\sqrt[3]{${c ** 3}}=${fmt(c)}`)}，${m(`\\left|-${s}\\right|=${s}`)}，所以原式 ${m(`=${k * s}-${neg(c)}+${s}=${fmt(value2)}`)}。</p>`,
      };
    },
  },
  {
    name: 'parallel-angles',
    textbookKey: 'm7b',
    sectionKey: 'm7b-7-2',
    knowledgeKeys: ['k-m-lines-prop'],
    what: '直线 \\(a\\parallel b\\)，被直线 \\(c\\) 所截，下列角的计算',
    fact: (rng, level) => {
      const a = int(rng, 25, 155);
      const kind =
        level <= 2 ? pick(rng, ['同位角', '内错角'] as const) : level <= 3 ? '同旁内角' : '对顶角与同旁内角';
      if (kind === '同位角' || kind === '内错角') {
        return {
          claim: (v) =>
            `直线 ${m('a\\parallel b')}，${m('\\angle1')} 与 ${m('\\angle2')} 是${kind}，${m(`\\angle1=${a}^{\\circ}`)}，则 ${m(`\\angle2=\\angle1=${v}^{\\circ}`)}`,
          ask: `直线 ${m('a\\parallel b')}，${m('\\angle1')} 与 ${m('\\angle2')} 是${kind}，${m(`\\angle1=${a}^{\\circ}`)}，则 ${m('\\angle2=\\angle1=')}${BLANK}°`,
          value: fmt(a),
          wrong: [fmt(180 - a), fmt(90 - a > 0 ? 90 - a : a + 10), fmt(a + 10)],
          steps: `<p>两直线平行，${kind}相等，所以 ${m(`\\angle2=\\angle1=${a}^{\\circ}`)}。</p>`,
        };
      }
      if (kind === '同旁内角') {
        return {
          claim: (v) =>
            `直线 ${m('a\\parallel b')}，${m('\\angle1')} 与 ${m('\\angle2')} 是同旁内角，${m(`\\angle1=${a}^{\\circ}`)}，则 ${m(`\\angle2=180^{\\circ}-\\angle1=${v}^{\\circ}`)}`,
          ask: `直线 ${m('a\\parallel b')}，${m('\\angle1')} 与 ${m('\\angle2')} 是同旁内角，${m(`\\angle1=${a}^{\\circ}`)}，则 ${m('\\angle2=180^{\\circ}-\\angle1=')}${BLANK}°`,
          value: fmt(180 - a),
          wrong: [fmt(a), fmt(Math.abs(90 - a) || 45), fmt(180 - a + 10)],
          steps: `<p>两直线平行，同旁内角互补，所以 ${m(`\\angle2=180^{\\circ}-${a}^{\\circ}=${180 - a}^{\\circ}`)}。</p>`,
        };
      }
      return {
        claim: (v) =>
          `直线 ${m('a\\parallel b')}，${m('\\angle1')} 与 ${m('\\angle3')} 是对顶角，${m('\\angle3')} 与 ${m('\\angle2')} 是同旁内角，${m(`\\angle1=${a}^{\\circ}`)}，则 ${m(`\\angle2=180^{\\circ}-\\angle1=${v}^{\\circ}`)}`,
        ask: `直线 ${m('a\\parallel b')}，${m('\\angle1')} 与 ${m('\\angle3')} 是对顶角，${m('\\angle3')} 与 ${m('\\angle2')} 是同旁内角，${m(`\\angle1=${a}^{\\circ}`)}，则 ${m('\\angle2=180^{\\circ}-\\angle1=')}${BLANK}°`,
        value: fmt(180 - a),
        wrong: [fmt(a), fmt(Math.abs(90 - a) || 45), fmt(180 - a - 10)],
        steps: `<p>对顶角相等：${m(`\\angle3=\\angle1=${a}^{\\circ}`)}；两直线平行，同旁内角互补：${m(`\\angle2=180^{\\circ}-\\angle3=${180 - a}^{\\circ}`)}。</p>`,
      };
    },
  },
  {
    name: 'coordinates',
    textbookKey: 'm7b',
    sectionKey: 'm7b-9-1',
    knowledgeKeys: ['k-m-coord-distance', 'k-m-coord-concept'],
    what: '下列关于点的坐标的计算',
    fact: (rng, level) => {
      const x = nonZero(rng, -9, 9);
      const y = nonZero(rng, -9, 9);
      const point = `点 P(${fmt(x)}，${fmt(y)})`;
      if (level <= 3) {
        const axis = level <= 2 ? 'x' : 'y';
        const coord = axis === 'x' ? y : x;
        return {
          claim: (v) => `${point} 到 ${m(axis)} 轴的距离是 ${m(`\\left|${fmt(coord)}\\right|=${v}`)}`,
          ask: `${point} 到 ${m(axis)} 轴的距离是 ${m(`\\left|${fmt(coord)}\\right|=`)}${BLANK}`,
          value: fmt(Math.abs(coord)),
          wrong: [fmt(-Math.abs(coord)), fmt(Math.abs(axis === 'x' ? x : y)), fmt(Math.abs(coord) + 1)],
          steps: `<p>点到 ${m(axis)} 轴的距离等于它的${axis === 'x' ? '纵' : '横'}坐标的绝对值：${m(`\\left|${fmt(coord)}\\right|=${Math.abs(coord)}`)}。</p>`,
        };
      }
      const h = nonZero(rng, -6, 6);
      const k = nonZero(rng, -6, 6);
      const move = `${h > 0 ? '向右' : '向左'}平移 ${Math.abs(h)} 个单位长度，再${k > 0 ? '向上' : '向下'}平移 ${Math.abs(k)} 个单位长度`;
      const coord = level === 4 ? 'x' : 'y';
      const tex =
        coord === 'x' ? `${fmt(x)}${h < 0 ? '' : '+'}${fmt(h)}` : `${fmt(y)}${k < 0 ? '' : '+'}${fmt(k)}`;
      const value = coord === 'x' ? x + h : y + k;
      return {
        claim: (v) =>
          `把${point} ${move}，得到的点的${coord === 'x' ? '横' : '纵'}坐标是 ${m(`${tex}=${v}`)}`,
        ask: `把${point} ${move}，得到的点的${coord === 'x' ? '横' : '纵'}坐标是 ${m(`${tex}=`)}${BLANK}`,
        value: fmt(value),
        wrong: [fmt(coord === 'x' ? x - h : y - k), fmt(coord === 'x' ? x + k : y + h), fmt(-value)],
        steps: `<p>左右平移改变横坐标（右加左减），上下平移改变纵坐标（上加下减），所以${coord === 'x' ? '横' : '纵'}坐标为 ${m(`${tex}=${fmt(value)}`)}。</p>`,
      };
    },
  },
  {
    name: 'system-solution',
    textbookKey: 'm7b',
    sectionKey: 'm7b-10-2',
    knowledgeKeys: ['k-m-eq2-elim', 'k-m-eq2-sub'],
    what: '下列方程组的解',
    fact: (rng, level) => {
      const x = nonZero(rng, -5, 6);
      const y = nonZero(rng, -5, 6);
      const a1 = nonZero(rng, 1, 4);
      const b1 = level <= 2 ? 1 : nonZero(rng, -4, 4);
      const a2 = level <= 2 ? 1 : nonZero(rng, 1, 5);
      let b2 = nonZero(rng, -4, 4);
      if (a1 * b2 === a2 * b1) b2 = b2 === 4 ? -3 : b2 + 1 || 2;
      const e1 = `${poly([
        [a1, 'x'],
        [b1, 'y'],
      ])}=${fmt(a1 * x + b1 * y)}`;
      const e2 = `${poly([
        [a2, 'x'],
        [b2, 'y'],
      ])}=${fmt(a2 * x + b2 * y)}`;
      const system = `\\begin{cases}${e1}\\\\${e2}\\end{cases}`;
      const sol = (sx: number, sy: number) => `\\begin{cases}x=${fmt(sx)}\\\\y=${fmt(sy)}\\end{cases}`;
      return {
        claim: (v) => `方程组 ${m(system)} 的解是 ${m(v)}`,
        ask: `方程组 ${m(system)} 的解是 ${m('x=')}${BLANK}，${m('y=')}${BLANK}`,
        value: sol(x, y),
        wrong: [sol(y, x), sol(-x, y), sol(x, -y), sol(x + 1, y - 1)].filter((w) => w !== sol(x, y)),
        steps: `<p>用${b1 === 1 || a2 === 1 ? '代入' : '加减'}消元法消去一个未知数，求得 ${m(`x=${fmt(x)}`)}，再代入求得 ${m(`y=${fmt(y)}`)}。检验：${m(`${fmt(a1)}\\times${neg(x)}+${neg(b1)}\\times${neg(y)}=${fmt(a1 * x + b1 * y)}`)}，${m(`${fmt(a2)}\\times${neg(x)}+${neg(b2)}\\times${neg(y)}=${fmt(a2 * x + b2 * y)}`)}。</p>`,
      };
    },
  },
  {
    name: 'ineq-member',
    textbookKey: 'm7b',
    sectionKey: 'm7b-11-2',
    knowledgeKeys: ['k-m-ineq-solve', 'k-m-ineq-concept'],
    what: '下列判断',
    fact: (rng, level) => {
      const a = nonZero(rng, 2, 5);
      const b = int(rng, -6, 6);
      const c = int(rng, -10, 12);
      const op = pick(rng, ['\\gt', '\\lt', '\\ge', '\\le'] as const);
      const holds = (x: number) => {
        const l = a * x + b;
        return op === '\\gt' ? l > c : op === '\\lt' ? l < c : op === '\\ge' ? l >= c : l <= c;
      };
      const candidates = Array.from({ length: 21 }, (_, i) => i - 10);
      const good = candidates.filter(holds);
      const bad = candidates.filter((x) => !holds(x));
      const k = level <= 2 ? 1 : level <= 4 ? 2 : 3;
      const lhs =
        k === 1
          ? poly([
              [a, 'x'],
              [b, ''],
            ])
          : `${k}(${poly([
              [a, 'x'],
              [b, ''],
            ])})`;
      const rhs = fmt(k * c);
      const x = pick(rng, good);
      return {
        claim: (v) => `${m(`x=${v}`)} 是不等式 ${m(`${lhs}${op} ${rhs}`)} 的一个解`,
        ask: `写出不等式 ${m(`${lhs}${op} ${rhs}`)} 的一个整数解：${m('x=')}${BLANK}`,
        value: fmt(x),
        wrong: shuffle(rng, bad).slice(0, 3).map(fmt),
        steps: `<p>解不等式：${k > 1 ? `两边同除以 ${k}，` : ''}移项得 ${m(`${fmt(a)}x${op} ${fmt(c - b)}`)}，两边同除以正数 ${a}，不等号方向不变。把 ${m(`x=${fmt(x)}`)} 代入：${m(`${fmt(k)}\\times(${fmt(a)}\\times${neg(x)}${b < 0 ? '' : '+'}${fmt(b)})=${fmt(k * (a * x + b))}`)}，满足不等式。</p>`,
      };
    },
  },
  {
    name: 'mean',
    textbookKey: 'm7b',
    sectionKey: 'm7b-12-2',
    knowledgeKeys: ['k-m-stat-mean'],
    what: '下列平均数的计算',
    fact: (rng, level) => {
      const n = level <= 2 ? 3 : level <= 4 ? 4 : 5;
      const mean = int(rng, 60, 95);
      const data = Array.from({ length: n - 1 }, () => mean + int(rng, -8, 8));
      data.push(mean * n - data.reduce((s, x) => s + x, 0));
      const tex = `\\frac{${data.join('+')}}{${n}}`;
      return {
        claim: (v) => `一组数据 ${data.join('，')} 的平均数 ${m(`${tex}=${v}`)}`,
        ask: `一组数据 ${data.join('，')} 的平均数 ${m(`${tex}=`)}${BLANK}`,
        value: fmt(mean),
        wrong: [fmt(mean + 1), fmt(mean - 2), fmt(data[0]!)]
          .filter((w) => w !== fmt(mean))
          .concat([fmt(mean + 3)]),
        steps: `<p>平均数等于数据之和除以数据个数：${m(`${tex}=\\frac{${mean * n}}{${n}}=${mean}`)}。</p>`,
      };
    },
  },
];

function gcd(a: number, b: number): number {
  return b === 0 ? Math.abs(a) : gcd(b, a % b);
}

// ───────────── the five structures ─────────────

const LEVEL_OF = (i: number) => ((i % 5) + 1) as 1 | 2 | 3 | 4 | 5;

function distinctWrong(f: Fact): string[] {
  const wrong = [...new Set(f.wrong.filter((w) => w !== f.value))];
  if (wrong.length === 0) throw new Error(`no wrong value for ${f.ask}`);
  return wrong;
}

type Body = Pick<Draft, 'stem' | 'options' | 'answer' | 'analysis'>;

/** One structure: a question of `type` per index, its level cycling through 1–5, its body built from facts. */
function structure(type: string, body: (t: Topic, rng: Rng, level: number) => Body) {
  return (t: Topic) =>
    (rng: Rng, i: number): Draft => {
      const level = LEVEL_OF(i);
      return {
        sectionKey: t.sectionKey,
        type,
        difficulty: level,
        knowledgeKeys: t.knowledgeKeys,
        ...body(t, rng, level),
      };
    };
}

/** Four facts of the topic as options, `rightCount` of them stated with their right value. */
function choices(t: Topic, rng: Rng, level: number, rightCount: number) {
  const facts = Array.from({ length: 4 }, () => t.fact(rng, level));
  const right = new Set(shuffle(rng, [0, 1, 2, 3]).slice(0, rightCount));
  const options = facts.map((f, k) => f.claim(right.has(k) ? f.value : pick(rng, distinctWrong(f))));
  const answer = [...right]
    .sort()
    .map((k) => 'ABCD'[k])
    .join('');
  const worked = facts.map(
    (f, k) => `<p>${'ABCD'[k]}．${f.claim(f.value)}，${right.has(k) ? '原选项正确' : '原选项错误'}。</p>`,
  );
  return { options, answer, analysis: `<p>逐项计算：</p>${worked.join('')}` };
}

const judge = structure('判断题', (t, rng, level) => {
  const f = t.fact(rng, level);
  const right = rng() < 0.5;
  return {
    stem: `<p>${f.claim(right ? f.value : pick(rng, distinctWrong(f)))}。</p>`,
    answer: right ? '正确' : '错误',
    analysis: `${f.steps}<p>${right ? '说法正确' : `说法错误，正确结果是 ${m(f.value)}`}。</p>`,
  };
});

const single = structure('单选题', (t, rng, level) => {
  const c = choices(t, rng, level, 1);
  return {
    ...c,
    stem: `<p>${t.what}正确的是${SLOT}</p>`,
    analysis: `${c.analysis}<p>所以正确的是 ${c.answer}。</p>`,
  };
});

const multiple = structure('多选题', (t, rng, level) => {
  const c = choices(t, rng, level, int(rng, 2, 3));
  return {
    ...c,
    stem: `<p>${t.what}中，正确的有${SLOT}</p>`,
    analysis: `${c.analysis}<p>所以正确的有 ${c.answer.split('').join('、')}。</p>`,
  };
});

const blank = structure('填空题', (t, rng, level) => {
  const f = t.fact(rng, level);
  return { stem: `<p>${f.ask}。</p>`, answer: m(f.value), analysis: f.steps };
});

const worked = structure('解答题', (t, rng, level) => {
  const f = t.fact(rng, level);
  return {
    stem: `<p>${f.ask.replaceAll(BLANK, '？')}（写出过程）</p>`,
    answer: `<p>${f.claim(f.value)}</p>`,
    analysis: f.steps,
  };
});

const STRUCTURES = [
  ['judge', judge, 10],
  ['single', single, 10],
  ['multiple', multiple, 10],
  ['blank', blank, 10],
  ['worked', worked, 10],
] as const;

/**
 * Runs one structure of a topic `count` times with its own seed, as generate in kit.ts does (same key scheme, so
 * one structure of one topic is one family), but a question is new when its stem or its options are: choice stems
 * such as 「下列计算正确的是」 repeat, their options do not.
 */
function structureQuestions(
  t: Topic,
  name: string,
  count: number,
  make: (rng: Rng, i: number) => Draft,
): QuestionSeed[] {
  const family = `${t.name}-${name}`;
  let seed = 0;
  for (const ch of `${t.textbookKey}/${family}`) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) >>> 0;
  const rng = seededRandom(seed);
  const out: QuestionSeed[] = [];
  const seen = new Set<string>();
  for (let i = 0, tries = 0; out.length < count && tries < count * 20; tries++) {
    const draft = make(rng, i);
    const identity = JSON.stringify([draft.stem, draft.options ?? []]);
    if (seen.has(identity) || new Set(draft.options ?? []).size !== (draft.options ?? []).length) continue;
    seen.add(identity);
    i++;
    out.push({
      key: `q-g-${draft.sectionKey}-${family}-${String(out.length + 1).padStart(2, '0')}`,
      subject: '数学',
      textbookKey: t.textbookKey,
      ...yearAndSource(rng),
      ...draft,
    });
  }
  return out;
}

function topicQuestions(t: Topic): QuestionSeed[] {
  return STRUCTURES.flatMap(([name, make, count]) =>
    structureQuestions(t, name, t.perStructure ?? count, make(t)),
  );
}

/** The checked computational questions of 七年级 mathematics (five structures per topic). */
export const MATH_7_CHECKED: QuestionSeed[] = [...TOPICS, ...MORE_TOPICS].flatMap(topicQuestions);
