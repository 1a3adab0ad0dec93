/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed } from '../types.js';
import {
  BLANK,
  Frac,
  SLOT,
  choice,
  fmt,
  gcd,
  generate,
  int,
  m,
  nonZero,
  p,
  pick,
  poly,
  r,
  signed,
  term,
  type Draft,
  type Rng,
} from './kit.js';

// 人教版 七年级下册: computation items with varied numbers, answers computed, analyses worked step by step.

const gen = (name: string, count: number, make: (rng: Rng, i: number) => Draft) =>
  generate('数学', 'm7b', name, count, make);

const deg = (n: number) => r`${fmt(n)}^{\circ}`;

// ───────────── 第七章 相交线与平行线 ─────────────

const verticalAngles = gen('vertical', 6, (rng) => {
  const sum = int(rng, 20, 80) * 2;
  const a = sum / 2;
  const adjacent = 180 - a;
  return {
    sectionKey: 'm7b-7-1',
    type: '填空题',
    difficulty: 2,
    stem: `<p>直线 ${m('AB')}，${m('CD')} 相交于点 ${m('O')}，若 ${m(r`\angle AOC+\angle BOD=${deg(sum)}`)}，则 ${m(r`\angle AOC=`)}${BLANK}，${m(
      r`\angle BOC=`,
    )}${BLANK}。</p>`,
    answer: `${m(deg(a))}；${m(deg(adjacent))}`,
    analysis: `<p>${m(r`\angle AOC`)} 与 ${m(r`\angle BOD`)} 是对顶角，对顶角相等，所以 ${m(r`\angle AOC=\angle BOD=\frac{1}{2}\times${deg(sum)}=${deg(a)}`)}。<br>${m(
      r`\angle BOC`,
    )} 与 ${m(r`\angle AOC`)} 是邻补角，${m(r`\angle BOC=180^{\circ}-${deg(a)}=${deg(adjacent)}`)}。</p>`,
    knowledgeKeys: ['k-m-lines-vertical'],
  };
});

const RELATIONS = [
  { name: '同位角', equal: true },
  { name: '内错角', equal: true },
  { name: '同旁内角', equal: false },
] as const;

const parallelAngles = gen('parallel', 10, (rng, i) => {
  const rel = RELATIONS[i % RELATIONS.length]!;
  const a = int(rng, 25, 155);
  if (a === 90) return parallelFallback(rng);
  const b = rel.equal ? a : 180 - a;
  const { options, answer } = choice(rng, m(deg(b)), [
    m(deg(rel.equal ? 180 - a : a)),
    m(deg(Math.abs(90 - a) || 45)),
    m(deg(b + 10)),
    m(deg(b - 10)),
  ]);
  return {
    sectionKey: 'm7b-7-2',
    type: '单选题',
    difficulty: rel.equal ? 2 : 3,
    stem: `<p>如图，直线 ${m('a')}∥${m('b')}，直线 ${m('c')} 与 ${m('a')}，${m('b')} 都相交，${m(r`\angle1`)} 与 ${m(r`\angle2`)} 是${rel.name}。若 ${m(
      r`\angle1=${deg(a)}`,
    )}，则 ${m(r`\angle2`)} 的度数为${SLOT}</p>`,
    options,
    answer,
    analysis: rel.equal
      ? `<p>两直线平行，${rel.name}相等，所以 ${m(r`\angle2=\angle1=${deg(a)}`)}。</p>`
      : `<p>两直线平行，同旁内角互补，所以 ${m(r`\angle2=180^{\circ}-\angle1=180^{\circ}-${deg(a)}=${deg(b)}`)}。</p>`,
    knowledgeKeys: ['k-m-lines-prop', 'k-m-lines-angles'],
  };
});

function parallelFallback(rng: Rng): Draft {
  const a = int(rng, 30, 80);
  const { options, answer } = choice(rng, m(deg(180 - a)), [
    m(deg(a)),
    m(deg(90 - a)),
    m(deg(180 - a + 10)),
    m(deg(180 - 2 * a)),
  ]);
  return {
    sectionKey: 'm7b-7-2',
    type: '单选题',
    difficulty: 3,
    stem: `<p>如图，${m('AB')}∥${m('CD')}，直线 ${m('EF')} 分别交 ${m('AB')}，${m('CD')} 于点 ${m('E')}，${m('F')}，若 ${m(r`\angle AEF=${deg(a)}`)}，则 ${m(
      r`\angle EFC`,
    )} 的度数为${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>${m(r`\angle AEF`)} 与 ${m(r`\angle EFC`)} 是同旁内角，两直线平行，同旁内角互补，所以 ${m(r`\angle EFC=180^{\circ}-${deg(a)}=${deg(180 - a)}`)}。</p>`,
    knowledgeKeys: ['k-m-lines-prop', 'k-m-lines-angles'],
  };
}

const PROPOSITIONS: { text: string; truth: boolean; why: string }[] = [
  { text: '对顶角相等。', truth: true, why: '对顶角相等是由邻补角的性质推出的真命题。' },
  {
    text: '相等的角是对顶角。',
    truth: false,
    why: '相等的角不一定是对顶角，例如两直线平行时的同位角相等，但它们不是对顶角。',
  },
  { text: '同位角相等。', truth: false, why: '只有在两直线平行时同位角才相等，缺少这个条件时命题不成立。' },
  { text: '在同一平面内，过一点有且只有一条直线与已知直线垂直。', truth: true, why: '这是垂线的基本性质。' },
  { text: '过直线外一点有且只有一条直线与这条直线平行。', truth: true, why: '这是平行公理。' },
  {
    text: '如果 \\(a\\gt b\\)，那么 \\(a^{2}\\gt b^{2}\\)。',
    truth: false,
    why: '反例：\\(a=1\\)，\\(b=-2\\) 时 \\(a\\gt b\\)，但 \\(a^{2}=1\\lt 4=b^{2}\\)。',
  },
  {
    text: '两条直线被第三条直线所截，内错角相等，那么这两条直线平行。',
    truth: true,
    why: '这是平行线的判定方法：内错角相等，两直线平行。',
  },
  {
    text: '互补的两个角一定是邻补角。',
    truth: false,
    why: '互补只要求两角之和为 180°，位置关系不限，不一定有公共边，所以不一定是邻补角。',
  },
  { text: '垂线段最短。', truth: true, why: '连接直线外一点与直线上各点的所有线段中，垂线段最短。' },
  {
    text: '两个锐角的和一定是钝角。',
    truth: false,
    why: '反例：30° 与 40° 都是锐角，它们的和 70° 仍是锐角。',
  },
];

const propositions = gen('proposition', 8, (rng, i) => {
  const pr = PROPOSITIONS[i % PROPOSITIONS.length]!;
  void rng;
  return {
    sectionKey: 'm7b-7-3',
    type: '判断题',
    difficulty: pr.truth ? 1 : 2,
    stem: `<p>命题“${pr.text}”是真命题。</p>`,
    answer: pr.truth ? '正确' : '错误',
    analysis: `<p>${pr.why}所以这个命题是${pr.truth ? '真' : '假'}命题，说法${pr.truth ? '正确' : '错误'}。</p>`,
    knowledgeKeys: ['k-m-lines-proposition'],
  };
});

const translation = gen('translate-figure', 4, (rng) => {
  const w = int(rng, 3, 9);
  const h = int(rng, 2, 8);
  const d = int(rng, 2, 6);
  return {
    sectionKey: 'm7b-7-4',
    type: '填空题',
    difficulty: 2,
    stem: `<p>把长 ${w} cm、宽 ${h} cm 的长方形 ${m('ABCD')} 沿 ${m('AB')} 方向平移 ${d} cm 得到长方形 ${m("A'B'C'D'")}，则 ${m("A'B'C'D'")} 的面积是${BLANK}${m(
      r`\text{cm}^{2}`,
    )}，点 ${m('A')} 与点 ${m("A'")} 之间的距离是${BLANK}cm。</p>`,
    answer: `${w * h}；${d}`,
    analysis: `<p>平移不改变图形的形状和大小，所以面积仍为 ${m(r`${w}\times${h}=${w * h}`)} ${m(r`\text{cm}^{2}`)}；平移中对应点所连的线段平行且相等，都等于平移的距离，所以 ${m(
      "AA'",
    )}=${d} cm。</p>`,
    knowledgeKeys: ['k-m-lines-translate'],
  };
});

// ───────────── 第八章 实数 ─────────────

const squareRoots = gen('sqrt', 10, (rng, i) => {
  const kind = i % 3;
  if (kind === 0) {
    const a = int(rng, 2, 20);
    return {
      sectionKey: 'm7b-8-1',
      type: '填空题',
      difficulty: 1,
      stem: `<p>${a * a} 的平方根是${BLANK}，算术平方根是${BLANK}。</p>`,
      answer: `${m(r`\pm${a}`)}；${m(String(a))}`,
      analysis: `<p>因为 ${m(r`(\pm${a})^{2}=${a * a}`)}，所以 ${a * a} 的平方根是 ${m(r`\pm${a}`)}；正的平方根叫算术平方根，即 ${m(r`\sqrt{${a * a}}=${a}`)}。</p>`,
      knowledgeKeys: ['k-m-real-sqrt', 'k-m-real-arith-sqrt'],
    };
  }
  if (kind === 1) {
    const a = int(rng, 1, 12);
    let b = int(rng, 2, 13);
    while (new Frac(a, b).d !== b) b = int(rng, 2, 13);
    const f = new Frac(a * a, b * b);
    return {
      sectionKey: 'm7b-8-1',
      type: '填空题',
      difficulty: 2,
      stem: `<p>${m(f.tex())} 的平方根是${BLANK}。</p>`,
      answer: m(r`\pm\frac{${a}}{${b}}`),
      analysis: `<p>因为 ${m(r`\left(\pm\frac{${a}}{${b}}\right)^{2}=${f.tex()}`)}，所以 ${m(f.tex())} 的平方根是 ${m(r`\pm\frac{${a}}{${b}}`)}。一个正数有两个平方根，它们互为相反数。</p>`,
      knowledgeKeys: ['k-m-real-sqrt'],
    };
  }
  const a = int(rng, 2, 9);
  const tenth = a / 10;
  return {
    sectionKey: 'm7b-8-1',
    type: '填空题',
    difficulty: 2,
    stem: `<p>${m(r`\sqrt{${fmt(tenth * tenth)}}=`)}${BLANK}，${m(r`-\sqrt{${a * a * 100}}=`)}${BLANK}。</p>`,
    answer: `${m(fmt(tenth))}；${m(String(-a * 10))}`,
    analysis: `<p>${m(r`${fmt(tenth)}^{2}=${fmt(tenth * tenth)}`)}，所以 ${m(r`\sqrt{${fmt(tenth * tenth)}}=${fmt(tenth)}`)}；${m(
      r`${a * 10}^{2}=${a * a * 100}`,
    )}，所以 ${m(r`-\sqrt{${a * a * 100}}=-${a * 10}`)}。注意被开方数的小数点每移动两位，算术平方根的小数点移动一位。</p>`,
    knowledgeKeys: ['k-m-real-arith-sqrt'],
  };
});

const cubeRoots = gen('cbrt', 8, (rng) => {
  const a = nonZero(rng, -10, 10);
  const frac = rng() < 0.3;
  const b = frac ? pick(rng, [2, 3, 4, 5]) : 1;
  const value = new Frac(a, b);
  const cube = new Frac(a * a * a, b * b * b);
  return {
    sectionKey: 'm7b-8-2',
    type: '填空题',
    difficulty: frac ? 2 : a < 0 ? 2 : 1,
    stem: `<p>${m(r`\sqrt[3]{${cube.tex()}}=`)}${BLANK}。</p>`,
    answer: m(value.tex()),
    analysis: `<p>因为 ${m(r`${value.texP()}^{3}=${cube.tex()}`)}，所以 ${m(r`\sqrt[3]{${cube.tex()}}=${value.tex()}`)}。${
      a < 0 ? '负数的立方根是负数。' : '正数的立方根是正数。'
    }</p>`,
    knowledgeKeys: ['k-m-real-cbrt'],
  };
});

const estimateRoots = gen('estimate', 8, (rng) => {
  let n = int(rng, 5, 120);
  while (Number.isInteger(Math.sqrt(n))) n += 1;
  const lo = Math.floor(Math.sqrt(n));
  const { options, answer } = choice(rng, `${lo} 和 ${lo + 1} 之间`, [
    `${lo - 1} 和 ${lo} 之间`,
    `${lo + 1} 和 ${lo + 2} 之间`,
    `${lo + 2} 和 ${lo + 3} 之间`,
    `${Math.floor(n / 2)} 和 ${Math.floor(n / 2) + 1} 之间`,
  ]);
  return {
    sectionKey: 'm7b-8-3',
    type: '单选题',
    difficulty: n > 50 ? 3 : 2,
    stem: `<p>估计 ${m(r`\sqrt{${n}}`)} 的值在${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>因为 ${m(r`${lo}^{2}=${lo * lo}`)}，${m(r`${lo + 1}^{2}=${(lo + 1) ** 2}`)}，而 ${m(r`${lo * lo}\lt ${n}\lt ${(lo + 1) ** 2}`)}，<br>所以 ${m(
      r`${lo}\lt \sqrt{${n}}\lt ${lo + 1}`,
    )}，即 ${m(r`\sqrt{${n}}`)} 在 ${lo} 和 ${lo + 1} 之间。</p>`,
    knowledgeKeys: ['k-m-real-estimate', 'k-m-real-arith-sqrt'],
  };
});

const nonNegative = gen('nonneg', 6, (rng) => {
  const a = nonZero(rng, -6, 6);
  const b = nonZero(rng, -6, 6);
  const value = a + b;
  return {
    sectionKey: 'm7b-8-3',
    type: '填空题',
    difficulty: 3,
    stem: `<p>若 ${m(r`\left|x${signed(-a).replace(' ', '')}\right|+\sqrt{y${signed(-b).replace(' ', '')}}=0`)}，则 ${m('x+y')} 的值为${BLANK}。</p>`,
    answer: m(fmt(value)),
    analysis: `<p>绝对值和算术平方根都是非负数，两个非负数的和为 0，则它们都为 0。<br>所以 ${m(`x${signed(-a).replace(' ', '')}=0`)}，${m(
      `y${signed(-b).replace(' ', '')}=0`,
    )}，即 ${m(`x=${fmt(a)}`)}，${m(`y=${fmt(b)}`)}，${m(`x+y=${fmt(value)}`)}。</p>`,
    knowledgeKeys: ['k-m-real-nonneg'],
  };
});

// ───────────── 第九章 平面直角坐标系 ─────────────

const QUADRANTS = ['第一象限', '第二象限', '第三象限', '第四象限'];

const quadrant = gen('quadrant', 8, (rng) => {
  const x = nonZero(rng, -9, 9);
  const y = nonZero(rng, -9, 9);
  const q = x > 0 ? (y > 0 ? 0 : 3) : y > 0 ? 1 : 2;
  const { options, answer } = choice(
    rng,
    QUADRANTS[q]!,
    QUADRANTS.filter((_, k) => k !== q),
  );
  return {
    sectionKey: 'm7b-9-1',
    type: '单选题',
    difficulty: 1,
    stem: `<p>在平面直角坐标系中，点 ${m(`P(${fmt(x)},${fmt(y)})`)} 在${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>各象限内点的坐标符号：第一象限 ${m('(+,+)')}，第二象限 ${m('(-,+)')}，第三象限 ${m('(-,-)')}，第四象限 ${m('(+,-)')}。<br>点 ${m(
      'P',
    )} 的横坐标${x > 0 ? '为正' : '为负'}、纵坐标${y > 0 ? '为正' : '为负'}，所以在${QUADRANTS[q]}。</p>`,
    knowledgeKeys: ['k-m-coord-quadrant'],
  };
});

const axisDistances = gen('axis-distance', 6, (rng) => {
  const x = nonZero(rng, -9, 9);
  const y = nonZero(rng, -9, 9);
  return {
    sectionKey: 'm7b-9-1',
    type: '填空题',
    difficulty: 2,
    stem: `<p>点 ${m(`M(${fmt(x)},${fmt(y)})`)} 到 ${m('x')} 轴的距离是${BLANK}，到 ${m('y')} 轴的距离是${BLANK}。</p>`,
    answer: `${Math.abs(y)}；${Math.abs(x)}`,
    analysis: `<p>点到 ${m('x')} 轴的距离等于纵坐标的绝对值，到 ${m('y')} 轴的距离等于横坐标的绝对值。<br>所以点 ${m('M')} 到 ${m('x')} 轴的距离是 ${m(
      r`|${fmt(y)}|=${Math.abs(y)}`,
    )}，到 ${m('y')} 轴的距离是 ${m(r`|${fmt(x)}|=${Math.abs(x)}`)}。</p>`,
    knowledgeKeys: ['k-m-coord-distance'],
  };
});

const onAxis = gen('on-axis', 6, (rng) => {
  const k = nonZero(rng, -6, 6);
  const c = nonZero(rng, -5, 5);
  const axis = pick(rng, ['x', 'y'] as const);
  // P(m + k, 2m + c): on the y-axis the abscissa is 0; on the x-axis the ordinate is 0.
  const mv = axis === 'y' ? new Frac(-k) : new Frac(-c, 2);
  const other = axis === 'y' ? mv.mul(new Frac(2)).add(new Frac(c)) : mv.add(new Frac(k));
  const point = axis === 'y' ? `(0,${other.tex()})` : `(${other.tex()},0)`;
  return {
    sectionKey: 'm7b-9-1',
    type: '填空题',
    difficulty: mv.isInt ? 3 : 4,
    stem: `<p>已知点 ${m(`P(m${signed(k).replace(' ', '')},2m${signed(c).replace(' ', '')})`)} 在 ${m(axis)} 轴上，则 ${m('m')}=${BLANK}，点 ${m(
      'P',
    )} 的坐标是${BLANK}。</p>`,
    answer: `${m(mv.tex())}；${m(point)}`,
    analysis: `<p>${axis === 'y' ? `${m('y')} 轴上的点横坐标为 0` : `${m('x')} 轴上的点纵坐标为 0`}，所以 ${m(
      axis === 'y' ? `m${signed(k).replace(' ', '')}=0` : `2m${signed(c).replace(' ', '')}=0`,
    )}，解得 ${m(`m=${mv.tex()}`)}。<br>代入得点 ${m('P')} 的坐标为 ${m(point)}。</p>`,
    knowledgeKeys: ['k-m-coord-quadrant', 'k-m-coord-concept'],
  };
});

const translateCoords = gen('translate', 8, (rng) => {
  const x = nonZero(rng, -6, 6);
  const y = nonZero(rng, -6, 6);
  const dx = nonZero(rng, -5, 5);
  const dy = nonZero(rng, -5, 5);
  const h = dx > 0 ? `向右平移 ${dx} 个单位长度` : `向左平移 ${-dx} 个单位长度`;
  const v = dy > 0 ? `向上平移 ${dy} 个单位长度` : `向下平移 ${-dy} 个单位长度`;
  return {
    sectionKey: 'm7b-9-2',
    type: '填空题',
    difficulty: 2,
    stem: `<p>将点 ${m(`A(${fmt(x)},${fmt(y)})`)} 先${h}，再${v}，得到点 ${m("A'")}，则点 ${m("A'")} 的坐标是${BLANK}。</p>`,
    answer: m(`(${fmt(x + dx)},${fmt(y + dy)})`),
    analysis: `<p>左右平移改变横坐标（右加左减），上下平移改变纵坐标（上加下减）。<br>横坐标 ${m(`${fmt(x)}${signed(dx).replace(' ', '')}=${fmt(x + dx)}`)}，纵坐标 ${m(
      `${fmt(y)}${signed(dy).replace(' ', '')}=${fmt(y + dy)}`,
    )}，所以 ${m(`A'(${fmt(x + dx)},${fmt(y + dy)})`)}。</p>`,
    knowledgeKeys: ['k-m-coord-translate'],
  };
});

const triangleArea = gen('coord-area', 4, (rng) => {
  const a = nonZero(rng, -6, -1);
  const b = int(rng, 1, 6);
  const h = nonZero(rng, -6, 6);
  const base = b - a;
  const area = new Frac(base * Math.abs(h), 2);
  return {
    sectionKey: 'm7b-9-1',
    type: '填空题',
    difficulty: 3,
    stem: `<p>在平面直角坐标系中，已知 ${m(`A(${a},0)`)}，${m(`B(${b},0)`)}，${m(`C(0,${h})`)}，则 ${m(r`\triangle ABC`)} 的面积是${BLANK}。</p>`,
    answer: m(area.tex()),
    analysis: `<p>${m('A')}，${m('B')} 在 ${m('x')} 轴上，${m(`AB=${b}-${p(a)}=${base}`)}；点 ${m('C')} 到 ${m('AB')} 的距离为 ${m(
      r`|${h}|=${Math.abs(h)}`,
    )}。<br>${m(r`S_{\triangle ABC}=\frac{1}{2}\times${base}\times${Math.abs(h)}=${area.tex()}`)}。</p>`,
    knowledgeKeys: ['k-m-coord-area'],
  };
});

// ───────────── 第十章 二元一次方程组 ─────────────

const pairCheck = gen('pair-check', 6, (rng) => {
  const a = int(rng, 1, 5);
  const b = int(rng, 1, 5);
  const x = nonZero(rng, -4, 6);
  const y = nonZero(rng, -4, 6);
  const c = a * x + b * y;
  const pair = (px: number, py: number) => m(r`\begin{cases}x=${fmt(px)}\\y=${fmt(py)}\end{cases}`);
  const { options, answer } = choice(
    rng,
    pair(x, y),
    [pair(y, x), pair(x + 1, y), pair(x, y - 1), pair(-x, -y), pair(x - 1, y + 1)].filter(
      (o) => o !== pair(x, y) && !isSolutionOf(o, a, b, c),
    ),
  );
  return {
    sectionKey: 'm7b-10-1',
    type: '单选题',
    difficulty: 1,
    stem: `<p>下列各组数中，是二元一次方程 ${m(`${term(a, 'x', true)}+${term(b, 'y', true)}=${fmt(c)}`)} 的解的是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>把各组数分别代入方程检验，使方程左右两边相等的才是方程的解。<br>当 ${m(`x=${fmt(x)}`)}，${m(`y=${fmt(y)}`)} 时，左边 ${m(
      r`=${a === 1 ? '' : `${a}\times`}${p(x)}+${b === 1 ? '' : `${b}\times`}${p(y)}=${fmt(c)}`,
    )}，等于右边，所以它是方程的解。</p>`,
    knowledgeKeys: ['k-m-eq2-concept'],
  };
});

function isSolutionOf(option: string, a: number, b: number, c: number): boolean {
  const match = /x=(-?\d+)\\\\y=(-?\d+)/.exec(option);
  if (!match) return false;
  return a * Number(match[1]) + b * Number(match[2]) === c;
}

const solveSystem = gen('system', 12, (rng, i) => {
  const x = nonZero(rng, -5, 6);
  const y = nonZero(rng, -5, 6);
  if (i % 2 === 0) {
    // Substitution: y = kx + c with the other equation a x + b y = d.
    const k = nonZero(rng, -3, 3);
    const c = nonZero(rng, -6, 6);
    const yy = k * x + c;
    const a = nonZero(rng, 1, 5);
    const b = nonZero(rng, -4, 4);
    if (a + b * k === 0) return systemFallback(rng);
    const d = a * x + b * yy;
    return system(
      [
        `y=${term(k, 'x', true)}${signed(c).replace(' ', '')}`,
        `${poly([
          [a, 'x'],
          [b, 'y'],
        ])}=${fmt(d)}`,
      ],
      x,
      yy,
      [
        `把①代入②得 ${m(`${term(a, 'x', true)}${b < 0 ? '-' : '+'}${Math.abs(b) === 1 ? '' : Math.abs(b)}(${term(k, 'x', true)}${signed(c).replace(' ', '')})=${fmt(d)}`)}`,
        `整理得 ${m(`${term(a + b * k, 'x', true)}=${fmt(d - b * c)}`)}，解得 ${m(`x=${fmt(x)}`)}`,
        `把 ${m(`x=${fmt(x)}`)} 代入①得 ${m(`y=${fmt(yy)}`)}`,
      ],
      'k-m-eq2-sub',
      2,
    );
  }
  // Elimination: a1 x + b1 y = c1, a2 x + b2 y = c2 with b1 = ±b2 or a multiple.
  const b1 = nonZero(rng, 1, 4);
  const a1 = nonZero(rng, -5, 5);
  const a2 = nonZero(rng, -5, 5);
  const factor = pick(rng, [1, -1, 2, -2, 3]);
  const b2 = b1 * factor;
  if (a2 === a1 * factor) return systemFallback(rng);
  const c1 = a1 * x + b1 * y;
  const c2 = a2 * x + b2 * y;
  const scaled = factor === 1 ? '' : factor === -1 ? '把①与②相加' : `①×${Math.abs(factor)}`;
  const combine =
    factor === 1
      ? `②−①得 ${m(`${term(a2 - a1, 'x', true)}=${fmt(c2 - c1)}`)}`
      : factor === -1
        ? `①+②得 ${m(`${term(a1 + a2, 'x', true)}=${fmt(c1 + c2)}`)}`
        : factor > 0
          ? `${scaled}−②得 ${m(`${term(a1 * factor - a2, 'x', true)}=${fmt(c1 * factor - c2)}`)}`
          : `${scaled}+②得 ${m(`${term(a1 * -factor + a2, 'x', true)}=${fmt(c1 * -factor + c2)}`)}`;
  return system(
    [
      `${poly([
        [a1, 'x'],
        [b1, 'y'],
      ])}=${fmt(c1)}`,
      `${poly([
        [a2, 'x'],
        [b2, 'y'],
      ])}=${fmt(c2)}`,
    ],
    x,
    y,
    [
      combine,
      `解得 ${m(`x=${fmt(x)}`)}`,
      `把 ${m(`x=${fmt(x)}`)} 代入①得 ${m(`${term(b1, 'y', true)}=${fmt(c1 - a1 * x)}`)}，解得 ${m(`y=${fmt(y)}`)}`,
    ],
    'k-m-eq2-elim',
    Math.abs(factor) === 1 ? 3 : 4,
  );
});

function systemFallback(rng: Rng): Draft {
  const x = int(rng, 1, 9);
  const y = int(rng, 1, 9);
  return system(
    [`x+y=${x + y}`, `x-y=${x - y}`],
    x,
    y,
    [`①+②得 ${m(`2x=${2 * x}`)}，解得 ${m(`x=${x}`)}`, `把 ${m(`x=${x}`)} 代入①得 ${m(`y=${y}`)}`],
    'k-m-eq2-elim',
    1,
  );
}

function system(
  equations: [string, string],
  x: number,
  y: number,
  steps: string[],
  method: string,
  difficulty: 1 | 2 | 3 | 4 | 5,
): Draft {
  const solution = m(r`\begin{cases}x=${fmt(x)}\\y=${fmt(y)}\end{cases}`);
  return {
    sectionKey: 'm7b-10-2',
    type: '解答题',
    difficulty,
    stem: `<p>解方程组：${m(r`\begin{cases}${equations[0]}\quad①\\${equations[1]}\quad②\end{cases}`)}</p>`,
    answer: `<p>${solution}</p>`,
    analysis: `<p>${steps.join('；<br>')}。<br>所以原方程组的解是 ${solution}。</p>`,
    knowledgeKeys: [method, 'k-m-eq2-concept'],
  };
}

const systemWord = gen('system-word', 6, (rng, i) => {
  if (i % 2 === 0) {
    const adult = int(rng, 30, 60);
    const child = int(rng, 10, adult - 5);
    const a = int(rng, 5, 40);
    const c = int(rng, 3, 40);
    return {
      sectionKey: 'm7b-10-3',
      type: '解答题',
      difficulty: 3,
      stem: `<p>某景区门票成人票每张 ${adult} 元，学生票每张 ${child} 元。某天一个参观团共 ${a + c} 人，购票共花费 ${adult * a + child * c} 元。这个参观团中成人和学生各有多少人？</p>`,
      answer: `<p>成人 ${a} 人，学生 ${c} 人。</p>`,
      analysis: `<p>设成人有 ${m('x')} 人，学生有 ${m('y')} 人。<br>根据题意得 ${m(
        r`\begin{cases}x+y=${a + c}\\${adult}x+${child}y=${adult * a + child * c}\end{cases}`,
      )}，<br>由第一个方程得 ${m(`y=${a + c}-x`)}，代入第二个方程得 ${m(`${adult - child}x=${adult * a + child * c - child * (a + c)}`)}，解得 ${m(`x=${a}`)}，${m(
        `y=${c}`,
      )}。<br>答：成人 ${a} 人，学生 ${c} 人。</p>`,
      knowledgeKeys: ['k-m-eq2-app'],
    };
  }
  const big = int(rng, 3, 6) * 10;
  const small = int(rng, 1, big / 10 - 1) * 10;
  const x = int(rng, 2, 8);
  const y = int(rng, 2, 8);
  return {
    sectionKey: 'm7b-10-3',
    type: '解答题',
    difficulty: 3,
    stem: `<p>学校组织 ${big * x + small * y} 名师生外出研学，租用了大、小两种客车共 ${x + y} 辆，恰好坐满。大客车每辆坐 ${big} 人，小客车每辆坐 ${small} 人。大、小客车各租了多少辆？</p>`,
    answer: `<p>大客车 ${x} 辆，小客车 ${y} 辆。</p>`,
    analysis: `<p>设租大客车 ${m('x')} 辆，小客车 ${m('y')} 辆。<br>根据题意得 ${m(
      r`\begin{cases}x+y=${x + y}\\${big}x+${small}y=${big * x + small * y}\end{cases}`,
    )}，<br>第二个方程减去第一个方程的 ${small} 倍得 ${m(`${big - small}x=${(big - small) * x}`)}，解得 ${m(`x=${x}`)}，${m(
      `y=${y}`,
    )}。<br>答：租大客车 ${x} 辆，小客车 ${y} 辆。</p>`,
    knowledgeKeys: ['k-m-eq2-app'],
  };
});

const threeVariables = gen('three', 4, (rng) => {
  const x = nonZero(rng, -3, 4);
  const y = nonZero(rng, -3, 4);
  const z = nonZero(rng, -3, 4);
  const A = x + y + z;
  const B = 2 * x - y + z;
  const C = x + 2 * y - z;
  // ①+③: 2x + 3y = A + C (④);  ②−①: x − 2y = B − A (⑤).
  return {
    sectionKey: 'm7b-10-4',
    type: '解答题',
    difficulty: 5,
    stem: `<p>解方程组：${m(r`\begin{cases}x+y+z=${fmt(A)}\quad①\\2x-y+z=${fmt(B)}\quad②\\x+2y-z=${fmt(C)}\quad③\end{cases}`)}</p>`,
    answer: `<p>${m(r`\begin{cases}x=${fmt(x)}\\y=${fmt(y)}\\z=${fmt(z)}\end{cases}`)}</p>`,
    analysis: `<p>先消去 ${m('z')}，化为二元一次方程组：<br>①+③得 ${m(`2x+3y=${fmt(A + C)}`)}④；②−①得 ${m(`x-2y=${fmt(B - A)}`)}⑤。<br>由⑤得 ${m(
      `x=2y${signed(B - A).replace(' ', '')}`,
    )}，代入④得 ${m(`7y=${fmt(A + C - 2 * (B - A))}`)}，解得 ${m(`y=${fmt(y)}`)}，从而 ${m(`x=${fmt(x)}`)}。<br>把 ${m(`x=${fmt(x)}`)}，${m(
      `y=${fmt(y)}`,
    )} 代入①得 ${m(`z=${fmt(z)}`)}。</p>`,
    knowledgeKeys: ['k-m-eq2-three'],
  };
});

// ───────────── 第十一章 不等式与不等式组 ─────────────

const inequalityProperty = gen('ineq-property', 6, (rng) => {
  const k = int(rng, 2, 6);
  const c = int(rng, 1, 9);
  const holding = [
    m(`a+${c}\\gt b+${c}`),
    m(`${k}a\\gt ${k}b`),
    m(r`\frac{a}{${k}}\gt \frac{b}{${k}}`),
    m(`a-${c}\\gt b-${c}`),
  ];
  const wrongChoice = pick(rng, [
    {
      text: m(`-${k}a\\gt -${k}b`),
      why: `两边都乘负数 ${m(`-${k}`)}，不等号的方向要改变，应为 ${m(`-${k}a\\lt -${k}b`)}`,
    },
    {
      text: m(`${c}-a\\gt ${c}-b`),
      why: `由 ${m(`a\\gt b`)} 得 ${m(`-a\\lt -b`)}，两边再加 ${c} 得 ${m(`${c}-a\\lt ${c}-b`)}`,
    },
    {
      text: m(r`-\frac{a}{${k}}\gt -\frac{b}{${k}}`),
      why: `两边都除以负数 ${m(`-${k}`)}，不等号的方向要改变`,
    },
  ]);
  const { options, answer } = choice(rng, wrongChoice.text, holding);
  return {
    sectionKey: 'm7b-11-1',
    type: '单选题',
    difficulty: 2,
    stem: `<p>若 ${m(r`a\gt b`)}，则下列不等式<b>不成立</b>的是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>不等式两边加（减）同一个数，或乘（除以）同一个正数，不等号方向不变；乘（除以）同一个负数，不等号方向改变。<br>${wrongChoice.why}，所以不成立的是该选项。</p>`,
    knowledgeKeys: ['k-m-ineq-property'],
  };
});

const rel = (dir: 1 | -1, strict: boolean) =>
  dir > 0 ? (strict ? r`\gt` : r`\ge`) : strict ? r`\lt` : r`\le`;

const solveInequality = gen('ineq-solve', 10, (rng) => {
  // a x + b  (op)  c x + d  with a ≠ c; the solution is x (op') s.
  const a = nonZero(rng, -5, 6);
  let c = nonZero(rng, -4, 4);
  if (c === a) c = a > 0 ? a - 1 || -1 : a + 1;
  const s = nonZero(rng, -6, 6);
  const b = nonZero(rng, -9, 9);
  const d = (a - c) * s + b;
  const strict = rng() < 0.6;
  const op = rel(1, strict);
  const k = a - c;
  const resultDir: 1 | -1 = k > 0 ? 1 : -1;
  const result = `x${rel(resultDir, strict)} ${fmt(s)}`;
  return {
    sectionKey: 'm7b-11-2',
    type: '填空题',
    difficulty: k < 0 ? 3 : 2,
    stem: `<p>不等式 ${m(`${term(a, 'x', true)}${signed(b).replace(' ', '')}${op} ${term(c, 'x', true)}${signed(d).replace(' ', '')}`)} 的解集是${BLANK}。</p>`,
    answer: m(result),
    analysis: `<p>移项得 ${m(`${term(a, 'x', true)}${term(-c, 'x')}${op} ${fmt(d)}${signed(-b).replace(' ', '')}`)}，合并同类项得 ${m(
      `${term(k, 'x', true)}${op} ${fmt(k * s)}`,
    )}。<br>${
      k > 0 ? `两边都除以正数 ${k}，不等号方向不变` : `两边都除以负数 ${m(fmt(k))}，<b>不等号的方向改变</b>`
    }，得 ${m(result)}。</p>`,
    knowledgeKeys: ['k-m-ineq-solve', 'k-m-ineq-property'],
  };
});

const integerSolutions = gen('ineq-int', 4, (rng) => {
  const a = int(rng, 2, 5);
  const upper = int(rng, 2, 6);
  const b = nonZero(rng, -6, 6);
  const c = a * upper + b;
  // a x + b ≤ c  → x ≤ upper; positive integer solutions 1..upper
  const list = Array.from({ length: upper }, (_, i) => i + 1);
  return {
    sectionKey: 'm7b-11-2',
    type: '填空题',
    difficulty: 3,
    stem: `<p>不等式 ${m(r`${a}x${signed(b).replace(' ', '')}\le ${fmt(c)}`)} 的正整数解是${BLANK}。</p>`,
    answer: list.join('，'),
    analysis: `<p>解不等式：${m(r`${a}x\le ${fmt(c)}${signed(-b).replace(' ', '')}`)}，${m(r`${a}x\le ${a * upper}`)}，${m(r`x\le ${upper}`)}。<br>其中的正整数有 ${list.join(
      '，',
    )}，共 ${upper} 个。</p>`,
    knowledgeKeys: ['k-m-ineq-int', 'k-m-ineq-solve'],
  };
});

const inequalitySystem = gen('ineq-system', 8, (rng) => {
  const lo = nonZero(rng, -5, 3);
  const hi = lo + int(rng, 2, 6);
  // ① a x − b > c  → x > lo;  ② (x + e) / 2 ≥ f → x ≤ hi written as  −x ≥ −hi via  hi − x ≥ 0 form.
  const a = int(rng, 2, 4);
  const b = nonZero(rng, -5, 5);
  const c = a * lo - b;
  const e = nonZero(rng, -4, 4);
  const f = hi + e;
  const integers = Array.from({ length: hi - lo }, (_, i) => lo + 1 + i);
  return {
    sectionKey: 'm7b-11-3',
    type: '解答题',
    difficulty: 4,
    stem: `<p>解不等式组 ${m(r`\begin{cases}${a}x${signed(-b).replace(' ', '')}\gt ${fmt(c)}\quad①\\x${signed(e).replace(' ', '')}\le ${fmt(f)}\quad②\end{cases}`)}，并写出它的所有整数解。</p>`,
    answer: `<p>解集为 ${m(r`${fmt(lo)}\lt x\le ${fmt(hi)}`)}，整数解为 ${integers.map((n) => m(fmt(n))).join('，')}。</p>`,
    analysis: `<p>解不等式①：${m(r`${a}x\gt ${fmt(c)}${signed(b).replace(' ', '')}`)}，${m(r`x\gt ${fmt(lo)}`)}；<br>解不等式②：${m(
      r`x\le ${fmt(f)}${signed(-e).replace(' ', '')}`,
    )}，${m(r`x\le ${fmt(hi)}`)}。<br>在数轴上表示两个解集，公共部分为 ${m(r`${fmt(lo)}\lt x\le ${fmt(hi)}`)}（大小小大中间找）。<br>其中的整数有 ${integers.map((n) => m(fmt(n))).join('，')}。</p>`,
    knowledgeKeys: ['k-m-ineq-system', 'k-m-ineq-int'],
  };
});

const inequalityWord = gen('ineq-word', 4, (rng) => {
  const total = int(rng, 10, 30) * 10;
  const price = int(rng, 3, 9);
  const fixed = int(rng, 1, 5) * 10;
  const max = Math.floor((total - fixed) / price);
  return {
    sectionKey: 'm7b-11-2',
    type: '解答题',
    difficulty: 3,
    stem: `<p>班级用 ${total} 元班费购买奖品，先花 ${fixed} 元买了一面锦旗，剩下的钱全部用来买单价 ${price} 元的笔记本。最多能买多少本笔记本？</p>`,
    answer: `<p>最多能买 ${max} 本。</p>`,
    analysis: `<p>设买 ${m('x')} 本笔记本，根据题意得 ${m(r`${fixed}+${price}x\le ${total}`)}，<br>解得 ${m(r`x\le ${new Frac(total - fixed, price).tex()}`)}。<br>${m(
      'x',
    )} 取正整数，所以 ${m('x')} 的最大值为 ${max}。<br>答：最多能买 ${max} 本笔记本。</p>`,
    knowledgeKeys: ['k-m-ineq-app'],
  };
});

// ───────────── 第十二章 数据的收集、整理与描述 ─────────────

const sampleSize = gen('sample', 6, (rng) => {
  const population = int(rng, 8, 40) * 100;
  const sample = int(rng, 5, 30) * 10;
  const who = pick(rng, [
    '某校七年级学生的视力情况',
    '某区初中生每天的睡眠时间',
    '某校学生每周的课外阅读时间',
    '某市一批灯泡的使用寿命',
  ]);
  const right = `样本容量是 ${sample}`;
  const { options, answer } = choice(rng, right, [
    `总体是 ${population} 名对象`,
    `样本容量是 ${population}`,
    `个体是被抽取的 ${sample} 名对象`,
    `样本容量是 ${sample} 名对象`,
  ]);
  return {
    sectionKey: 'm7b-12-1',
    type: '单选题',
    difficulty: 2,
    stem: `<p>为了解${who}，从 ${population} 个对象中随机抽取 ${sample} 个进行调查。下列说法正确的是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>总体是所要考察的对象的全体，即 ${population} 个对象的这项数据；个体是每一个考察对象的这项数据；样本是被抽取的 ${sample} 个对象的数据。<br>样本容量是样本中个体的数目，只是一个数，没有单位，所以样本容量是 ${sample}。</p>`,
    knowledgeKeys: ['k-m-stat-sample', 'k-m-stat-census'],
  };
});

const pieAngle = gen('pie', 8, (rng) => {
  const total = pick(rng, [40, 45, 50, 60, 72, 80, 90, 120]);
  // The angle is a whole number of degrees when the part is a multiple of this step.
  const step = total / gcd(total, 360);
  const part = step * int(rng, 1, Math.max(1, Math.floor((total - 1) / step)));
  if (part >= total) return pieAngleFallback(rng);
  const angle = (part / total) * 360;
  const activity = pick(rng, ['篮球', '跳绳', '乒乓球', '足球', '羽毛球']);
  return {
    sectionKey: 'm7b-12-2',
    type: '填空题',
    difficulty: 2,
    stem: `<p>某年级对 ${total} 名同学最喜欢的体育项目进行调查，其中最喜欢${activity}的有 ${part} 人。在扇形统计图中，表示“${activity}”的扇形圆心角是${BLANK}度。</p>`,
    answer: fmt(angle),
    analysis: `<p>扇形的圆心角 = 360° × 该部分所占百分比。<br>最喜欢${activity}的人数占 ${m(r`\frac{${part}}{${total}}`)}，圆心角为 ${m(r`360^{\circ}\times\frac{${part}}{${total}}=${deg(angle)}`)}。</p>`,
    knowledgeKeys: ['k-m-stat-pie'],
  };
});

function pieAngleFallback(rng: Rng): Draft {
  const pct = pick(rng, [10, 15, 20, 25, 30, 35, 40, 45]);
  return {
    sectionKey: 'm7b-12-2',
    type: '填空题',
    difficulty: 1,
    stem: `<p>在扇形统计图中，某部分占总体的 ${pct}%，它所对应的扇形圆心角是${BLANK}度。</p>`,
    answer: fmt((pct * 360) / 100),
    analysis: `<p>圆心角 = 360° × 百分比：${m(r`360^{\circ}\times${pct}\%=${deg((pct * 360) / 100)}`)}。</p>`,
    knowledgeKeys: ['k-m-stat-pie'],
  };
}

const estimateTotal = gen('water', 4, (rng) => {
  const households = int(rng, 20, 50);
  const avg = int(rng, 6, 15) / 2;
  const town = int(rng, 2, 9) * 1000;
  return {
    sectionKey: 'm7b-12-3',
    type: '解答题',
    difficulty: 2,
    stem: `<p>为了解某小区居民的用水情况，随机调查了 ${households} 户家庭某月的用水量，算得平均每户用水 ${fmt(avg)} 吨。该小区共有 ${town} 户家庭，请估计该小区这个月的总用水量，并说明这样估计的依据。</p>`,
    answer: `<p>约 ${fmt(avg * town)} 吨。</p>`,
    analysis: `<p>随机抽样得到的样本能够代表总体，可以用样本的平均数估计总体的平均数。<br>${m(r`${fmt(avg)}\times${town}=${fmt(avg * town)}`)}（吨），所以估计该小区这个月的总用水量约为 ${fmt(
      avg * town,
    )} 吨。</p>`,
    knowledgeKeys: ['k-m-stat-estimate', 'k-m-stat-sample'],
  };
});

export const MATH_7B_GENERATED: QuestionSeed[] = [
  ...verticalAngles,
  ...parallelAngles,
  ...propositions,
  ...translation,
  ...squareRoots,
  ...cubeRoots,
  ...estimateRoots,
  ...nonNegative,
  ...quadrant,
  ...axisDistances,
  ...onAxis,
  ...translateCoords,
  ...triangleArea,
  ...pairCheck,
  ...solveSystem,
  ...systemWord,
  ...threeVariables,
  ...inequalityProperty,
  ...solveInequality,
  ...integerSolutions,
  ...inequalitySystem,
  ...inequalityWord,
  ...sampleSize,
  ...pieAngle,
  ...estimateTotal,
];
