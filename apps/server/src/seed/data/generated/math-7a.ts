/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed } from '../types.js';
import {
  BLANK,
  Frac,
  SLOT,
  choice,
  fmt,
  generate,
  int,
  m,
  nonZero,
  p,
  pick,
  poly,
  r,
  term,
  signed,
  type Draft,
  type Rng,
} from './kit.js';

// 人教版 七年级上册: computation items with varied numbers. Answers are computed, analyses worked step by step,
// difficulty follows the numbers (negatives, fractions, more terms, brackets make an item harder).

const gen = (name: string, count: number, make: (rng: Rng, i: number) => Draft) =>
  generate('数学', 'm7a', name, count, make);

// ───────────── 第一章 有理数 ─────────────

const OPPOSITES = [
  { plus: '收入', minus: '支出', unit: '元' },
  { plus: '零上', minus: '零下', unit: '℃' },
  { plus: '向东走', minus: '向西走', unit: '米' },
  { plus: '盈利', minus: '亏损', unit: '万元' },
  { plus: '水位上升', minus: '水位下降', unit: '厘米' },
  { plus: '存入', minus: '取出', unit: '元' },
  { plus: '高于海平面', minus: '低于海平面', unit: '米' },
  { plus: '增产', minus: '减产', unit: '吨' },
] as const;

const signedQuantity = gen('signed', 8, (rng, i) => {
  const o = OPPOSITES[i % OPPOSITES.length]!;
  const a = int(rng, 2, 60);
  const b = int(rng, 2, 90);
  const { options, answer } = choice(rng, `${m(`-${b}`)} ${o.unit}`, [
    `${m(`+${b}`)} ${o.unit}`,
    `${m(`-${a}`)} ${o.unit}`,
    `${m(`+${a + b}`)} ${o.unit}`,
    `${m(`-${a + b}`)} ${o.unit}`,
  ]);
  return {
    sectionKey: 'm7a-1-1',
    type: '单选题',
    difficulty: 1,
    stem: `<p>如果${o.plus} ${a} ${o.unit}记作 ${m(`+${a}`)} ${o.unit}，那么${o.minus} ${b} ${o.unit}应记作${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>“${o.plus}”与“${o.minus}”是一对具有相反意义的量。${o.plus}记为正，则${o.minus}记为负，所以${o.minus} ${b} ${o.unit}记作 ${m(`-${b}`)} ${o.unit}。</p>`,
    knowledgeKeys: ['k-m-rational-sign'],
  };
});

/** A fraction or an integer to take the opposite and absolute value of. */
function someRational(rng: Rng): Frac {
  return rng() < 0.5 ? new Frac(nonZero(rng, -30, 30)) : new Frac(nonZero(rng, -9, 9), int(rng, 2, 9));
}

const oppositeAbs = gen('opposite-abs', 8, (rng) => {
  let x = someRational(rng);
  while (x.isInt && Math.abs(x.n) === 1) x = someRational(rng);
  const neg = x.neg();
  const abs = x.n < 0 ? neg : x;
  return {
    sectionKey: 'm7a-1-2',
    type: '填空题',
    difficulty: x.isInt ? 1 : 2,
    stem: `<p>${m(x.tex())} 的相反数是${BLANK}，绝对值是${BLANK}。</p>`,
    answer: `${m(neg.tex())}；${m(abs.tex())}`,
    analysis: `<p>只有符号不同的两个数互为相反数，所以 ${m(x.tex())} 的相反数是 ${m(neg.tex())}。<br>${
      x.n < 0 ? '负数的绝对值是它的相反数' : '正数的绝对值是它本身'
    }，所以 ${m(r`\left|${x.tex()}\right|=${abs.tex()}`)}。</p>`,
    knowledgeKeys: ['k-m-rational-opposite', 'k-m-rational-abs'],
  };
});

const axisDistance = gen('axis-distance', 6, (rng) => {
  const a = nonZero(rng, -8, 8);
  const d = int(rng, 2, 9);
  const right = a + d;
  const left = a - d;
  const both = `${m(fmt(left))} 或 ${m(fmt(right))}`;
  const { options, answer } = choice(rng, both, [
    m(fmt(right)),
    m(fmt(left)),
    `${m(fmt(-left))} 或 ${m(fmt(-right))}`,
    `${m(fmt(a + 2 * d))} 或 ${m(fmt(a - 2 * d))}`,
  ]);
  return {
    sectionKey: 'm7a-1-2',
    type: '单选题',
    difficulty: 3,
    stem: `<p>数轴上点 ${m('A')} 表示的数是 ${m(fmt(a))}，则数轴上与点 ${m('A')} 的距离为 ${d} 个单位长度的点表示的数是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>所求的点可能在点 ${m('A')} 的右边，也可能在左边：<br>向右移动 ${d} 个单位：${m(`${fmt(a)}+${d}=${fmt(right)}`)}；向左移动 ${d} 个单位：${m(`${fmt(a)}-${d}=${fmt(left)}`)}。<br>所以这个点表示的数是 ${both}，注意不要漏解。</p>`,
    knowledgeKeys: ['k-m-rational-axis'],
  };
});

const compareNegatives = gen('compare', 6, (rng) => {
  let a = new Frac(-int(rng, 1, 8), int(rng, 2, 9));
  let b = new Frac(-int(rng, 1, 8), int(rng, 2, 9));
  while (a.equals(b)) b = new Frac(-int(rng, 1, 8), int(rng, 2, 9));
  if (a.isInt) a = new Frac(a.n * 2 - 1, 2);
  const lcd = (a.d * b.d) / gcdOf(a.d, b.d);
  const an = (-a.n * lcd) / a.d;
  const bn = (-b.n * lcd) / b.d;
  const sign = an < bn ? r`\gt` : r`\lt`;
  return {
    sectionKey: 'm7a-1-2',
    type: '填空题',
    difficulty: a.d === b.d ? 2 : 3,
    stem: `<p>比较大小：${m(a.tex())}${BLANK}${m(b.tex())}（填“&gt;”“&lt;”或“=”）。</p>`,
    answer: m(sign),
    analysis: `<p>两个负数比较大小，绝对值大的反而小。<br>${m(r`\left|${a.tex()}\right|=\frac{${an}}{${lcd}}`)}，${m(
      r`\left|${b.tex()}\right|=\frac{${bn}}{${lcd}}`,
    )}。<br>因为 ${m(r`\frac{${an}}{${lcd}}${an < bn ? r`\lt` : r`\gt`}\frac{${bn}}{${lcd}}`)}，所以 ${m(
      `${a.tex()}${sign}${b.tex()}`,
    )}。</p>`,
    knowledgeKeys: ['k-m-rational-compare', 'k-m-rational-abs'],
  };
});

/** "3\times" before a factor; nothing for 1 and "-" for −1. */
function coefTimes(k: number): string {
  return k === 1 ? '' : k === -1 ? '-' : `${fmt(k)}\\times`;
}

function gcdOf(a: number, b: number): number {
  return b === 0 ? a : gcdOf(b, a % b);
}

// ───────────── 第二章 有理数的运算 ─────────────

const addSub = gen('add-sub', 12, (rng) => {
  const terms = rng() < 0.5 ? 3 : 4;
  const nums = Array.from({ length: terms }, () => nonZero(rng, -25, 25));
  const ops = Array.from({ length: terms - 1 }, () => (rng() < 0.5 ? '+' : '-'));
  let expr = fmt(nums[0]!);
  ops.forEach((op, k) => (expr += `${op}${p(nums[k + 1]!)}`));
  // As a sum: subtracting a number is adding its opposite.
  const addends = [nums[0]!, ...ops.map((op, k) => (op === '+' ? nums[k + 1]! : -nums[k + 1]!))];
  const asSum = addends.map((n, k) => (k === 0 ? fmt(n) : `+${p(n)}`)).join('');
  const value = addends.reduce((s, n) => s + n, 0);
  const pos = addends.filter((n) => n > 0).reduce((s, n) => s + n, 0);
  const neg = addends.filter((n) => n < 0).reduce((s, n) => s + n, 0);
  const negatives = nums.filter((n) => n < 0).length;
  const grouping =
    pos > 0 && neg < 0
      ? `再把正数、负数分别相加：正数的和为 ${m(fmt(pos))}，负数的和为 ${m(fmt(neg))}，<br>所以原式 ${m(`=${fmt(pos)}${fmt(neg)}=${fmt(value)}`)}。`
      : `各加数同号，取相同的符号，绝对值相加：原式 ${m(`=${fmt(value)}`)}。`;
  return {
    sectionKey: 'm7a-2-1',
    type: '填空题',
    difficulty: terms === 3 && negatives <= 1 ? 1 : terms === 3 ? 2 : 3,
    stem: `<p>计算：${m(expr)}=${BLANK}。</p>`,
    answer: m(fmt(value)),
    analysis: `<p>先把减法统一成加法（减去一个数等于加上这个数的相反数）：<br>${m(`${expr}=${asSum}`)}。<br>${grouping}</p>`,
    knowledgeKeys: ops.includes('-') ? ['k-m-rational-addsub', 'k-m-rational-sub'] : ['k-m-rational-add'],
  };
});

const mulDiv = gen('mul-div', 10, (rng) => {
  const b = pick(rng, [-9, -8, -7, -6, -5, -4, -3, -2, 2, 3, 4, 5, 6, 7, 8, 9]);
  const c = pick(rng, [-6, -5, -4, -3, -2, 2, 3, 4, 5, 6]);
  const result = nonZero(rng, -12, 12);
  // a × b ÷ c = result, so a = result × c ÷ b must be a whole number: build it from the answer.
  const a = result * c;
  const value = (a * b) / c;
  const negatives = [a, b, c].filter((n) => n < 0).length;
  const sign = negatives % 2 === 0 ? '正' : '负';
  const { options, answer } = choice(rng, m(fmt(value)), [
    m(fmt(-value)),
    m(fmt(a * b * c)),
    m(fmt(value + b)),
    m(fmt(-(a * b * c))),
    m(fmt(value + 1)),
    m(fmt(value - 2)),
  ]);
  return {
    sectionKey: 'm7a-2-2',
    type: '单选题',
    difficulty: negatives >= 2 ? 3 : 2,
    stem: `<p>计算 ${m(r`${fmt(a)}\times${p(b)}\div${p(c)}`)} 的结果是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>乘除混合运算，先把除法化为乘法：${m(r`\div${p(c)}`)} 即乘 ${m(new Frac(1, c).texP())}。<br>负因数有 ${negatives} 个，积的符号为${sign}；绝对值 ${m(
      r`${Math.abs(a)}\times${Math.abs(b)}\div${Math.abs(c)}=${Math.abs(value)}`,
    )}。<br>所以结果是 ${m(fmt(value))}。</p>`,
    knowledgeKeys: ['k-m-rational-mul', 'k-m-rational-div'],
  };
});

const reciprocal = gen('reciprocal', 6, (rng) => {
  const x = new Frac(nonZero(rng, -9, 9), int(rng, 2, 7));
  const inv = new Frac(1).div(x);
  const mixed = rng() < 0.5 && Math.abs(x.n) > x.d;
  return {
    sectionKey: 'm7a-2-2',
    type: '填空题',
    difficulty: mixed ? 2 : 1,
    stem: `<p>${m(x.tex())} 的倒数是${BLANK}，它的相反数的倒数是${BLANK}。</p>`,
    answer: `${m(inv.tex())}；${m(inv.neg().tex())}`,
    analysis: `<p>乘积是 1 的两个数互为倒数：${m(r`${x.tex()}\times${inv.texP()}=1`)}，所以 ${m(x.tex())} 的倒数是 ${m(
      inv.tex(),
    )}。<br>${m(x.tex())} 的相反数是 ${m(x.neg().tex())}，它的倒数是 ${m(inv.neg().tex())}。</p>`,
    knowledgeKeys: ['k-m-rational-reciprocal', 'k-m-rational-opposite'],
  };
});

const powers = gen('power', 8, (rng) => {
  const a = int(rng, 2, 5);
  const n = int(rng, 2, a === 2 ? 5 : 3);
  const pw = a ** n;
  const even = n % 2 === 0;
  const kind = pick(rng, ['paren', 'bare'] as const);
  const tex = kind === 'paren' ? `(-${a})^{${n}}` : `-${a}^{${n}}`;
  const value = kind === 'paren' ? (even ? pw : -pw) : -pw;
  const { options, answer } = choice(rng, m(fmt(value)), [
    m(fmt(-value)),
    m(fmt(-a * n)),
    m(fmt(a * n)),
    m(fmt(value + a)),
    m(fmt(value - 1)),
  ]);
  return {
    sectionKey: 'm7a-2-3',
    type: '单选题',
    difficulty: kind === 'bare' ? 2 : 1,
    stem: `<p>${m(tex)} 的值是${SLOT}</p>`,
    options,
    answer,
    analysis:
      kind === 'paren'
        ? `<p>${m(tex)} 表示 ${n} 个 ${m(`-${a}`)} 相乘，负数的${even ? '偶' : '奇'}次幂是${even ? '正' : '负'}数，所以 ${m(`${tex}=${fmt(value)}`)}。</p>`
        : `<p>${m(tex)} 表示 ${m(`${a}^{${n}}`)} 的相反数，底数是 ${a} 而不是 ${m(`-${a}`)}。${m(`${a}^{${n}}=${pw}`)}，所以 ${m(`${tex}=${fmt(value)}`)}。</p>`,
    knowledgeKeys: ['k-m-rational-power'],
  };
});

/** Contexts with a plausible number of digits (the exponent range of each). */
const SCI_CONTEXTS: { text: string; exp: [number, number] }[] = [
  { text: '某市去年接待游客约 {n} 人次', exp: [6, 7] },
  { text: '地球与月球的平均距离约为 {n} 米', exp: [8, 8] },
  { text: '某水库的库容约为 {n} 立方米', exp: [6, 9] },
  { text: '一部手机应用的下载量约为 {n} 次', exp: [5, 8] },
  { text: '某省去年参加中考的学生约 {n} 人', exp: [5, 5] },
  { text: '某城市常住人口约为 {n} 人', exp: [6, 7] },
  { text: '某大型体育场可容纳观众约 {n} 人', exp: [4, 4] },
];

const scientific = gen('scientific', 8, (rng) => {
  const context = pick(rng, SCI_CONTEXTS);
  const exp = int(rng, context.exp[0], context.exp[1]);
  const digits = int(rng, 2, Math.min(4, exp));
  const mantissaInt = int(rng, 10 ** (digits - 1) + 1, 10 ** digits - 1);
  if (mantissaInt % 10 === 0) return scientificFallback(rng);
  const n = mantissaInt * 10 ** (exp - digits + 1);
  const mantissa = mantissaInt / 10 ** (digits - 1);
  return {
    sectionKey: 'm7a-2-3',
    type: '填空题',
    difficulty: exp >= 8 ? 2 : 1,
    stem: `<p>${context.text.replace('{n}', String(n))}，用科学记数法表示为${BLANK}。</p>`,
    answer: m(r`${fmt(mantissa)}\times10^{${exp}}`),
    analysis: `<p>科学记数法的形式是 ${m(r`a\times10^{n}`)}，其中 ${m(r`1\le |a|\lt 10`)}，${m('n')} 等于原数的整数位数减 1。<br>${n} 是 ${exp + 1} 位整数，所以 ${m(
      r`n=${exp}`,
    )}，${m(r`${n}=${fmt(mantissa)}\times10^{${exp}}`)}。</p>`,
    knowledgeKeys: ['k-m-rational-sci'],
  };
});

function scientificFallback(rng: Rng): Draft {
  const mantissa = int(rng, 11, 99) / 10;
  const exp = int(rng, 4, 9);
  const n = Math.round(mantissa * 10 ** exp);
  return {
    sectionKey: 'm7a-2-3',
    type: '填空题',
    difficulty: 1,
    stem: `<p>把 ${n} 用科学记数法表示为${BLANK}。</p>`,
    answer: m(r`${fmt(mantissa)}\times10^{${exp}}`),
    analysis: `<p>${n} 是 ${exp + 1} 位整数，${m('n')} 等于整数位数减 1，即 ${exp}；所以 ${m(r`${n}=${fmt(mantissa)}\times10^{${exp}}`)}。</p>`,
    knowledgeKeys: ['k-m-rational-sci'],
  };
}

const mixedOps = gen('mixed', 8, (rng) => {
  const a = int(rng, 2, 4);
  const b = nonZero(rng, -6, 6);
  const c = int(rng, 2, 6);
  const d = pick(rng, [-5, -4, -3, -2, 2, 3, 4, 5]);
  const e = d * int(rng, 1, 4) * (rng() < 0.5 ? 1 : -1);
  // -a² + b × c − e ÷ d
  const t1 = -(a * a);
  const t2 = b * c;
  const t3 = e / d;
  const value = t1 + t2 - t3;
  const hard = b < 0 && d < 0;
  return {
    sectionKey: 'm7a-2-3',
    type: '解答题',
    difficulty: hard ? 4 : 3,
    stem: `<p>计算：${m(r`-${a}^{2}+${p(b)}\times${c}-${p(e)}\div${p(d)}`)}。</p>`,
    answer: `<p>${m(fmt(value))}</p>`,
    analysis: `<p>按先乘方、再乘除、最后加减的顺序计算：<br>${m(r`-${a}^{2}=${t1}`)}（底数是 ${a}），${m(r`${p(b)}\times${c}=${t2}`)}，${m(
      r`${p(e)}\div${p(d)}=${fmt(t3)}`,
    )}。<br>原式 ${m(`=${t1}${signed(t2).replace(' ', '')}${signed(-t3).replace(' ', '')}=${fmt(value)}`)}。</p>`,
    knowledgeKeys: ['k-m-rational-mixed', 'k-m-rational-power'],
  };
});

// ───────────── 第三章 代数式 ─────────────

const writeExpr = gen('write-expr', 8, (rng, i) => {
  const kinds = [
    () => {
      const k = int(rng, 6, 9);
      return {
        stem: `一件商品原价 ${m('a')} 元，打 ${k} 折后又降价 ${m('b')} 元，现价是${SLOT}`,
        right: m(r`\left(0.${k}a-b\right)`) + ' 元',
        wrong: [
          m(r`0.${k}\left(a-b\right)`) + ' 元',
          m(r`\left(a-0.${k}b\right)`) + ' 元',
          m(r`\left(${k}a-b\right)`) + ' 元',
        ],
        why: `打 ${k} 折即按原价的 ${k * 10}% 出售，现价为 ${m(`0.${k}a`)} 元，再降价 ${m('b')} 元，所以现价是 ${m(r`\left(0.${k}a-b\right)`)} 元。`,
      };
    },
    () => {
      const k = int(rng, 2, 5);
      const c = int(rng, 1, 9);
      return {
        stem: `比 ${m('x')} 的 ${k} 倍少 ${c} 的数是${SLOT}`,
        right: m(`${k}x-${c}`),
        wrong: [m(`${k}(x-${c})`), m(`${c}-${k}x`), m(`${k}x+${c}`)],
        why: `先求 ${m('x')} 的 ${k} 倍，得 ${m(`${k}x`)}，再“少 ${c}”即减去 ${c}，所以是 ${m(`${k}x-${c}`)}。`,
      };
    },
    () => {
      const v = int(rng, 3, 8) * 10;
      return {
        stem: `甲、乙两地相距 ${m('s')} 千米，一辆汽车以每小时 ${v} 千米的速度行驶 ${m('t')} 小时后，离乙地还有${SLOT}`,
        right: m(`(s-${v}t)`) + ' 千米',
        wrong: [m(`(${v}t-s)`) + ' 千米', m(`(s+${v}t)`) + ' 千米', m(r`\frac{s}{${v}}`) + ' 千米'],
        why: `汽车行驶的路程为 ${m(`${v}t`)} 千米，剩下的路程为总路程减去已行驶的路程，即 ${m(`(s-${v}t)`)} 千米。`,
      };
    },
    () => {
      const k = int(rng, 2, 9);
      return {
        stem: `一个两位数，十位数字是 ${m('a')}，个位数字比十位数字大 ${k}，这个两位数可以表示为${SLOT}`,
        right: m(`11a+${k}`),
        wrong: [m(`a(a+${k})`), m(`10a+${k}`), m(`2a+${k}`)],
        why: `个位数字是 ${m(`a+${k}`)}，两位数 = 十位数字 × 10 + 个位数字 ${m(`=10a+(a+${k})=11a+${k}`)}。`,
      };
    },
  ];
  const k = kinds[i % kinds.length]!();
  const { options, answer } = choice(rng, k.right, k.wrong);
  return {
    sectionKey: 'm7a-3-1',
    type: '单选题',
    difficulty: i % kinds.length === 3 ? 3 : 2,
    stem: `<p>${k.stem}</p>`,
    options,
    answer,
    analysis: `<p>${k.why}</p>`,
    knowledgeKeys: ['k-m-alg-write'],
  };
});

const evalExpr = gen('eval', 10, (rng) => {
  const a = nonZero(rng, -4, 4);
  const b = nonZero(rng, -5, 5);
  const x = nonZero(rng, -3, 3);
  const y = nonZero(rng, -4, 4);
  const value = a * x * x + b * y - x * y;
  const negs = [x, y].filter((n) => n < 0).length;
  const expr = poly([
    [a, 'x^{2}'],
    [b, 'y'],
    [-1, 'xy'],
  ]);
  return {
    sectionKey: 'm7a-3-2',
    type: '填空题',
    difficulty: negs === 2 ? 3 : 2,
    stem: `<p>当 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 时，代数式 ${m(expr)} 的值是${BLANK}。</p>`,
    answer: m(fmt(value)),
    analysis: `<p>把 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 代入，负数代入时要加括号：<br>原式 ${m(
      r`=${coefTimes(a)}${p(x)}^{2}${b < 0 ? '-' : '+'}${coefTimes(Math.abs(b))}${p(y)}-${p(x)}\times${p(y)}`,
    )}<br>${m(
      `=${poly([
        [a * x * x, ''],
        [b * y, ''],
        [-x * y, ''],
      ])}=${fmt(value)}`,
    )}。</p>`,
    knowledgeKeys: ['k-m-alg-value'],
  };
});

const wholeSubstitution = gen('whole', 6, (rng) => {
  const k = int(rng, 2, 4);
  const v = nonZero(rng, -5, 6);
  const c = nonZero(rng, -9, 9);
  const sign = rng() < 0.5 ? 1 : -1;
  const value = sign * k * v + c;
  const lead = sign === 1 ? `${k}a-${2 * k}b` : `${2 * k}b-${k}a`;
  return {
    sectionKey: 'm7a-3-2',
    type: '填空题',
    difficulty: sign === 1 ? 3 : 4,
    stem: `<p>若 ${m(`a-2b=${fmt(v)}`)}，则代数式 ${m(`${lead}${signed(c).replace(' ', '')}`)} 的值为${BLANK}。</p>`,
    answer: m(fmt(value)),
    analysis: `<p>不必求出 ${m('a')}、${m('b')}，把 ${m('a-2b')} 看作一个整体：<br>${m(`${lead}=${sign === 1 ? '' : '-'}${k}(a-2b)`)}，所以原式 ${m(
      r`=${sign === 1 ? '' : '-'}${k}\times${p(v)}${signed(c).replace(' ', '')}=${fmt(value)}`,
    )}。</p>`,
    knowledgeKeys: ['k-m-alg-whole', 'k-m-alg-value'],
  };
});

// ───────────── 第四章 整式的加减 ─────────────

const monomial = gen('monomial', 8, (rng) => {
  const num = nonZero(rng, -9, 9);
  const den = rng() < 0.5 ? 1 : int(rng, 2, 7);
  const coef = new Frac(num, den);
  const ex = int(rng, 1, 4);
  const ey = int(rng, 0, 3);
  const withPi = rng() < 0.25;
  const coefTex = coef.isInt && Math.abs(coef.n) === 1 ? (coef.n < 0 ? '-' : '') : coef.tex();
  const mono = `${coefTex}${withPi ? r`\pi ` : ''}x${ex > 1 ? `^{${ex}}` : ''}${ey > 0 ? `y${ey > 1 ? `^{${ey}}` : ''}` : ''}`;
  const coefAnswer = withPi
    ? `${coef.isInt && Math.abs(coef.n) === 1 ? (coef.n < 0 ? '-' : '') : coef.tex()}\\pi`
    : coef.tex();
  return {
    sectionKey: 'm7a-4-1',
    type: '填空题',
    difficulty: withPi || !coef.isInt ? 2 : 1,
    stem: `<p>单项式 ${m(mono)} 的系数是${BLANK}，次数是${BLANK}。</p>`,
    answer: `${m(coefAnswer)}；${ex + ey}`,
    analysis: `<p>单项式中的数字因数叫做系数${withPi ? `，${m(r`\pi`)} 是数字而不是字母，应算在系数里` : ''}；所有字母的指数和叫做次数。<br>系数是 ${m(
      coefAnswer,
    )}，次数是 ${ey > 0 ? m(`${ex}+${ey}=${ex + ey}`) : ex}。</p>`,
    knowledgeKeys: ['k-m-poly-monomial'],
  };
});

const combineLike = gen('combine', 8, (rng) => {
  const a1 = nonZero(rng, -7, 7);
  const a2 = nonZero(rng, -7, 7);
  const b1 = nonZero(rng, -6, 6);
  const b2 = nonZero(rng, -6, 6);
  const c = nonZero(rng, -9, 9);
  const A = a1 + a2;
  const B = b1 + b2;
  const term = (k: number, v: string, first = false) => {
    if (k === 0) return '';
    const mag = Math.abs(k) === 1 ? '' : String(Math.abs(k));
    return `${k < 0 ? '-' : first ? '' : '+'}${mag}${v}`;
  };
  const expr = `${term(a1, 'a^{2}b', true)}${term(b1, 'ab^{2}')}${term(a2, 'a^{2}b')}${c < 0 ? '' : '+'}${c}${term(b2, 'ab^{2}')}`;
  const result = `${term(A, 'a^{2}b', true)}${term(B, 'ab^{2}', A === 0)}${c < 0 || (A === 0 && B === 0) ? '' : '+'}${c}`;
  return {
    sectionKey: 'm7a-4-2',
    type: '填空题',
    difficulty: A === 0 || B === 0 ? 3 : 2,
    stem: `<p>合并同类项：${m(expr)}=${BLANK}。</p>`,
    answer: m(result),
    analysis: `<p>所含字母相同、相同字母的指数也相同的项是同类项。${m('a^{2}b')} 与 ${m('ab^{2}')} 中字母的指数不同，不是同类项。<br>合并时系数相加、字母和指数不变：${m(
      `(${fmt(a1)}${signed(a2).replace(' ', '')})a^{2}b=${poly([[A, 'a^{2}b']])}`,
    )}，${m(`(${fmt(b1)}${signed(b2).replace(' ', '')})ab^{2}=${poly([[B, 'ab^{2}']])}`)}。<br>所以结果为 ${m(result)}。</p>`,
    knowledgeKeys: ['k-m-poly-like', 'k-m-poly-combine'],
  };
});

const simplifyEval = gen('simplify-eval', 8, (rng) => {
  const k = int(rng, 2, 4);
  const p1 = nonZero(rng, -5, 5);
  const q1 = nonZero(rng, -5, 5);
  const p2 = nonZero(rng, -5, 5);
  const q2 = nonZero(rng, -5, 5);
  // k(x² + p1·xy + q1·y²) − (x² + p2·xy + q2·y²)
  const X = k - 1;
  const XY = k * p1 - p2;
  const Y = k * q1 - q2;
  const x = nonZero(rng, -3, 3);
  const y = nonZero(rng, -2, 2);
  const value = X * x * x + XY * x * y + Y * y * y;
  const poly = (a: number, b: number, c: number) =>
    `${a === 1 ? '' : a}x^{2}${b === 0 ? '' : `${b < 0 ? '-' : '+'}${Math.abs(b) === 1 ? '' : Math.abs(b)}xy`}${
      c === 0 ? '' : `${c < 0 ? '-' : '+'}${Math.abs(c) === 1 ? '' : Math.abs(c)}y^{2}`
    }`;
  const inner1 = poly(1, p1, q1);
  const inner2 = poly(1, p2, q2);
  const simplified = poly(X, XY, Y);
  return {
    sectionKey: 'm7a-4-2',
    type: '解答题',
    difficulty: x < 0 && y < 0 ? 4 : 3,
    stem: `<p>先化简，再求值：${m(`${k}(${inner1})-(${inner2})`)}，其中 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)}。</p>`,
    answer: `<p>化简得 ${m(simplified)}，值为 ${m(fmt(value))}。</p>`,
    analysis: `<p>去括号（括号前是“−”号，括号内各项都要变号），再合并同类项：<br>原式 ${m(
      `=${poly(k, k * p1, k * q1)}-${poly(1, p2, q2)
        .replace(/^x/, 'x')
        .replace(/([+-])/g, (s) => (s === '+' ? '-' : '+'))}`,
    )}<br>${m(`=${simplified}`)}。<br>当 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 时，原式 ${m(
      r`=${coefTimes(X)}${p(x)}^{2}${XY < 0 ? '-' : '+'}${coefTimes(Math.abs(XY))}${p(x)}\times${p(y)}${Y < 0 ? '-' : '+'}${coefTimes(Math.abs(Y))}${p(y)}^{2}=${fmt(value)}`,
    )}。</p>`,
    knowledgeKeys: ['k-m-poly-simplify-eval', 'k-m-poly-bracket'],
  };
});

// ───────────── 第五章 一元一次方程 ─────────────

const isSolution = gen('is-solution', 6, (rng) => {
  const a = nonZero(rng, 2, 6);
  const x0 = nonZero(rng, -5, 5);
  const b = nonZero(rng, -9, 9);
  const c = a * x0 + b;
  const test = rng() < 0.5 ? x0 : x0 + pick(rng, [-2, -1, 1, 2]);
  const lhs = a * test + b;
  const right = lhs === c;
  return {
    sectionKey: 'm7a-5-1',
    type: '判断题',
    difficulty: 1,
    stem: `<p>${m(`x=${fmt(test)}`)} 是方程 ${m(`${a}x${signed(b).replace(' ', '')}=${fmt(c)}`)} 的解。</p>`,
    answer: right ? '正确' : '错误',
    analysis: `<p>把 ${m(`x=${fmt(test)}`)} 代入方程左边：${m(r`${a}\times${p(test)}${signed(b).replace(' ', '')}=${fmt(lhs)}`)}，右边为 ${m(
      fmt(c),
    )}，左边${right ? '等于' : '不等于'}右边，所以 ${m(`x=${fmt(test)}`)} ${right ? '是' : '不是'}方程的解，说法${right ? '正确' : '错误'}。</p>`,
    knowledgeKeys: ['k-m-eq1-solution'],
  };
});

const eqParameter = gen('eq-param', 6, (rng) => {
  const a = nonZero(rng, 2, 5);
  const x0 = nonZero(rng, -4, 5);
  const k = nonZero(rng, -6, 6);
  const c = nonZero(rng, -9, 9);
  // a·x + k·m = c at x = x0  →  m = (c − a·x0) / k; choose c so it divides.
  const mv = nonZero(rng, -5, 5);
  const cc = a * x0 + k * mv;
  void c;
  return {
    sectionKey: 'm7a-5-1',
    type: '填空题',
    difficulty: 2,
    stem: `<p>已知 ${m(`x=${fmt(x0)}`)} 是关于 ${m('x')} 的方程 ${m(`${a}x${k < 0 ? '-' : '+'}${Math.abs(k) === 1 ? '' : Math.abs(k)}m=${fmt(cc)}`)} 的解，则 ${m('m')} 的值是${BLANK}。</p>`,
    answer: m(fmt(mv)),
    analysis: `<p>方程的解满足方程，把 ${m(`x=${fmt(x0)}`)} 代入得 ${m(
      r`${a}\times${p(x0)}${k < 0 ? '-' : '+'}${Math.abs(k) === 1 ? '' : Math.abs(k)}m=${fmt(cc)}`,
    )}，<br>即 ${m(`${fmt(k)}m=${fmt(cc - a * x0)}`)}，解得 ${m(`m=${fmt(mv)}`)}。</p>`,
    knowledgeKeys: ['k-m-eq1-solution', 'k-m-eq1-solve'],
  };
});

const solveLinear = gen('solve', 12, (rng, i) => {
  const x = nonZero(rng, -6, 8);
  const form = i % 3;
  if (form === 0) {
    // a x + b = c x + d
    const a = nonZero(rng, 2, 9);
    let c = nonZero(rng, -5, 5);
    if (c === a) c = a - 1 || -1;
    const b = nonZero(rng, -12, 12);
    const d = (a - c) * x + b;
    return linear(
      `${a}x${signed(b).replace(' ', '')}=${c === 1 ? '' : c === -1 ? '-' : c}x${signed(d).replace(' ', '')}`,
      [
        `移项得 ${m(`${a}x${term(-c, 'x')}=${fmt(d)}${signed(-b).replace(' ', '')}`)}（移项要变号）`,
        `合并同类项得 ${m(`${term(a - c, 'x', true)}=${fmt(d - b)}`)}`,
        `系数化为 1 得 ${m(`x=${fmt(x)}`)}`,
      ],
      x,
      2,
    );
  }
  if (form === 1) {
    // a(x + b) = c(x − d) + e
    const a = nonZero(rng, 2, 5);
    const b = nonZero(rng, -6, 6);
    let c = nonZero(rng, -4, 4);
    if (c === a) c = -c;
    const d = nonZero(rng, -6, 6);
    const e = a * (x + b) - c * (x - d);
    return linear(
      `${a}(x${signed(b).replace(' ', '')})=${c === 1 ? '' : c === -1 ? '-' : c}(x${signed(-d).replace(' ', '')})${signed(e).replace(' ', '')}`,
      [
        `去括号得 ${m(`${a}x${signed(a * b).replace(' ', '')}=${term(c, 'x', true)}${signed(-c * d).replace(' ', '')}${signed(e).replace(' ', '')}`)}`,
        `移项得 ${m(`${a}x${term(-c, 'x')}=${fmt(-c * d)}${signed(e).replace(' ', '')}${signed(-a * b).replace(' ', '')}`)}`,
        `合并同类项得 ${m(`${term(a - c, 'x', true)}=${fmt(-c * d + e - a * b)}`)}`,
        `系数化为 1 得 ${m(`x=${fmt(x)}`)}`,
      ],
      x,
      c < 0 ? 4 : 3,
    );
  }
  // (x + a)/p − (x − b)/q = 1
  const pp = int(rng, 2, 4);
  let qq = int(rng, 2, 6);
  if (qq === pp) qq = pp + 1;
  const l = (pp * qq) / gcdOf(pp, qq);
  // choose a, b so that x solves it: q'(x + a) − p'(x − b) = l, with q' = l/p, p' = l/q
  const qf = l / pp;
  const pf = l / qq;
  const a = nonZero(rng, -5, 5);
  // qf(x + a) − pf(x − b) = l  →  b = (l − qf(x + a) + pf·x) / pf
  const num = l - qf * (x + a) + pf * x;
  if (num % pf !== 0) return solveFallback(rng);
  const b = num / pf;
  if (b === 0) return solveFallback(rng);
  return linear(
    r`\frac{x${signed(a).replace(' ', '')}}{${pp}}-\frac{x${signed(-b).replace(' ', '')}}{${qq}}=1`,
    [
      `去分母（两边同乘 ${l}）得 ${m(`${qf === 1 ? '' : qf}(x${signed(a).replace(' ', '')})-${pf === 1 ? '' : pf}(x${signed(-b).replace(' ', '')})=${l}`)}，注意 1 也要乘 ${l}`,
      `去括号得 ${m(`${qf === 1 ? '' : qf}x${signed(qf * a).replace(' ', '')}-${pf === 1 ? '' : pf}x${signed(pf * b).replace(' ', '')}=${l}`)}`,
      `移项、合并同类项得 ${m(`${term(qf - pf, 'x', true)}=${fmt(l - qf * a - pf * b)}`)}`,
      `系数化为 1 得 ${m(`x=${fmt(x)}`)}`,
    ],
    x,
    4,
  );
});

function solveFallback(rng: Rng): Draft {
  const x = nonZero(rng, -6, 6);
  const a = nonZero(rng, 3, 9);
  const b = nonZero(rng, -15, 15);
  return linear(
    `${a}x${signed(b).replace(' ', '')}=${fmt(a * x + b)}`,
    [
      `移项得 ${m(`${a}x=${fmt(a * x + b)}${signed(-b).replace(' ', '')}`)}`,
      `合并得 ${m(`${a}x=${fmt(a * x)}`)}`,
      `系数化为 1 得 ${m(`x=${fmt(x)}`)}`,
    ],
    x,
    1,
  );
}

function linear(equation: string, steps: string[], x: number, difficulty: 1 | 2 | 3 | 4 | 5): Draft {
  return {
    sectionKey: 'm7a-5-2',
    type: '解答题',
    difficulty,
    stem: `<p>解方程：${m(equation)}。</p>`,
    answer: `<p>${m(`x=${fmt(x)}`)}</p>`,
    analysis: `<p>${steps.join('；<br>')}。<br>检验：把 ${m(`x=${fmt(x)}`)} 代入原方程，左右两边相等。</p>`,
    knowledgeKeys: ['k-m-eq1-solve', 'k-m-eq1-property'],
  };
}

const wordProblems = gen('word', 10, (rng, i) =>
  [allocationProblem, saleProblem, travelProblem, workProblem][i % 4]!(rng),
);

/** 配套: workers make bolts or nuts; 1 bolt needs 2 nuts. */
function allocationProblem(rng: Rng): Draft {
  // 配套: workers make bolts (a each) or nuts (b each); 1 bolt needs 2 nuts.
  const x = int(rng, 6, 20);
  const a = int(rng, 8, 16) * 2;
  const yPer = a * int(rng, 1, 2);
  // nuts per worker: 2·a·x = yPer·(n − x)  → n = x + 2ax / yPer
  const n = x + (2 * a * x) / yPer;
  if (!Number.isInteger(n)) return wordFallback(rng);
  return {
    sectionKey: 'm7a-5-3',
    type: '解答题',
    difficulty: 3,
    stem: `<p>某车间有 ${n} 名工人，每人每天可以生产 ${a} 个螺栓或 ${yPer} 个螺母。1 个螺栓需要配 2 个螺母，为使每天生产的螺栓和螺母刚好配套，应安排多少名工人生产螺栓？</p>`,
    answer: `<p>安排 ${x} 名工人生产螺栓。</p>`,
    analysis: `<p>设安排 ${m('x')} 名工人生产螺栓，则 ${m(`(${n}-x)`)} 名工人生产螺母。<br>螺母数量是螺栓数量的 2 倍：${m(
      r`2\times${a}x=${yPer}(${n}-x)`,
    )}，<br>解得 ${m(`x=${x}`)}。<br>答：应安排 ${x} 名工人生产螺栓，${n - x} 名工人生产螺母。</p>`,
    knowledgeKeys: ['k-m-eq1-app-alloc'],
  };
}

/** 销售: a cost marked up, sold at a discount, with a profit. */
function saleProblem(rng: Rng): Draft {
  // 销售: cost c, marked up by u%, sold at k折, profit t.
  const c = int(rng, 4, 20) * 50;
  const u = pick(rng, [40, 50, 60, 80, 100]);
  const k = pick(rng, [7, 8, 9]);
  const price = (c * (100 + u) * k) / 1000;
  const profit = price - c;
  if (!Number.isInteger(price) || profit <= 0) return wordFallback(rng);
  return {
    sectionKey: 'm7a-5-3',
    type: '解答题',
    difficulty: 3,
    stem: `<p>某商店把一件商品按进价提高 ${u}% 后标价，再打 ${k} 折出售，结果每件仍获利 ${profit} 元。这件商品的进价是多少元？</p>`,
    answer: `<p>进价是 ${c} 元。</p>`,
    analysis: `<p>设这件商品的进价是 ${m('x')} 元，则标价为 ${m(`(1+${u}\\%)x`)} 元，售价为 ${m(r`0.${k}\times(1+${u}\%)x`)} 元。<br>利润 = 售价 − 进价：${m(
      r`0.${k}\times${fmt((100 + u) / 100)}x-x=${profit}`,
    )}，<br>即 ${m(`${fmt(((100 + u) * k) / 1000 - 1)}x=${profit}`)}，解得 ${m(`x=${c}`)}。<br>答：这件商品的进价是 ${c} 元。</p>`,
    knowledgeKeys: ['k-m-eq1-app-sale'],
  };
}

/** 行程: two vehicles start towards each other. */
function travelProblem(rng: Rng): Draft {
  // 行程: two people start towards each other.
  const v1 = int(rng, 3, 8) * 10;
  const v2 = int(rng, 3, 8) * 10;
  const t = int(rng, 2, 5);
  const s = (v1 + v2) * t;
  return {
    sectionKey: 'm7a-5-3',
    type: '解答题',
    difficulty: 2,
    stem: `<p>甲、乙两地相距 ${s} 千米，一辆货车从甲地、一辆客车从乙地同时出发相向而行，货车每小时行驶 ${v1} 千米，客车每小时行驶 ${v2} 千米。经过几小时两车相遇？</p>`,
    answer: `<p>经过 ${t} 小时两车相遇。</p>`,
    analysis: `<p>设经过 ${m('x')} 小时两车相遇。相遇时两车行驶的路程之和等于两地距离：${m(`${v1}x+${v2}x=${s}`)}，<br>即 ${m(
      `${v1 + v2}x=${s}`,
    )}，解得 ${m(`x=${t}`)}。<br>答：经过 ${t} 小时两车相遇。</p>`,
    knowledgeKeys: ['k-m-eq1-app-travel'],
  };
}

/** 工程: A works alone for some days, then A and B together. */
function workProblem(rng: Rng): Draft {
  // 工程: A alone a days, B alone b days, together after A works d days.
  const pairs = [
    [10, 15, 6],
    [12, 24, 8],
    [20, 30, 12],
    [6, 12, 4],
    [15, 30, 10],
    [12, 18, 36 / 5],
  ] as const;
  const [a, b] = pick(rng, pairs.slice(0, 5));
  const d = int(rng, 1, 3);
  // d/a + x(1/a + 1/b) = 1 → x = (1 − d/a)·ab/(a + b)
  const x = new Frac(a - d, a).mul(new Frac(a * b, a + b));
  if (!x.isInt) return wordFallback(rng);
  return {
    sectionKey: 'm7a-5-3',
    type: '解答题',
    difficulty: 4,
    stem: `<p>一项工程，甲队单独做需要 ${a} 天完成，乙队单独做需要 ${b} 天完成。甲队先单独做 ${d} 天，然后两队合作，还需要几天完成这项工程？</p>`,
    answer: `<p>还需要 ${x.n} 天。</p>`,
    analysis: `<p>把整个工程看作 1，甲队每天完成 ${m(r`\frac{1}{${a}}`)}，乙队每天完成 ${m(r`\frac{1}{${b}}`)}。<br>设两队合作还需 ${m('x')} 天，则 ${m(
      r`\frac{${d}}{${a}}+\left(\frac{1}{${a}}+\frac{1}{${b}}\right)x=1`,
    )}，<br>解得 ${m(`x=${x.n}`)}。<br>答：两队合作还需要 ${x.n} 天完成。</p>`,
    knowledgeKeys: ['k-m-eq1-app-work'],
  };
}

function wordFallback(rng: Rng): Draft {
  const x = int(rng, 10, 40);
  const k = int(rng, 2, 4);
  const total = x + k * x;
  return {
    sectionKey: 'm7a-5-3',
    type: '解答题',
    difficulty: 2,
    stem: `<p>某校七年级两个兴趣小组共有 ${total} 人，其中数学小组的人数是科学小组的 ${k} 倍。两个小组各有多少人？</p>`,
    answer: `<p>科学小组 ${x} 人，数学小组 ${k * x} 人。</p>`,
    analysis: `<p>设科学小组有 ${m('x')} 人，则数学小组有 ${m(`${k}x`)} 人。<br>列方程 ${m(`x+${k}x=${total}`)}，解得 ${m(`x=${x}`)}，${m(
      `${k}x=${k * x}`,
    )}。<br>答：科学小组 ${x} 人，数学小组 ${k * x} 人。</p>`,
    knowledgeKeys: ['k-m-eq1-app-alloc'],
  };
}

// ───────────── 第六章 几何图形初步 ─────────────

const prismCounts = gen('prism', 6, (rng) => {
  const n = int(rng, 3, 12);
  const NAMES = ['', '', '', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二'];
  return {
    sectionKey: 'm7a-6-1',
    type: '填空题',
    difficulty: n > 8 ? 2 : 1,
    stem: `<p>一个${NAMES[n]}棱柱有${BLANK}个面，${BLANK}条棱，${BLANK}个顶点。</p>`,
    answer: `${n + 2}；${3 * n}；${2 * n}`,
    analysis: `<p>${m('n')} 棱柱有 2 个底面和 ${m('n')} 个侧面，共 ${m('(n+2)')} 个面；上、下底面各有 ${m('n')} 条棱，另有 ${m('n')} 条侧棱，共 ${m(
      '3n',
    )} 条棱；上、下底面各有 ${m('n')} 个顶点，共 ${m('2n')} 个顶点。<br>当 ${m(`n=${n}`)} 时，有 ${n + 2} 个面，${3 * n} 条棱，${2 * n} 个顶点。</p>`,
    knowledgeKeys: ['k-m-geo-solid'],
  };
});

const segmentMidpoint = gen('segment', 8, (rng) => {
  const ab = int(rng, 4, 15) * 2;
  const bc = int(rng, 1, ab / 2 - 1) * 2;
  const extend = rng() < 0.5;
  // C on line AB: extension beyond B (AC = AB + BC) or between A and B (AC = AB − BC). M midpoint of AC.
  const ac = extend ? ab + bc : ab - bc;
  const am = ac / 2;
  const mb = Math.abs(ab - am);
  return {
    sectionKey: 'm7a-6-2',
    type: '填空题',
    difficulty: extend ? 3 : 2,
    stem: `<p>点 ${m('C')} 在${extend ? `线段 ${m('AB')} 的延长线上` : `线段 ${m('AB')} 上`}，${m(`AB=${ab}`)} cm，${m(`BC=${bc}`)} cm，点 ${m(
      'M',
    )} 是线段 ${m('AC')} 的中点，则 ${m('MB')} 的长为${BLANK}cm。</p>`,
    answer: m(fmt(mb)),
    analysis: `<p>${extend ? `点 ${m('C')} 在 ${m('AB')} 的延长线上，${m(`AC=AB+BC=${ab}+${bc}=${ac}`)}` : `点 ${m('C')} 在线段 ${m('AB')} 上，${m(`AC=AB-BC=${ab}-${bc}=${ac}`)}`} cm。<br>${m(
      'M',
    )} 是 ${m('AC')} 的中点，${m(r`AM=\frac{1}{2}AC=${fmt(am)}`)} cm，<br>所以 ${m(`MB=AB-AM=${ab}-${fmt(am)}=${fmt(mb)}`)} cm。</p>`,
    knowledgeKeys: ['k-m-geo-segment'],
  };
});

const complements = gen('complement', 10, (rng) => {
  const deg = int(rng, 12, 78);
  const min = rng() < 0.5 ? 0 : int(rng, 1, 59);
  const ask = pick(rng, ['余角', '补角'] as const);
  const total = ask === '余角' ? 90 : 180;
  const rest = total * 60 - (deg * 60 + min);
  const rd = Math.floor(rest / 60);
  const rm = rest % 60;
  const angle = min === 0 ? r`${deg}^{\circ}` : r`${deg}^{\circ}${min}'`;
  const answerTex = rm === 0 ? r`${rd}^{\circ}` : r`${rd}^{\circ}${rm}'`;
  const wrongTotal = ask === '余角' ? 180 : 90;
  const wrest = wrongTotal * 60 - (deg * 60 + min);
  const wrongTex =
    wrest > 0
      ? wrest % 60 === 0
        ? r`${Math.floor(wrest / 60)}^{\circ}`
        : r`${Math.floor(wrest / 60)}^{\circ}${wrest % 60}'`
      : r`${rd + 10}^{\circ}`;
  const { options, answer } = choice(rng, m(answerTex), [
    m(wrongTex),
    m(rm === 0 ? r`${rd + 1}^{\circ}` : r`${rd}^{\circ}${60 - rm}'`),
    m(rm === 0 ? r`${rd - 1}^{\circ}` : r`${rd + 1}^{\circ}${rm}'`),
    m(r`${rd + 2}^{\circ}`),
    m(r`${rd + 3}^{\circ}`),
  ]);
  return {
    sectionKey: 'm7a-6-3',
    type: '单选题',
    difficulty: min === 0 ? 1 : 2,
    stem: `<p>已知 ${m(r`\angle\alpha=${angle}`)}，则 ${m(r`\angle\alpha`)} 的${ask}是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>和为 ${total}° 的两个角互为${ask}。${min === 0 ? '' : `计算时把 1° 化为 60′：${m(r`${total}^{\circ}=${total - 1}^{\circ}60'`)}，`}<br>${m(
      r`${total}^{\circ}-${angle}=${answerTex}`,
    )}。</p>`,
    knowledgeKeys: ['k-m-geo-compl', 'k-m-geo-angle'],
  };
});

const angleUnits = gen('angle-units', 6, (rng) => {
  const deg = int(rng, 10, 80);
  const tenths = int(rng, 1, 9);
  const hundredths = rng() < 0.5 ? 0 : int(rng, 1, 9) * 5;
  const decimal = deg + tenths / 10 + hundredths / 1000;
  const totalSeconds = Math.round((decimal - deg) * 3600);
  const mm = Math.floor(totalSeconds / 60);
  const ss = totalSeconds % 60;
  const deci = fmt(decimal);
  return {
    sectionKey: 'm7a-6-3',
    type: '填空题',
    difficulty: ss === 0 ? 1 : 2,
    stem: `<p>${m(r`${deci}^{\circ}=`)}${BLANK}${m(r`^{\circ}`)}${BLANK}${m(`'`)}${BLANK}${m(`''`)}。</p>`,
    answer: `${deg}；${mm}；${ss}`,
    analysis: `<p>度、分、秒是六十进制：${m(r`1^{\circ}=60'`)}，${m(`1'=60''`)}。<br>${m(r`${fmt(decimal - deg)}^{\circ}=${fmt((decimal - deg) * 60)}'`)}，${
      ss === 0 ? '' : `${m(`${fmt((decimal - deg) * 60 - mm)}'=${ss}''`)}，`
    }所以 ${m(r`${deci}^{\circ}=${deg}^{\circ}${mm}'${ss}''`)}。</p>`,
    knowledgeKeys: ['k-m-geo-angle'],
  };
});

export const MATH_7A_GENERATED: QuestionSeed[] = [
  ...signedQuantity,
  ...oppositeAbs,
  ...axisDistance,
  ...compareNegatives,
  ...addSub,
  ...mulDiv,
  ...reciprocal,
  ...powers,
  ...scientific,
  ...mixedOps,
  ...writeExpr,
  ...evalExpr,
  ...wholeSubstitution,
  ...monomial,
  ...combineLike,
  ...simplifyEval,
  ...isSolution,
  ...eqParameter,
  ...solveLinear,
  ...wordProblems,
  ...prismCounts,
  ...segmentMidpoint,
  ...complements,
  ...angleUnits,
];
