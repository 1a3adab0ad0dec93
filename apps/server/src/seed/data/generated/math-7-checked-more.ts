import { BLANK, fmt, int, m, nonZero, pick, shuffle } from './kit.js';
import type { Fact, Topic } from './math-7-checked.js';

// More checked topics for the 七年级 sections that had few questions (issue 23: ≥ 60 per section). Same contract
// as the topics in math-7-checked.ts: every formula is a given (`x=3`) or a relation that holds under the givens,
// so math-7-checked.test.ts re-computes each question from what the student reads.

const neg = (n: number) => (n < 0 ? `(${fmt(n)})` : fmt(n));
const signed = (n: number) => (n < 0 ? fmt(n) : `+${fmt(n)}`);
const deg = (n: number | string) => `${n}^{\\circ}`;

/** A fact whose claim is “<before> \(<tex>=v\)<after>” and whose blank asks for v. */
function equation(
  before: string,
  tex: string,
  value: number | string,
  wrong: (number | string)[],
  steps: string,
  after = '',
): Fact {
  const v = typeof value === 'number' ? fmt(value) : value;
  return {
    claim: (x) => `${before}${m(`${tex}=${x}`)}${after}`,
    ask: `${before}${m(`${tex}=`)}${BLANK}${after}`,
    value: v,
    wrong: wrong.map((w) => (typeof w === 'number' ? fmt(w) : w)).filter((w) => w !== v),
    steps,
  };
}

/** A word problem solved by one equation: the story, its equation and the value of x. */
const solvedEquation = (
  story: string,
  eq: string,
  x: number,
  wrong: number[],
  steps: string,
  unit: string,
): Fact => ({
  claim: (v) => `${story}设${unit}为 ${m('x')}，列方程 ${m(eq)}，解得 ${m(`x=${v}`)}`,
  ask: `${story}设${unit}为 ${m('x')}，列方程 ${m(eq)}，解得 ${m('x=')}${BLANK}`,
  value: fmt(x),
  wrong: wrong.map(fmt).filter((w) => w !== fmt(x)),
  steps,
});

/** A word problem solved by a system of two equations: the story, the system and (x, y). */
const systemSolution = (x: number, y: number) => `\\begin{cases}x=${fmt(x)}\\\\y=${fmt(y)}\\end{cases}`;
const solvedSystem = (
  story: string,
  e1: string,
  e2: string,
  x: number,
  y: number,
  unit: string,
  steps: string,
): Fact => {
  const system = `\\begin{cases}${e1}\\\\${e2}\\end{cases}`;
  return {
    claim: (v) => `${story}${unit}，列方程组 ${m(system)}，解得 ${m(v)}`,
    ask: `${story}${unit}，列方程组 ${m(system)}，解得 ${m('x=')}${BLANK}，${m('y=')}${BLANK}`,
    value: systemSolution(x, y),
    wrong: [
      systemSolution(y, x),
      systemSolution(x + 1, y - 1),
      systemSolution(x - 1, y + 1),
      systemSolution(x + 2, y - 2),
    ].filter((w) => w !== systemSolution(x, y)),
    steps,
  };
};

/** A counterexample to a false proposition: the given, the open unknown and the relations it breaks. */
const relations = (rel: string) =>
  rel
    .split(';;')
    .map((r) => m(r))
    .join('，但 ');
const counterexampleAsk = (prop: string, given: string, open: string, rel: string) =>
  `命题「${prop}」是假命题，举反例：当 ${given ? `${m(given)}，` : ''}${m(`${open}=`)}${BLANK} 时，${relations(rel)}`;
const counterexample = (
  prop: string,
  given: string,
  open: string,
  rel: string,
  value: string,
  wrong: string[],
  why: string,
): Fact => ({
  claim: (v) =>
    `命题「${prop}」是假命题，反例：当 ${given ? `${m(given)}，` : ''}${m(`${open}=${v}`)} 时，${relations(rel)}`,
  ask: counterexampleAsk(prop, given, open, rel),
  value,
  wrong: wrong.filter((w) => w !== value),
  steps: `<p>要说明一个命题是假命题，只要举出一个满足题设、却不满足结论的例子。${why}</p>`,
});

export const MORE_TOPICS: Topic[] = [
  {
    name: 'signed-quantities',
    textbookKey: 'm7a',
    sectionKey: 'm7a-1-1',
    knowledgeKeys: ['k-m-rational-sign', 'k-m-rational-apply'],
    what: '下列关于正数和负数的计算',
    fact: (rng, level) => {
      if (level <= 2) {
        const hi = int(rng, -3, 18);
        const lo = hi - int(rng, 4, 15);
        return equation(
          `某地一天的最高气温是 ${fmt(hi)}℃，最低气温是 ${fmt(lo)}℃，这天的温差是 `,
          `${fmt(hi)}-${neg(lo)}`,
          hi - lo,
          [hi + lo, lo - hi, hi - lo + 2],
          `<p>温差等于最高气温减最低气温：${m(`${fmt(hi)}-${neg(lo)}=${fmt(hi)}+${neg(-lo)}=${fmt(hi - lo)}`)}（℃）。</p>`,
          '℃',
        );
      }
      if (level === 3) {
        const moves = Array.from({ length: 4 }, () => nonZero(rng, -12, 12));
        const sum = moves.reduce((s, x) => s + x, 0);
        return equation(
          `规定向东为正，一辆出租车从出发点起依次行驶了 ${moves.map((x) => `${signed(x)} km`).join('，')}，它离出发点的位置是 `,
          moves.map((x, i) => (i === 0 ? fmt(x) : `+${neg(x)}`)).join(''),
          sum,
          [moves.reduce((s, x) => s + Math.abs(x), 0), -sum || 3, sum + 2],
          `<p>把各次行驶的路程（带符号）相加：${m(`${moves.map((x, i) => (i === 0 ? fmt(x) : `+${neg(x)}`)).join('')}=${fmt(sum)}`)}，结果为${sum > 0 ? '正，在出发点东边' : sum < 0 ? '负，在出发点西边' : '0，回到出发点'}。</p>`,
          ' km',
        );
      }
      const base = pick(rng, [50, 100, 150, 200]);
      const n = level === 4 ? 4 : 5;
      const diffs = Array.from({ length: n }, () => nonZero(rng, -5, 5));
      const total = base * n + diffs.reduce((s, x) => s + x, 0);
      const tex = `${base}\\times${n}+(${diffs.map((x, i) => (i === 0 ? fmt(x) : `+${neg(x)}`)).join('')})`;
      return equation(
        `以每袋 ${base} 克为标准，超过的克数记为正，不足的记为负，${n} 袋食品的称重记录为 ${diffs.map(signed).join('，')}（克），这 ${n} 袋食品的总质量是 `,
        tex,
        total,
        [base * n, total + 2, base * n - diffs.reduce((s, x) => s + x, 0)],
        `<p>总质量等于标准质量之和加上记录之和：${m(`${tex}=${base * n}+${neg(diffs.reduce((s, x) => s + x, 0))}=${total}`)}（克）。</p>`,
        ' 克',
      );
    },
  },
  {
    name: 'write-expr',
    textbookKey: 'm7a',
    sectionKey: 'm7a-3-1',
    knowledgeKeys: ['k-m-alg-write'],
    what: '下列列代数式并求值的结果',
    fact: (rng, level) => {
      if (level <= 2) {
        const n = int(rng, 3, 12);
        const a = int(rng, 2, Math.floor(99 / n));
        return equation(
          `每支笔 ${m('a')} 元，买 ${n} 支笔付出 100 元，应找回 ${m(`100-${n}a`)} 元；当 ${m(`a=${a}`)} 时，找回 `,
          `100-${n}a`,
          100 - n * a,
          [100 - a, n * a, 100 - n * a + n],
          `<p>${n} 支笔共 ${m(`${n}a`)} 元，找回 ${m(`100-${n}a`)} 元；当 ${m(`a=${a}`)} 时，${m(`100-${n}\\times${a}=${100 - n * a}`)}（元）。</p>`,
          ' 元',
        );
      }
      if (level === 3) {
        const d = pick(rng, [6, 7, 8, 9]);
        const a = 10 * int(rng, 5, 30);
        const off = pick(rng, [5, 10, 20]);
        return equation(
          `一件商品原价 ${m('a')} 元，先打 ${d} 折再降价 ${off} 元，售价为 ${m(`0.${d}a-${off}`)} 元；当 ${m(`a=${a}`)} 时，售价 `,
          `0.${d}a-${off}`,
          (d * a) / 10 - off,
          [(d * a) / 10, a - off, ((d * a) / 10 - off) * 10 === a ? a + 1 : (d * (a - off)) / 10],
          `<p>打 ${d} 折即乘 ${m(`0.${d}`)}，再减 ${off}：${m(`0.${d}\\times${a}-${off}=${fmt((d * a) / 10 - off)}`)}（元）。</p>`,
          ' 元',
        );
      }
      if (level === 4) {
        const k = int(rng, 2, 6);
        const a = int(rng, k + 2, 20);
        return equation(
          `长方形的长为 ${m('a')}，宽比长少 ${k}，它的周长为 ${m(`2(a+a-${k})`)}；当 ${m(`a=${a}`)} 时，周长 `,
          `2(a+a-${k})`,
          2 * (2 * a - k),
          [2 * a - k, a * (a - k), 2 * (2 * a + k)],
          `<p>宽为 ${m(`a-${k}`)}，周长为 ${m(`2(a+a-${k})=4a-${2 * k}`)}；当 ${m(`a=${a}`)} 时，${m(`4\\times${a}-${2 * k}=${2 * (2 * a - k)}`)}。</p>`,
        );
      }
      const n = int(rng, 3, 30);
      const c = pick(rng, [3, 4, 5, 6]);
      return equation(
        `用火柴棒摆图形：第 1 个图形用 ${c + 1} 根，以后每个图形比前一个多用 ${c} 根，第 ${m('n')} 个图形用 ${m(`${c}n+1`)} 根；当 ${m(`n=${n}`)} 时，用 `,
        `${c}n+1`,
        c * n + 1,
        [c * n, (c + 1) * n, c * n + c + 1],
        `<p>第 ${m('n')} 个图形用 ${m(`${c + 1}+${c}(n-1)=${c}n+1`)} 根；当 ${m(`n=${n}`)} 时，${m(`${c}\\times${n}+1=${c * n + 1}`)}（根）。</p>`,
        ' 根',
      );
    },
  },
  {
    name: 'degree',
    textbookKey: 'm7a',
    sectionKey: 'm7a-4-1',
    knowledgeKeys: ['k-m-poly-monomial', 'k-m-poly-polynomial'],
    what: '下列关于次数的计算',
    fact: (rng, level) => {
      const letters = shuffle(rng, ['a', 'b', 'x', 'y', 'm', 'n']).slice(0, level <= 2 ? 2 : 3);
      const exps = letters.map(() => int(rng, 1, 5));
      const coef = nonZero(rng, -9, 9);
      const mono = `${coef === 1 ? '' : coef === -1 ? '-' : fmt(coef)}${letters.map((l, i) => (exps[i] === 1 ? l : `${l}^{${exps[i]}}`)).join('')}`;
      const sum = exps.reduce((s, e) => s + e, 0);
      const sumTex = exps.join('+');
      if (level <= 3) {
        return equation(
          `单项式 ${m(mono)} 的次数是 `,
          sumTex,
          sum,
          [sum + 1, Math.abs(coef) === sum ? sum - 1 : Math.abs(coef), Math.max(...exps)],
          `<p>单项式的次数是所有字母的指数的和（系数不算）：${m(`${sumTex}=${sum}`)}。</p>`,
        );
      }
      const other = `${letters[0]}^{${int(rng, 1, 2)}}`;
      const c = int(rng, 1, 9);
      const poly = `${mono}${coef > 0 ? '-' : '+'}${other}+${c}`;
      return equation(
        `多项式 ${m(poly)} 是三项式，它的次数等于次数最高的项 ${m(mono)} 的次数 `,
        sumTex,
        sum,
        [sum + 1, 3, Math.max(...exps) === sum ? sum - 1 : Math.max(...exps)].filter((w) => w !== sum),
        `<p>多项式的次数是其中次数最高的项的次数；最高次项 ${m(mono)} 的次数为 ${m(`${sumTex}=${sum}`)}，所以这是 ${sum} 次三项式。</p>`,
      );
    },
  },
  {
    name: 'eq-property',
    textbookKey: 'm7a',
    sectionKey: 'm7a-5-1',
    knowledgeKeys: ['k-m-eq1-property', 'k-m-eq1-solution'],
    what: '下列利用等式的性质解方程',
    fact: (rng, level) => {
      const x = nonZero(rng, -12, 12);
      const a = nonZero(rng, 2, 9);
      if (level === 1) {
        const b = nonZero(rng, -15, 15);
        return {
          claim: (v) =>
            `方程 ${m(`x${signed(b)}=${fmt(x + b)}`)} 两边同时${b > 0 ? '减去' : '加上'} ${Math.abs(b)}，得 ${m(`x=${v}`)}`,
          ask: `方程 ${m(`x${signed(b)}=${fmt(x + b)}`)} 两边同时${b > 0 ? '减去' : '加上'} ${Math.abs(b)}，得 ${m('x=')}${BLANK}`,
          value: fmt(x),
          wrong: [fmt(x + 2 * b), fmt(-x), fmt(x + b)].filter((w) => w !== fmt(x)),
          steps: `<p>等式两边加（或减）同一个数，结果仍相等：${m(`x=${fmt(x + b)}${signed(-b)}=${fmt(x)}`)}。</p>`,
        };
      }
      if (level === 2) {
        return {
          claim: (v) => `方程 ${m(`${a}x=${fmt(a * x)}`)} 两边同时除以 ${a}，得 ${m(`x=${v}`)}`,
          ask: `方程 ${m(`${a}x=${fmt(a * x)}`)} 两边同时除以 ${a}，得 ${m('x=')}${BLANK}`,
          value: fmt(x),
          wrong: [fmt(a * a * x), fmt(-x), fmt(a * x - a)].filter((w) => w !== fmt(x)),
          steps: `<p>等式两边除以同一个不为 0 的数，结果仍相等：${m(`x=${fmt(a * x)}\\div${a}=${fmt(x)}`)}。</p>`,
        };
      }
      if (level === 3) {
        return {
          claim: (v) => `方程 ${m(`\\frac{x}{${a}}=${fmt(x)}`)} 两边同时乘 ${a}，得 ${m(`x=${v}`)}`,
          ask: `方程 ${m(`\\frac{x}{${a}}=${fmt(x)}`)} 两边同时乘 ${a}，得 ${m('x=')}${BLANK}`,
          value: fmt(a * x),
          wrong: [fmt(x), fmt(x + a), fmt(-a * x)],
          steps: `<p>等式两边乘同一个数，结果仍相等：${m(`x=${fmt(x)}\\times${a}=${fmt(a * x)}`)}。</p>`,
        };
      }
      const b = nonZero(rng, -9, 9);
      const c = level === 5 ? nonZero(rng, -4, 4) : 0;
      const a2 = a === c ? a + 1 : a;
      const lhs = `${a2}x${signed(b)}`;
      const rhs =
        c === 0 ? fmt(a2 * x + b) : `${c === 1 ? '' : c === -1 ? '-' : fmt(c)}x${signed(a2 * x + b - c * x)}`;
      return {
        claim: (v) => `${m(`x=${v}`)} 是方程 ${m(`${lhs}=${rhs}`)} 的解`,
        ask: `利用等式的性质解方程 ${m(`${lhs}=${rhs}`)}，得 ${m('x=')}${BLANK}`,
        value: fmt(x),
        wrong: [fmt(-x), fmt(x + 1), fmt(x - 2)],
        steps: `<p>两边同时${b > 0 ? '减去' : '加上'} ${Math.abs(b)}${c === 0 ? '' : `，再同时减去 ${m(`${fmt(c)}x`)}`}，得 ${m(`${fmt(a2 - c)}x=${fmt((a2 - c) * x)}`)}，两边同时除以 ${fmt(a2 - c)}，得 ${m(`x=${fmt(x)}`)}。检验：左边 ${m(`=${a2}\\times${neg(x)}${signed(b)}=${fmt(a2 * x + b)}`)}，与右边相等。</p>`,
      };
    },
  },
  {
    name: 'eq-word',
    textbookKey: 'm7a',
    sectionKey: 'm7a-5-3',
    knowledgeKeys: ['k-m-eq1-app-sale', 'k-m-eq1-app-travel', 'k-m-eq1-app-work', 'k-m-eq1-app-alloc'],
    what: '下列列方程解应用题的结果',
    fact: (rng, level) => {
      if (level <= 2) {
        const [d, p] = pick(rng, [
          [9, 20],
          [9, 30],
          [9, 40],
          [8, 40],
          [8, 50],
        ] as const);
        const x = 100 * int(rng, 1, 12);
        const gain = Math.round(x * ((d / 10) * (1 + p / 100) - 1));
        const eq = `0.${d}\\times${fmt(1 + p / 100)}x-x=${gain}`;
        return solvedEquation(
          `一件商品按成本价提高 ${p}% 后标价，再打 ${d} 折销售，获利 ${gain} 元。`,
          eq,
          x,
          [x + 100, gain * 10, Math.round(x * (1 + p / 100))],
          `<p>售价 − 成本 = 利润：${m(eq)}，即 ${m(`${fmt(((d / 10) * (1 + p / 100) - 1) * 1)}x=${gain}`)}，解得 ${m(`x=${x}`)}（元）。</p>`,
          '成本价（元）',
        );
      }
      if (level === 3) {
        const a = int(rng, 3, 9) * 10;
        const b = int(rng, 3, 9) * 10;
        const x = int(rng, 2, 6);
        const dist = (a + b) * x;
        const eq = `(${a}+${b})x=${dist}`;
        return solvedEquation(
          `甲、乙两车从相距 ${dist} 千米的两地同时出发相向而行，甲车每小时行 ${a} 千米，乙车每小时行 ${b} 千米。`,
          eq,
          x,
          [x + 1, dist / a, x * 2],
          `<p>相遇时两车行驶的路程之和等于两地距离：${m(eq)}，即 ${m(`${a + b}x=${dist}`)}，解得 ${m(`x=${x}`)}（小时）。</p>`,
          '相遇时间（小时）',
        );
      }
      if (level === 4) {
        const [p, q, x] = pick(rng, [
          [3, 6, 2],
          [4, 12, 3],
          [6, 12, 4],
          [10, 15, 6],
          [12, 24, 8],
          [20, 30, 12],
          [6, 30, 5],
          [12, 60, 10],
          [15, 10, 6],
          [30, 20, 12],
        ] as const);
        const eq = `\\frac{x}{${p}}+\\frac{x}{${q}}=1`;
        return solvedEquation(
          `一项工程，甲队单独做需要 ${p} 天完成，乙队单独做需要 ${q} 天完成，两队合做。`,
          eq,
          x,
          [p + q, (p + q) / 2, x + 1],
          `<p>甲、乙每天分别完成工程的 ${m(`\\frac{1}{${p}}`)} 和 ${m(`\\frac{1}{${q}}`)}，合做 ${m('x')} 天完成全部：${m(eq)}，两边同乘 ${p * q} 得 ${m(`${q}x+${p}x=${p * q}`)}，解得 ${m(`x=${x}`)}（天）。</p>`,
          '合做完成的天数',
        );
      }
      const a = pick(rng, [10, 12, 15, 16, 20]);
      const b = pick(rng, [12, 18, 20, 24, 25, 30]);
      const k = int(rng, 1, 4);
      const x = k * b;
      const n = x + (2 * a * x) / b;
      const eq = `2\\times${a}x=${b}(${n}-x)`;
      return solvedEquation(
        `某车间有 ${n} 名工人，每人每天可以生产 ${a} 个螺栓或 ${b} 个螺母，1 个螺栓配 2 个螺母，为使每天生产的螺栓和螺母刚好配套。`,
        eq,
        x,
        [n - x, x + 1, Math.round(n / 3)],
        `<p>螺母数是螺栓数的 2 倍：${m(eq)}，即 ${m(`${2 * a + b}x=${b * n}`)}，解得 ${m(`x=${x}`)}，安排 ${x} 人生产螺栓，${n - x} 人生产螺母。</p>`,
        '生产螺栓的人数',
      );
    },
  },
  {
    name: 'segments',
    textbookKey: 'm7a',
    sectionKey: 'm7a-6-2',
    knowledgeKeys: ['k-m-geo-segment', 'k-m-geo-line'],
    what: '下列关于线段长度的计算',
    fact: (rng, level) => {
      const L = 2 * int(rng, 4, 20);
      const a = 2 * int(rng, 1, L / 2 - 1);
      if (level === 1) {
        return equation(
          `点 C 在线段 AB 上，AB 长 ${L}，AC 长 ${a}，则 ${m('BC')} 的长为 `,
          `${L}-${a}`,
          L - a,
          [L + a, a, (L - a) / 2],
          `<p>点 C 在线段 AB 上，所以 ${m('BC=AB-AC')}，即 ${m(`${L}-${a}=${L - a}`)}。</p>`,
        );
      }
      if (level === 2) {
        return equation(
          `点 M 是线段 AB 的中点，AB 长 ${L}，则 ${m('AM')} 的长为 `,
          `\\frac{${L}}{2}`,
          L / 2,
          [L, 2 * L, L / 2 + 1],
          `<p>中点把线段分成相等的两条线段：${m(`AM=\\frac{1}{2}AB`)}，即 ${m(`\\frac{${L}}{2}=${L / 2}`)}。</p>`,
        );
      }
      if (level === 3) {
        return equation(
          `点 C 在线段 AB 上，AB 长 ${L}，AC 长 ${a}，点 M 是 BC 的中点，则 ${m('BM')} 的长为 `,
          `\\frac{${L}-${a}}{2}`,
          (L - a) / 2,
          [L - a, (L + a) / 2, a / 2],
          `<p>${m(`BC=AB-AC=${L - a}`)}，M 是 BC 的中点，所以 ${m(`BM=\\frac{${L}-${a}}{2}=${(L - a) / 2}`)}。</p>`,
        );
      }
      if (level === 4) {
        return equation(
          `点 C 在线段 AB 上，AB 长 ${L}，AC 长 ${a}，点 M、N 分别是 AC、CB 的中点，则 ${m('MN')} 的长为 `,
          `\\frac{${a}}{2}+\\frac{${L}-${a}}{2}`,
          L / 2,
          [L, a / 2, (L - a) / 2],
          `<p>${m('MN=MC+CN=\\frac{1}{2}AC+\\frac{1}{2}CB')}，即 ${m(`\\frac{${a}}{2}+\\frac{${L}-${a}}{2}=${L / 2}`)}——恰好是 AB 的一半。</p>`,
        );
      }
      const n = int(rng, 4, 12);
      return equation(
        `一条直线上有 ${n} 个点，以其中任意两点为端点的线段共有 `,
        `\\frac{${n}\\times${n - 1}}{2}`,
        (n * (n - 1)) / 2,
        [n * (n - 1), n - 1, n],
        `<p>每个点与其余 ${n - 1} 个点各组成一条线段，每条线段被数了两次：${m(`\\frac{${n}\\times${n - 1}}{2}=${(n * (n - 1)) / 2}`)}（条）。</p>`,
        ' 条',
      );
    },
  },
  {
    name: 'square-root',
    textbookKey: 'm7b',
    sectionKey: 'm7b-8-1',
    knowledgeKeys: ['k-m-real-sqrt', 'k-m-real-arith-sqrt'],
    what: '下列关于平方根的计算',
    fact: (rng, level) => {
      const s = int(rng, 2, 20);
      if (level <= 2) {
        return equation(
          `${s * s} 的算术平方根是 `,
          `\\sqrt{${s * s}}`,
          s,
          [`\\pm ${s}`, -s, s * s],
          `<p>因为 ${m(`${s}^{2}=${s * s}`)}，且算术平方根是非负数，所以 ${m(`\\sqrt{${s * s}}=${s}`)}。</p>`,
        );
      }
      if (level === 3) {
        return equation(
          `${s * s} 的平方根是 `,
          `\\pm\\sqrt{${s * s}}`,
          `\\pm ${s}`,
          [s, -s, `\\pm ${s * s}`],
          `<p>因为 ${m(`(\\pm ${s})^{2}=${s * s}`)}，一个正数有两个平方根，它们互为相反数：${m(`\\pm\\sqrt{${s * s}}=\\pm ${s}`)}。</p>`,
        );
      }
      if (level === 4) {
        const p = int(rng, 1, 9);
        const q = pick(
          rng,
          [2, 3, 4, 5, 7, 8, 9, 10, 11].filter((d) => d !== p && gcd(p, d) === 1),
        );
        return equation(
          `${m(`\\frac{${p * p}}{${q * q}}`)} 的算术平方根是 `,
          `\\sqrt{\\frac{${p * p}}{${q * q}}}`,
          `\\frac{${p}}{${q}}`,
          [`\\frac{${p * p}}{${q}}`, `-\\frac{${p}}{${q}}`, `\\frac{${p}}{${q * q}}`],
          `<p>因为 ${m(`\\left(\\frac{${p}}{${q}}\\right)^{2}=\\frac{${p * p}}{${q * q}}`)}，所以 ${m(`\\sqrt{\\frac{${p * p}}{${q * q}}}=\\frac{${p}}{${q}}`)}。</p>`,
        );
      }
      const t = int(rng, 1, 9);
      const k = nonZero(rng, 2, 4);
      const value = k * s - t;
      return equation(
        '计算：',
        `${k}\\sqrt{${s * s}}-\\sqrt{${(t * t) / 100}}\\times10`,
        value,
        [k * s + t, -value || 5, k * s - t * 10],
        `<p>${m(`\\sqrt{${s * s}}=${s}`)}，${m(`\\sqrt{${(t * t) / 100}}=${t / 10}`)}，所以原式 ${m(`=${k}\\times${s}-${t / 10}\\times10=${value}`)}。</p>`,
      );
    },
  },
  {
    name: 'cube-root',
    textbookKey: 'm7b',
    sectionKey: 'm7b-8-2',
    knowledgeKeys: ['k-m-real-cbrt'],
    what: '下列关于立方根的计算',
    perStructure: 12,
    fact: (rng, level) => {
      const c = nonZero(rng, -10, 10);
      if (level <= 2) {
        return equation(
          `${fmt(c ** 3)} 的立方根是 `,
          `\\sqrt[3]{${fmt(c ** 3)}}`,
          c,
          [-c, `\\pm ${Math.abs(c)}`, c * 3],
          `<p>因为 ${m(`${neg(c)}^{3}=${fmt(c ** 3)}`)}，所以 ${m(`\\sqrt[3]{${fmt(c ** 3)}}=${fmt(c)}`)}；正数的立方根是正数，负数的立方根是负数。</p>`,
        );
      }
      if (level === 3) {
        const p = int(rng, 1, 5);
        const q = pick(
          rng,
          [2, 3, 4, 5, 6, 7].filter((d) => d !== p && gcd(p, d) === 1),
        );
        const sign = rng() < 0.5 ? '-' : '';
        return equation(
          `${m(`${sign}\\frac{${p ** 3}}{${q ** 3}}`)} 的立方根是 `,
          `\\sqrt[3]{${sign}\\frac{${p ** 3}}{${q ** 3}}}`,
          `${sign}\\frac{${p}}{${q}}`,
          [
            `${sign ? '' : '-'}\\frac{${p}}{${q}}`,
            `${sign}\\frac{${p}}{${q ** 2}}`,
            `${sign}\\frac{${p * 3}}{${q * 3 + 1}}`,
          ],
          `<p>因为 ${m(`\\left(${sign}\\frac{${p}}{${q}}\\right)^{3}=${sign}\\frac{${p ** 3}}{${q ** 3}}`)}，所以立方根是 ${m(`${sign}\\frac{${p}}{${q}}`)}。</p>`,
        );
      }
      const d = nonZero(rng, -6, 6);
      if (level === 4) {
        return equation(
          '计算：',
          `\\sqrt[3]{${fmt(c ** 3)}}+\\sqrt[3]{${fmt(d ** 3)}}`,
          c + d,
          [c - d, -(c + d) || 7, c * d],
          `<p>${m(`\\sqrt[3]{${fmt(c ** 3)}}=${fmt(c)}`)}，${m(`\\sqrt[3]{${fmt(d ** 3)}}=${fmt(d)}`)}，所以原式 ${m(`=${fmt(c)}+${neg(d)}=${fmt(c + d)}`)}。</p>`,
        );
      }
      const s = int(rng, 2, 9);
      return equation(
        '计算：',
        `\\sqrt[3]{${fmt(c ** 3)}}-\\sqrt{${s * s}}+\\sqrt[3]{${fmt(-(d ** 3))}}`,
        c - s - d,
        [c + s - d, c - s + d, -(c - s - d) || 9],
        `<p>${m(`\\sqrt[3]{${fmt(c ** 3)}}=${fmt(c)}`)}，${m(`\\sqrt{${s * s}}=${s}`)}，${m(`\\sqrt[3]{${fmt(-(d ** 3))}}=${fmt(-d)}`)}，所以原式 ${m(`=${fmt(c)}-${s}+${neg(-d)}=${fmt(c - s - d)}`)}。</p>`,
      );
    },
  },
  {
    name: 'ineq-system',
    textbookKey: 'm7b',
    sectionKey: 'm7b-11-3',
    knowledgeKeys: ['k-m-ineq-system', 'k-m-ineq-int'],
    what: '下列判断',
    fact: (rng, level) => {
      const lo = int(rng, -6, 3);
      const hi = lo + int(rng, 2, 6);
      const a = level <= 2 ? 1 : nonZero(rng, 2, 5);
      const b = int(rng, -8, 8);
      const d = level <= 3 ? 1 : nonZero(rng, 2, 4);
      const e = int(rng, -8, 8);
      const lhs = (k: number, c: number) => `${k === 1 ? '' : k}x${c === 0 ? '' : signed(c)}`;
      const strictLo = level !== 5;
      const r1 = `${lhs(a, b)}${strictLo ? '\\gt' : '\\ge'} ${fmt(a * lo + b)}`;
      const r2 = `${lhs(d, e)}\\le ${fmt(d * hi + e)}`;
      const system = `\\begin{cases}${r1}\\\\${r2}\\end{cases}`;
      const inSet = (x: number) => (strictLo ? x > lo : x >= lo) && x <= hi;
      const all = Array.from({ length: 25 }, (_, i) => i - 12);
      const good = all.filter(inSet);
      const bad = all.filter((x) => !inSet(x) && x >= lo - 4 && x <= hi + 4);
      const x = pick(rng, good);
      return {
        claim: (v) => `${m(`x=${v}`)} 是不等式组 ${m(system)} 的一个解`,
        ask: `写出不等式组 ${m(system)} 的一个整数解：${m('x=')}${BLANK}`,
        value: fmt(x),
        wrong: shuffle(rng, bad).slice(0, 3).map(fmt),
        steps: `<p>分别解两个不等式：由第一个得 ${m(`x${strictLo ? '\\gt' : '\\ge'} ${fmt(lo)}`)}，由第二个得 ${m(`x\\le ${fmt(hi)}`)}，所以不等式组的解集是 ${m(`${fmt(lo)}${strictLo ? '\\lt' : '\\le'} x\\le ${fmt(hi)}`)}，整数解为 ${good.join('，')}；${m(`x=${fmt(x)}`)} 是其中之一。</p>`,
      };
    },
  },
  {
    name: 'vertical-angles',
    textbookKey: 'm7b',
    sectionKey: 'm7b-7-1',
    knowledgeKeys: ['k-m-lines-vertical', 'k-m-lines-perp'],
    what: '直线 AB、CD 相交于点 O，下列角的计算',
    perStructure: 12,
    fact: (rng, level) => {
      const a = int(rng, 15, 165);
      const given = `${m(`\\angle1=${deg(a)}`)}`;
      if (level <= 2) {
        return {
          claim: (v) =>
            `直线 AB、CD 相交于点 O，${m('\\angle1')} 与 ${m('\\angle2')} 是对顶角，${given}，则 ${m(`\\angle2=\\angle1=${deg(v)}`)}`,
          ask: `直线 AB、CD 相交于点 O，${m('\\angle1')} 与 ${m('\\angle2')} 是对顶角，${given}，则 ${m('\\angle2=\\angle1=')}${BLANK}°`,
          value: fmt(a),
          wrong: [fmt(180 - a), fmt(a + 10), fmt(Math.abs(90 - a) || 30)].filter((w) => w !== fmt(a)),
          steps: `<p>对顶角相等，所以 ${m(`\\angle2=\\angle1=${deg(a)}`)}。</p>`,
        };
      }
      if (level === 3) {
        return {
          claim: (v) =>
            `直线 AB、CD 相交于点 O，${m('\\angle1')} 与 ${m('\\angle2')} 是邻补角，${given}，则 ${m(`\\angle2=180^{\\circ}-\\angle1=${deg(v)}`)}`,
          ask: `直线 AB、CD 相交于点 O，${m('\\angle1')} 与 ${m('\\angle2')} 是邻补角，${given}，则 ${m('\\angle2=180^{\\circ}-\\angle1=')}${BLANK}°`,
          value: fmt(180 - a),
          wrong: [fmt(a), fmt(180 - a + 10), fmt(Math.abs(90 - a) || 30)].filter((w) => w !== fmt(180 - a)),
          steps: `<p>邻补角互补，所以 ${m(`\\angle2=180^{\\circ}-${deg(a)}=${deg(180 - a)}`)}。</p>`,
        };
      }
      if (level === 4) {
        const b = int(rng, 10, 80);
        return {
          claim: (v) =>
            `直线 AB、CD 相交于点 O，${m('OE\\perp AB')}，${m('\\angle1')} 与 ${m('\\angle2')} 的和是直角，${m(`\\angle1=${deg(b)}`)}，则 ${m(`\\angle2=90^{\\circ}-\\angle1=${deg(v)}`)}`,
          ask: `直线 AB、CD 相交于点 O，${m('OE\\perp AB')}，${m('\\angle1')} 与 ${m('\\angle2')} 的和是直角，${m(`\\angle1=${deg(b)}`)}，则 ${m('\\angle2=90^{\\circ}-\\angle1=')}${BLANK}°`,
          value: fmt(90 - b),
          wrong: [fmt(180 - b), fmt(b), fmt(90 - b + 10)].filter((w) => w !== fmt(90 - b)),
          steps: `<p>由 ${m('OE\\perp AB')} 得 ${m('\\angle1+\\angle2=90^{\\circ}')}，所以 ${m(`\\angle2=90^{\\circ}-${deg(b)}=${deg(90 - b)}`)}。</p>`,
        };
      }
      const e = 2 * int(rng, 10, 80);
      return {
        claim: (v) =>
          `直线 AB、CD 相交于点 O，${m(`\\angle1=${deg(e)}`)}，${m('\\angle2')} 是它的邻补角，射线 OE 平分 ${m('\\angle2')}，分成的角 ${m(`\\angle3=\\frac{180-\\angle1}{2}=${deg(v)}`)}`,
        ask: `直线 AB、CD 相交于点 O，${m(`\\angle1=${deg(e)}`)}，${m('\\angle2')} 是它的邻补角，射线 OE 平分 ${m('\\angle2')}，分成的角 ${m('\\angle3=\\frac{180-\\angle1}{2}=')}${BLANK}°`,
        value: fmt((180 - e) / 2),
        wrong: [fmt(180 - e), fmt(e / 2), fmt((180 - e) / 2 + 5)],
        steps: `<p>邻补角互补：${m(`\\angle2=180^{\\circ}-${deg(e)}=${deg(180 - e)}`)}；OE 平分 ${m('\\angle2')}，所以 ${m(`\\angle3=\\frac{1}{2}\\angle2=${deg((180 - e) / 2)}`)}。</p>`,
      };
    },
  },
  {
    name: 'coord-translate',
    textbookKey: 'm7b',
    sectionKey: 'm7b-9-2',
    knowledgeKeys: ['k-m-coord-translate'],
    what: '下列关于平移后点的坐标的计算',
    perStructure: 12,
    fact: (rng, level) => {
      const x = nonZero(rng, -9, 9);
      const y = nonZero(rng, -9, 9);
      const h = nonZero(rng, -7, 7);
      const k = nonZero(rng, -7, 7);
      const horiz = `${h > 0 ? '向右' : '向左'}平移 ${Math.abs(h)} 个单位长度`;
      const vert = `${k > 0 ? '向上' : '向下'}平移 ${Math.abs(k)} 个单位长度`;
      if (level === 1) {
        return equation(
          `把点 A(${fmt(x)}，${fmt(y)}) ${horiz}，得到的点的横坐标是 `,
          `${fmt(x)}${signed(h)}`,
          x + h,
          [x - h, y + h, x],
          `<p>左右平移时，横坐标右加左减，纵坐标不变：${m(`${fmt(x)}${signed(h)}=${fmt(x + h)}`)}。</p>`,
        );
      }
      if (level === 2) {
        return equation(
          `把点 A(${fmt(x)}，${fmt(y)}) ${vert}，得到的点的纵坐标是 `,
          `${fmt(y)}${signed(k)}`,
          y + k,
          [y - k, x + k, y],
          `<p>上下平移时，纵坐标上加下减，横坐标不变：${m(`${fmt(y)}${signed(k)}=${fmt(y + k)}`)}。</p>`,
        );
      }
      if (level === 3) {
        const which = rng() < 0.5;
        return equation(
          `把点 A(${fmt(x)}，${fmt(y)}) 先${horiz}，再${vert}，得到的点的${which ? '横' : '纵'}坐标是 `,
          which ? `${fmt(x)}${signed(h)}` : `${fmt(y)}${signed(k)}`,
          which ? x + h : y + k,
          which ? [x - h, x + k, y + h] : [y - k, y + h, x + k],
          `<p>横坐标右加左减，纵坐标上加下减：平移后的点是 (${fmt(x + h)}，${fmt(y + k)})。</p>`,
        );
      }
      const bx = nonZero(rng, -8, 8);
      const by = nonZero(rng, -8, 8);
      const which = level === 4;
      return equation(
        `线段 AB 平移后得到线段 A′B′，点 A(${fmt(x)}，${fmt(y)}) 的对应点是 A′(${fmt(x + h)}，${fmt(y + k)})，则点 B(${fmt(bx)}，${fmt(by)}) 的对应点 B′ 的${which ? '横' : '纵'}坐标是 `,
        which ? `${fmt(bx)}+(${fmt(x + h)}-${neg(x)})` : `${fmt(by)}+(${fmt(y + k)}-${neg(y)})`,
        which ? bx + h : by + k,
        which ? [bx - h, bx + k, x + h] : [by - k, by + h, y + k],
        `<p>由 A 到 A′ 是${horiz}、${vert}（横坐标变化 ${fmt(h)}，纵坐标变化 ${fmt(k)}），B 按同样的方式平移，所以 B′(${fmt(bx + h)}，${fmt(by + k)})。</p>`,
      );
    },
  },
  {
    name: 'eq2-solution',
    textbookKey: 'm7b',
    sectionKey: 'm7b-10-1',
    knowledgeKeys: ['k-m-eq2-concept'],
    what: '下列关于二元一次方程（组）的解的计算',
    perStructure: 12,
    fact: (rng, level) => {
      const x = nonZero(rng, -6, 6);
      const y = nonZero(rng, -6, 6);
      const p = nonZero(rng, -5, 5);
      const q = nonZero(rng, -5, 5);
      const lhs = (a: number, b: number) =>
        `${a === 1 ? '' : a === -1 ? '-' : fmt(a)}x${b === 1 ? '+' : b === -1 ? '-' : signed(b)}y`;
      const eq = `${lhs(p, q)}=${fmt(p * x + q * y)}`;
      const sol = (sx: string, sy: string) => `\\begin{cases}x=${sx}\\\\y=${sy}\\end{cases}`;
      if (level <= 2 || level === 3) {
        const askY = level <= 2;
        return {
          claim: (v) => `${m(askY ? sol(fmt(x), v) : sol(v, fmt(y)))} 是二元一次方程 ${m(eq)} 的一个解`,
          ask: `已知 ${m(askY ? `x=${fmt(x)}` : `y=${fmt(y)}`)} 时，二元一次方程 ${m(eq)} 成立，则 ${m(askY ? 'y=' : 'x=')}${BLANK}`,
          value: fmt(askY ? y : x),
          wrong: (askY ? [-y, y + 1, x] : [-x, x + 1, y]).map(fmt),
          steps: `<p>把 ${m(askY ? `x=${fmt(x)}` : `y=${fmt(y)}`)} 代入方程，${askY ? `${m(`${fmt(q)}y=${fmt(p * x + q * y)}-${neg(p * x)}=${fmt(q * y)}`)}，所以 ${m(`y=${fmt(y)}`)}` : `${m(`${fmt(p)}x=${fmt(p * x + q * y)}-${neg(q * y)}=${fmt(p * x)}`)}，所以 ${m(`x=${fmt(x)}`)}`}。</p>`,
        };
      }
      let p2 = nonZero(rng, -4, 4);
      const q2 = nonZero(rng, -4, 4);
      if (p * q2 === p2 * q) p2 = p2 === 4 ? -3 : p2 + 1 || 2;
      const eq2 = `${lhs(p2, q2)}=${fmt(p2 * x + q2 * y)}`;
      const which = level === 4;
      return {
        claim: (v) =>
          `${m(which ? sol(fmt(x), v) : sol(v, fmt(y)))} 是二元一次方程组 ${m(`\\begin{cases}${eq}\\\\${eq2}\\end{cases}`)} 的解`,
        ask: `已知二元一次方程组 ${m(`\\begin{cases}${eq}\\\\${eq2}\\end{cases}`)} 的解中 ${m(which ? `x=${fmt(x)}` : `y=${fmt(y)}`)}，则 ${m(which ? 'y=' : 'x=')}${BLANK}`,
        value: fmt(which ? y : x),
        wrong: (which ? [-y, y + 2, x] : [-x, x + 2, y]).map(fmt),
        steps: `<p>方程组的解必须同时满足两个方程。把 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 代入：${m(`${fmt(p)}\\times${neg(x)}+${neg(q)}\\times${neg(y)}=${fmt(p * x + q * y)}`)}，${m(`${fmt(p2)}\\times${neg(x)}+${neg(q2)}\\times${neg(y)}=${fmt(p2 * x + q2 * y)}`)}，都成立。</p>`,
      };
    },
  },
  {
    name: 'ineq-basic',
    textbookKey: 'm7b',
    sectionKey: 'm7b-11-1',
    knowledgeKeys: ['k-m-ineq-concept', 'k-m-ineq-property'],
    what: '下列判断',
    perStructure: 12,
    fact: (rng, level) => {
      const a = nonZero(rng, 2, 6) * (level === 3 ? -1 : 1);
      const b = int(rng, -9, 9);
      const x0 = int(rng, -8, 8);
      const op = pick(rng, ['\\gt', '\\lt', '\\ge', '\\le'] as const);
      const cmp = (l: number, r: number) =>
        op === '\\gt' ? l > r : op === '\\lt' ? l < r : op === '\\ge' ? l >= r : l <= r;
      const forms: [string, (x: number) => number][] = [
        [`x${signed(b)}`, (x) => x + b],
        [`x${signed(b)}`, (x) => x + b],
        [`${fmt(a)}x${signed(b)}`, (x) => a * x + b],
        [`\\frac{x}{${Math.abs(a)}}${signed(b)}`, (x) => x / Math.abs(a) + b],
        [`2(x${signed(b)})-x`, (x) => 2 * (x + b) - x],
      ];
      const [tex, f] = forms[level - 1]!;
      const c = Math.round(f(x0)) + int(rng, -2, 2);
      const step = level === 4 ? Math.abs(a) : 1;
      const near = Array.from({ length: 25 }, (_, i) => x0 + (i - 12) * step);
      const good = near.filter((x) => cmp(f(x), c));
      const bad = near.filter((x) => !cmp(f(x), c));
      const x = pick(rng, good);
      return {
        claim: (v) => `当 ${m(`x=${v}`)} 时，不等式 ${m(`${tex}${op} ${fmt(c)}`)} 成立`,
        ask: `写出一个使不等式 ${m(`${tex}${op} ${fmt(c)}`)} 成立的整数：${m('x=')}${BLANK}`,
        value: fmt(x),
        wrong: shuffle(rng, bad).slice(0, 3).map(fmt),
        steps: `<p>把 ${m(`x=${fmt(x)}`)} 代入左边，得 ${m(fmt(f(x)))}，${m(`${fmt(f(x))}${op} ${fmt(c)}`)} 成立，所以它是不等式的一个解。${level === 3 ? '解这个不等式时两边同除以负数，不等号方向要改变。' : ''}</p>`,
      };
    },
  },
  {
    name: 'sampling',
    textbookKey: 'm7b',
    sectionKey: 'm7b-12-1',
    knowledgeKeys: ['k-m-stat-sample', 'k-m-stat-census'],
    what: '下列用样本估计总体的计算',
    perStructure: 12,
    fact: (rng, level) => {
      const n = pick(rng, [20, 25, 40, 50, 80, 100, 200]);
      const k = int(rng, 1, n - 1);
      const N = n * int(rng, 5, 30);
      if (level <= 2) {
        const n2 = pick(rng, [20, 25, 50, 100]);
        const k2 = int(rng, 1, n2 - 1);
        return equation(
          `随机抽查 ${n2} 名学生，其中 ${k2} 人每天阅读超过半小时，这部分学生占样本的百分比是 `,
          `\\frac{${k2}}{${n2}}\\times100`,
          (k2 * 100) / n2,
          [k2, (k2 * 100) / n2 + 5, 100 - (k2 * 100) / n2],
          `<p>百分比等于这部分的人数除以样本容量再乘 100：${m(`\\frac{${k2}}{${n2}}\\times100=${fmt((k2 * 100) / n2)}`)}，即 ${fmt((k2 * 100) / n2)}%。</p>`,
          '（%）',
        );
      }
      if (level <= 4) {
        return equation(
          `某校有 ${N} 名学生，随机抽取 ${n} 名调查，其中 ${k} 名喜欢足球，估计全校喜欢足球的学生有 `,
          `${N}\\times\\frac{${k}}{${n}}`,
          (N * k) / n,
          [k * (N / n) + n, N - (N * k) / n, k],
          `<p>用样本估计总体：样本中喜欢足球的占 ${m(`\\frac{${k}}{${n}}`)}，所以全校约 ${m(`${N}\\times\\frac{${k}}{${n}}=${fmt((N * k) / n)}`)}（名）。</p>`,
          ' 名',
        );
      }
      const r = pick(rng, [10, 20, 25, 50]);
      const N2 = r * int(rng, 20, 120);
      return equation(
        `为了解某校 ${N2} 名学生的视力，按 ${r} 名学生抽 1 名的比例随机抽样，样本容量是 `,
        `\\frac{${N2}}{${r}}`,
        N2 / r,
        [N2, N2 * r, N2 / r + 1],
        `<p>总体是 ${N2} 名学生的视力，每 ${r} 名抽 1 名，样本容量为 ${m(`\\frac{${N2}}{${r}}=${fmt(N2 / r)}`)}（样本容量只是一个数，没有单位）。</p>`,
      );
    },
  },
  {
    name: 'solids',
    textbookKey: 'm7a',
    sectionKey: 'm7a-6-1',
    knowledgeKeys: ['k-m-geo-solid', 'k-m-geo-net'],
    what: '下列关于立体图形的计算',
    perStructure: 12,
    fact: (rng, level) => {
      const n = int(rng, 3, 12);
      const cn = ['', '', '', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二'][n]!;
      if (level === 1) {
        return equation(
          `${cn}棱柱的顶点数是 `,
          `2\\times${n}`,
          2 * n,
          [3 * n, n + 2, n],
          `<p>n 棱柱上、下底面各有 n 个顶点，共 ${m(`2\\times${n}=${2 * n}`)} 个。</p>`,
          ' 个',
        );
      }
      if (level === 2) {
        return equation(
          `${cn}棱柱的棱数是 `,
          `3\\times${n}`,
          3 * n,
          [2 * n, n + 2, 2 * n + 2],
          `<p>n 棱柱上、下底面各有 n 条棱，侧棱有 n 条，共 ${m(`3\\times${n}=${3 * n}`)} 条。</p>`,
          ' 条',
        );
      }
      if (level === 3) {
        const pyr = rng() < 0.5;
        return pyr
          ? equation(
              `${cn}棱锥的棱数是 `,
              `2\\times${n}`,
              2 * n,
              [3 * n, n + 1, n],
              `<p>n 棱锥底面有 n 条棱，侧棱有 n 条，共 ${m(`2\\times${n}=${2 * n}`)} 条。</p>`,
              ' 条',
            )
          : equation(
              `${cn}棱锥的面数是 `,
              `${n}+1`,
              n + 1,
              [n + 2, n, 2 * n],
              `<p>n 棱锥有 n 个侧面和 1 个底面，共 ${m(`${n}+1=${n + 1}`)} 个面。</p>`,
              ' 个',
            );
      }
      if (level === 4) {
        const a = int(rng, 2, 12);
        return equation(
          `棱长为 ${a} cm 的正方体，展开图的面积（即表面积）是 `,
          `6\\times${a}^{2}`,
          6 * a * a,
          [a ** 3, 4 * a * a, 12 * a],
          `<p>正方体的展开图由 6 个全等的正方形组成：${m(`6\\times${a}^{2}=${6 * a * a}`)}（${m('\\mathrm{cm}^{2}')}）。</p>`,
          ' cm²',
        );
      }
      return equation(
        `${cn}棱柱的顶点数加面数再减去棱数，即 `,
        `2\\times${n}+(${n}+2)-3\\times${n}`,
        2,
        [0, n, 4],
        `<p>${cn}棱柱有 ${2 * n} 个顶点、${n + 2} 个面、${3 * n} 条棱：${m(`${2 * n}+${n + 2}-${3 * n}=2`)}，这就是欧拉公式 ${m('V+F-E=2')}。</p>`,
      );
    },
  },
  {
    name: 'translation',
    textbookKey: 'm7b',
    sectionKey: 'm7b-7-4',
    knowledgeKeys: ['k-m-lines-translate'],
    what: '下列关于平移的计算',
    perStructure: 12,
    fact: (rng, level) => {
      if (level === 1) {
        const [a, b, c] = [int(rng, 3, 12), int(rng, 3, 12), int(rng, 3, 12)];
        const ok = a + b > c && a + c > b && b + c > a;
        const [p, q, r] = ok ? [a, b, c] : [a, a, Math.min(2 * a - 1, c)];
        return equation(
          `三角形 ABC 的三边长分别为 ${p} cm、${q} cm、${r} cm，把它平移得到三角形 A′B′C′，三角形 A′B′C′ 的周长是 `,
          `${p}+${q}+${r}`,
          p + q + r,
          [p + q + r + 3, p * q, 2 * (p + q + r)],
          `<p>平移不改变图形的形状和大小，对应线段相等：周长为 ${m(`${p}+${q}+${r}=${p + q + r}`)}（cm）。</p>`,
          ' cm',
        );
      }
      if (level === 2) {
        const ab = int(rng, 2, 15);
        const d = int(rng, 2, 15);
        return equation(
          `线段 AB 长 ${ab} cm，沿与 AB 不平行的方向平移 ${d} cm 得到线段 A′B′，四边形 ABB′A′ 的周长是 `,
          `2\\times(${ab}+${d})`,
          2 * (ab + d),
          [ab + d, 2 * ab + d, ab * d],
          `<p>平移后 ${m("A'B'=AB")}，${m("AA'=BB'")} 等于平移的距离：周长为 ${m(`2\\times(${ab}+${d})=${2 * (ab + d)}`)}（cm）。</p>`,
          ' cm',
        );
      }
      if (level === 3) {
        const a = int(rng, 20, 150);
        return {
          claim: (v) =>
            `三角形 ABC 平移得到三角形 A′B′C′，${m('\\angle1')} 是 ${m('\\angle A')} 的对应角 ${m("\\angle A'")}，${m(`\\angle2=${deg(a)}`)} 是 ${m('\\angle A')}，则 ${m(`\\angle1=\\angle2=${deg(v)}`)}`,
          ask: `三角形 ABC 平移得到三角形 A′B′C′，${m('\\angle1')} 是 ${m('\\angle A')} 的对应角 ${m("\\angle A'")}，${m(`\\angle2=${deg(a)}`)} 是 ${m('\\angle A')}，则 ${m('\\angle1=\\angle2=')}${BLANK}°`,
          value: fmt(a),
          wrong: [fmt(180 - a), fmt(a + 10), fmt(90)].filter((w) => w !== fmt(a)),
          steps: `<p>平移不改变图形的形状和大小，对应角相等：${m(`\\angle1=\\angle2=${deg(a)}`)}。</p>`,
        };
      }
      const L = int(rng, 10, 40);
      const W = int(rng, 6, 30);
      const w = int(rng, 1, 3);
      if (level === 4) {
        return equation(
          `在长 ${L} m、宽 ${W} m 的长方形草坪上修一条宽 ${w} m 的弯曲小路（小路任何地方的水平宽度都是 ${w} m），剩余草坪的面积是 `,
          `(${L}-${w})\\times${W}`,
          (L - w) * W,
          [L * W - w, (L - w) * (W - w), L * W],
          `<p>把小路两侧的草坪平移拼在一起，得到长 ${m(`${L}-${w}`)}、宽 ${W} 的长方形：${m(`(${L}-${w})\\times${W}=${(L - w) * W}`)}（${m('\\mathrm{m}^{2}')}）。</p>`,
          ' m²',
        );
      }
      return equation(
        `在长 ${L} m、宽 ${W} m 的长方形草坪上修两条互相垂直、宽都是 ${w} m 的小路，剩余草坪的面积是 `,
        `(${L}-${w})\\times(${W}-${w})`,
        (L - w) * (W - w),
        [L * W - 2 * w, (L - w) * W, L * W - w * (L + W)],
        `<p>把小路平移到草坪的边上，剩余部分拼成长 ${m(`${L}-${w}`)}、宽 ${m(`${W}-${w}`)} 的长方形：${m(`(${L}-${w})\\times(${W}-${w})=${(L - w) * (W - w)}`)}（${m('\\mathrm{m}^{2}')}）。</p>`,
        ' m²',
      );
    },
  },
  {
    name: 'system-word',
    textbookKey: 'm7b',
    sectionKey: 'm7b-10-3',
    knowledgeKeys: ['k-m-eq2-app'],
    what: '下列列方程组解应用题的结果',
    perStructure: 12,
    fact: (rng, level) => {
      if (level <= 2) {
        const x = int(rng, 3, 30);
        const y = int(rng, 3, 30);
        const [a, b, what] = level === 1 ? [2, 4, '鸡兔同笼，'] : [2, 3, '一批自行车中有两轮车和三轮车，'];
        const heads = x + y;
        const legs = a * x + b * y;
        return solvedSystem(
          level === 1
            ? `鸡兔同笼，上有 ${heads} 个头，下有 ${legs} 只脚。`
            : `${what}共 ${heads} 辆，共有 ${legs} 个轮子。`,
          `x+y=${heads}`,
          `${a}x+${b}y=${legs}`,
          x,
          y,
          level === 1 ? '设鸡有 \\(x\\) 只，兔有 \\(y\\) 只' : '设两轮车 \\(x\\) 辆，三轮车 \\(y\\) 辆',
          `<p>由第一个方程得 ${m(`x=${heads}-y`)}，代入第二个方程：${m(`${a}(${heads}-y)+${b}y=${legs}`)}，解得 ${m(`y=${y}`)}，于是 ${m(`x=${x}`)}。</p>`,
        );
      }
      if (level === 3) {
        const p = pick(rng, [30, 40, 50, 60]);
        const q = pick(rng, [10, 15, 20, 25]);
        const x = int(rng, 2, 20);
        const y = int(rng, 2, 30);
        return solvedSystem(
          `某景点成人票每张 ${p} 元，儿童票每张 ${q} 元，一个旅行团共 ${x + y} 人，门票共 ${p * x + q * y} 元。`,
          `x+y=${x + y}`,
          `${p}x+${q}y=${p * x + q * y}`,
          x,
          y,
          '设成人 \\(x\\) 人，儿童 \\(y\\) 人',
          `<p>用代入消元法：${m(`x=${x + y}-y`)}，代入得 ${m(`${p}(${x + y}-y)+${q}y=${p * x + q * y}`)}，即 ${m(`${p - q}y=${(p - q) * y}`)}，所以 ${m(`y=${y}`)}，${m(`x=${x}`)}。</p>`,
        );
      }
      if (level === 4) {
        const x = int(rng, 2, 9);
        const y = int(rng, 2, 9);
        const [a, b, c, d] = [int(rng, 1, 4), int(rng, 1, 4), int(rng, 1, 4), int(rng, 1, 4)];
        const [c2, d2] = a * d === b * c ? [c, d + 1] : [c, d];
        return solvedSystem(
          `买 ${a} 支钢笔和 ${b} 本笔记本共需 ${a * x + b * y} 元，买 ${c2} 支钢笔和 ${d2} 本笔记本共需 ${c2 * x + d2 * y} 元。`,
          `${a === 1 ? '' : a}x+${b === 1 ? '' : b}y=${a * x + b * y}`,
          `${c2 === 1 ? '' : c2}x+${d2 === 1 ? '' : d2}y=${c2 * x + d2 * y}`,
          x,
          y,
          '设钢笔每支 \\(x\\) 元，笔记本每本 \\(y\\) 元',
          `<p>用加减消元法消去一个未知数，解得 ${m(`x=${x}`)}，${m(`y=${y}`)}。检验：${m(`${a}\\times${x}+${b}\\times${y}=${a * x + b * y}`)}，${m(`${c2}\\times${x}+${d2}\\times${y}=${c2 * x + d2 * y}`)}。</p>`,
        );
      }
      const y = int(rng, 1, 6);
      const x = y + int(rng, 4, 20);
      const t1 = int(rng, 2, 6);
      const D = (x + y) * t1;
      const t2 = D / (x - y);
      const [tt1, tt2, DD] = Number.isInteger(t2) ? [t1, t2, D] : [t1 * (x - y), (x + y) * t1, D * (x - y)];
      return solvedSystem(
        `一艘船在两码头之间航行，顺水航行 ${DD} 千米需要 ${tt1} 小时，逆水航行同样的路程需要 ${tt2} 小时。`,
        `${tt1}(x+y)=${DD}`,
        `${tt2}(x-y)=${DD}`,
        x,
        y,
        '设船在静水中的速度为 \\(x\\) 千米/时，水流速度为 \\(y\\) 千米/时',
        `<p>顺水速度为 ${m('x+y')}，逆水速度为 ${m('x-y')}：${m(`x+y=${DD / tt1}`)}，${m(`x-y=${DD / tt2}`)}，两式相加得 ${m(`2x=${DD / tt1 + DD / tt2}`)}，所以 ${m(`x=${x}`)}，${m(`y=${y}`)}。</p>`,
      );
    },
  },
  {
    name: 'three-unknowns',
    textbookKey: 'm7b',
    sectionKey: 'm7b-10-4',
    knowledgeKeys: ['k-m-eq2-three'],
    what: '下列三元一次方程组的解',
    perStructure: 12,
    fact: (rng, level) => {
      const x = nonZero(rng, -5, 6);
      const y = nonZero(rng, -5, 6);
      const z = nonZero(rng, -5, 6);
      const span = level <= 2 ? 1 : level <= 4 ? 2 : 3;
      const row = (): [number, number, number] => [
        int(rng, level <= 2 ? 0 : -span, span),
        int(rng, -span, span),
        int(rng, -span, span),
      ];
      let rows: [number, number, number][] = [];
      for (let t = 0; t < 50; t++) {
        rows =
          level === 1
            ? [
                [1, 1, 1],
                [1, -1, 0],
                [0, 0, 1],
              ]
            : [[1, 1, 1], row(), row()];
        const [[a, b, c], [d, e, f], [g, h, i]] = rows as [
          [number, number, number],
          [number, number, number],
          [number, number, number],
        ];
        const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
        if (det !== 0 && rows.every((r) => r.some((k) => k !== 0))) break;
      }
      const term = (k: number, v: string, first: boolean) =>
        k === 0 ? '' : `${k > 0 && !first ? '+' : ''}${k === 1 ? '' : k === -1 ? '-' : fmt(k)}${v}`;
      const eqs = rows.map((r) => {
        let t = '';
        (['x', 'y', 'z'] as const).forEach((v, k) => (t += term(r[k]!, v, t === '')));
        return `${t}=${fmt(r[0] * x + r[1] * y + r[2] * z)}`;
      });
      const system = `\\begin{cases}${eqs.join('\\\\')}\\end{cases}`;
      const sol = (a: number, b: number, c: number) =>
        `\\begin{cases}x=${fmt(a)}\\\\y=${fmt(b)}\\\\z=${fmt(c)}\\end{cases}`;
      return {
        claim: (v) => `方程组 ${m(system)} 的解是 ${m(v)}`,
        ask: `方程组 ${m(system)} 的解是 ${m('x=')}${BLANK}，${m('y=')}${BLANK}，${m('z=')}${BLANK}`,
        value: sol(x, y, z),
        wrong: [sol(y, x, z), sol(x, z, y), sol(-x, y, z), sol(x, y, z + 1)].filter(
          (w) => w !== sol(x, y, z),
        ),
        steps: `<p>消元：先用第一个方程把三元化为二元，再解二元一次方程组，求得 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)}，${m(`z=${fmt(z)}`)}。检验：${rows.map((r) => m(`${fmt(r[0])}\\times${neg(x)}+${neg(r[1])}\\times${neg(y)}+${neg(r[2])}\\times${neg(z)}=${fmt(r[0] * x + r[1] * y + r[2] * z)}`)).join('，')}。</p>`,
      };
    },
  },
  {
    name: 'water-data',
    textbookKey: 'm7b',
    sectionKey: 'm7b-12-3',
    knowledgeKeys: ['k-m-stat-table', 'k-m-stat-mean'],
    what: '下列关于用水数据的计算',
    perStructure: 12,
    fact: (rng, level) => {
      if (level <= 2) {
        const n = level === 1 ? 3 : 4;
        const mean = int(rng, 6, 20);
        const data = Array.from({ length: n - 1 }, () => mean + int(rng, -3, 3));
        data.push(mean * n - data.reduce((s, x) => s + x, 0));
        return equation(
          `小明家 ${n} 个月的用水量分别为 ${data.join('，')}（吨），平均每月用水 `,
          `\\frac{${data.join('+')}}{${n}}`,
          mean,
          [mean + 1, mean - 1, data[0]! === mean ? mean + 2 : data[0]!],
          `<p>平均每月用水量等于总用水量除以月数：${m(`\\frac{${data.join('+')}}{${n}}=\\frac{${mean * n}}{${n}}=${mean}`)}（吨）。</p>`,
          ' 吨',
        );
      }
      if (level === 3) {
        const before = 10 * int(rng, 2, 9);
        const pct = pick(rng, [10, 20, 25, 30, 40, 50]);
        const after = (before * (100 - pct)) / 100;
        return equation(
          `某家庭换用节水器具前每月用水 ${before} 吨，换用后每月用水 ${fmt(after)} 吨，节水率为 `,
          `\\frac{${before}-${fmt(after)}}{${before}}\\times100`,
          pct,
          [100 - pct, before - after, pct + 5],
          `<p>节水率等于节约的水量除以原来的用水量：${m(`\\frac{${before}-${fmt(after)}}{${before}}\\times100=${pct}`)}，即 ${pct}%。</p>`,
          '（%）',
        );
      }
      const homes = 1000 * int(rng, 2, 50);
      const save = pick(rng, [0.5, 1, 1.5, 2, 2.5, 3]);
      if (level === 4) {
        return equation(
          `某小区有 ${homes} 户居民，如果每户每月节约用水 ${fmt(save)} 吨，全小区每月共节约用水 `,
          `${homes}\\times${fmt(save)}`,
          homes * save,
          [homes + save, homes * save * 12, homes / 2],
          `<p>全小区节水量等于户数乘每户节水量：${m(`${homes}\\times${fmt(save)}=${fmt(homes * save)}`)}（吨）。</p>`,
          ' 吨',
        );
      }
      const price = pick(rng, [2, 3, 4, 5]);
      const tons = int(rng, 2, 8);
      return equation(
        `水价为每吨 ${price} 元，某户每月节约用水 ${tons} 吨，一年（12 个月）可节省水费 `,
        `${price}\\times${tons}\\times12`,
        price * tons * 12,
        [price * tons, price * tons * 10, (price + tons) * 12],
        `<p>每月节省 ${m(`${price}\\times${tons}=${price * tons}`)}（元），一年节省 ${m(`${price * tons}\\times12=${price * tons * 12}`)}（元）。</p>`,
        ' 元',
      );
    },
  },
  {
    name: 'counterexample',
    textbookKey: 'm7b',
    sectionKey: 'm7b-7-3',
    knowledgeKeys: ['k-m-lines-proposition'],
    what: '下列举反例说明命题是假命题',
    perStructure: 12,
    fact: (rng, level) => {
      const k = int(rng, 1, 20);
      if (level === 1) {
        return counterexample(
          '两个数的平方相等，那么这两个数相等',
          `a=${k}`,
          'b',
          'a^{2}=b^{2};;a\\ne b',
          fmt(-k),
          [fmt(k), fmt(k + 1), fmt(2 * k)],
          `${m(`a=${k}`)}，${m(`b=${fmt(-k)}`)} 时 ${m(`a^{2}=b^{2}=${k * k}`)}，但 ${m('a\\ne b')}。`,
        );
      }
      if (level === 2) {
        return counterexample(
          '两个数的绝对值相等，那么这两个数相等',
          `a=${fmt(-k)}`,
          'b',
          '\\left|a\\right|=\\left|b\\right|;;a\\ne b',
          fmt(k),
          [fmt(-k), fmt(k + 2), '0'],
          `${m(`a=${fmt(-k)}`)}，${m(`b=${k}`)} 时 ${m(`\\left|a\\right|=\\left|b\\right|=${k}`)}，但 ${m('a\\ne b')}。`,
        );
      }
      if (level === 3) {
        const b = -int(rng, 1, 15);
        return counterexample(
          '两个数的和一定大于其中任何一个加数',
          `a=${k}`,
          'b',
          'a+b\\lt a',
          fmt(b),
          [fmt(-b), '0', fmt(k)],
          `${m(`a=${k}`)}，${m(`b=${fmt(b)}`)} 时 ${m(`a+b=${k + b}`)}，小于加数 ${m(`a=${k}`)}（加上一个负数，和反而变小）。`,
        );
      }
      if (level === 4) {
        const v = pick(rng, [
          '0',
          '1',
          '0.1',
          '0.2',
          '0.25',
          '0.3',
          '0.4',
          '0.5',
          '0.6',
          '0.75',
          '0.8',
          '0.9',
        ]);
        return counterexample(
          '一个数的平方一定大于这个数',
          '',
          'a',
          'a^{2}\\le a',
          v,
          [fmt(k + 1), fmt(-k), fmt(k + 0.5)],
          `${m(`a=${v}`)} 时 ${m('a^{2}\\le a')}，所以“平方一定大于这个数”不成立（${m('0\\le a\\le 1')} 时都是反例）。`,
        );
      }
      const b = -int(rng, k, k + 10);
      return counterexample(
        '如果 a 大于 b，那么 a 的平方大于 b 的平方',
        `a=${k}`,
        'b',
        'a\\gt b;;a^{2}\\le b^{2}',
        fmt(b),
        [fmt(k - 1 < 0 ? 0 : k - 1), fmt(k + 1), fmt(-b + 1)],
        `${m(`a=${k}`)}，${m(`b=${fmt(b)}`)} 时 ${m('a\\gt b')}，但 ${m(`a^{2}=${k * k}`)}，${m(`b^{2}=${b * b}`)}，${m('a^{2}\\le b^{2}')}。`,
      );
    },
  },
];

function gcd(a: number, b: number): number {
  return b === 0 ? Math.abs(a) : gcd(b, a % b);
}
