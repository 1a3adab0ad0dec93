/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed } from '../types.js';
import { BLANK, SLOT, choice, fmt, generate, int, m, pick, r, type Draft, type Rng } from './kit.js';

// 人教版 物理 八年级上册: calculation and reading items with varied numbers; answers computed, analyses
// written the way a teacher explains them (formula, substitution with units, answer).

const gen = (name: string, count: number, make: (rng: Rng, i: number) => Draft) =>
  generate('物理', 'p8a', name, count, make);

const speed = gen('speed', 10, (rng, i) => {
  const vehicles = [
    { who: '一辆汽车', v: [54, 108] },
    { who: '一列动车', v: [180, 288] },
    { who: '一名骑行的同学', v: [14, 22] },
    { who: '一艘轮船', v: [18, 36] },
  ] as const;
  const veh = vehicles[i % vehicles.length]!;
  // Speeds in km/h that are whole numbers in m/s: multiples of 3.6.
  const ms = int(rng, Math.ceil(veh.v[0] / 3.6), Math.floor(veh.v[1] / 3.6));
  const kmh = fmt(ms * 3.6);
  const t = int(rng, 2, 12) * 10;
  const s = ms * t;
  return {
    sectionKey: 'p8a-1-3',
    type: '计算题',
    difficulty: 2,
    stem: `<p>${veh.who}以 ${kmh} km/h 的速度匀速行驶了 ${t} s，它通过的路程是多少米？</p>`,
    answer: `<p>${s} m</p>`,
    analysis: `<p>先统一单位：${m(r`${kmh}\ \text{km/h}=${kmh}\times\frac{1}{3.6}\ \text{m/s}=${ms}\ \text{m/s}`)}。<br>由 ${m(r`v=\frac{s}{t}`)} 得 ${m(
      r`s=vt=${ms}\ \text{m/s}\times${t}\ \text{s}=${s}\ \text{m}`,
    )}。</p>`,
    knowledgeKeys: ['k-p-motion-speed'],
  };
});

const averageSpeed = gen('average', 6, (rng) => {
  const s1 = int(rng, 2, 9) * 100;
  const t1 = pick(rng, [50, 100, 200]);
  const s2 = int(rng, 2, 9) * 100;
  const t2 = pick(rng, [50, 100, 150, 300]);
  const avg = (s1 + s2) / (t1 + t2);
  const naive = (s1 / t1 + s2 / t2) / 2;
  if (Math.abs(avg - naive) < 0.01 || !Number.isInteger(avg * 100)) return averageFallback(rng);
  return {
    sectionKey: 'p8a-1-4',
    type: '计算题',
    difficulty: 3,
    stem: `<p>小明骑自行车上学，前一段路程 ${s1} m 用时 ${t1} s，后一段路程 ${s2} m 用时 ${t2} s。他全程的平均速度是多少？</p>`,
    answer: `<p>${fmt(avg)} m/s</p>`,
    analysis: `<p>平均速度等于总路程除以总时间，不能用两段速度的平均值计算。<br>${m(
      r`v=\frac{s_{1}+s_{2}}{t_{1}+t_{2}}=\frac{${s1}\ \text{m}+${s2}\ \text{m}}{${t1}\ \text{s}+${t2}\ \text{s}}=${fmt(avg)}\ \text{m/s}`,
    )}。</p>`,
    knowledgeKeys: ['k-p-motion-avg'],
  };
});

function averageFallback(rng: Rng): Draft {
  const t = int(rng, 2, 6) * 10;
  const v = int(rng, 2, 8);
  return {
    sectionKey: 'p8a-1-4',
    type: '填空题',
    difficulty: 1,
    stem: `<p>一个小球在 ${t} s 内滚过了 ${v * t} m，它在这段时间内的平均速度是${BLANK}m/s。</p>`,
    answer: String(v),
    analysis: `<p>${m(r`v=\frac{s}{t}=\frac{${v * t}\ \text{m}}{${t}\ \text{s}}=${v}\ \text{m/s}`)}。</p>`,
    knowledgeKeys: ['k-p-motion-avg'],
  };
}

const echo = gen('echo', 6, (rng, i) => {
  const t = int(rng, 2, 12) / 2;
  const d = (340 * t) / 2;
  const where = ['对着远处的山崖大喊一声', '在峡谷中拍手', '对着一堵高墙喊话'][i % 3];
  return {
    sectionKey: 'p8a-2-3',
    type: '计算题',
    difficulty: 2,
    stem: `<p>某同学${where}，经过 ${fmt(t)} s 听到回声。若声音在空气中的传播速度为 340 m/s，他与反射面之间的距离是多少？</p>`,
    answer: `<p>${fmt(d)} m</p>`,
    analysis: `<p>回声是声音传到反射面后再返回，声音通过的路程是距离的 2 倍。<br>${m(r`s=vt=340\ \text{m/s}\times${fmt(t)}\ \text{s}=${fmt(2 * d)}\ \text{m}`)}，<br>距离 ${m(
      r`d=\frac{s}{2}=${fmt(d)}\ \text{m}`,
    )}。</p>`,
    knowledgeKeys: ['k-p-sound-use', 'k-p-sound-source'],
  };
});

const UNIT_STEPS = [
  { from: 'km', to: 'm', k: 1000 },
  { from: 'm', to: 'cm', k: 100 },
  { from: 'cm', to: 'mm', k: 10 },
  { from: 'mm', to: 'μm', k: 1000 },
  { from: 'μm', to: 'nm', k: 1000 },
  { from: 'h', to: 'min', k: 60 },
  { from: 'min', to: 's', k: 60 },
] as const;

const unitConversion = gen('units', 6, (rng) => {
  const step = pick(rng, UNIT_STEPS);
  const value = int(rng, 2, 95) / (rng() < 0.5 ? 10 : 1);
  return {
    sectionKey: 'p8a-1-1',
    type: '填空题',
    difficulty: 1,
    stem: `<p>单位换算：${fmt(value)} ${step.from}＝${BLANK}${step.to}。</p>`,
    answer: fmt(value * step.k),
    analysis: `<p>${m(r`1\ \text{${step.from}}=${step.k}\ \text{${step.to}}`)}，所以 ${fmt(value)} ${step.from}＝${fmt(value)}×${step.k} ${step.to}＝${fmt(value * step.k)} ${step.to}。</p>`,
    knowledgeKeys: ['k-p-motion-measure'],
  };
});

const mirror = gen('mirror', 6, (rng) => {
  const d = int(rng, 12, 30) / 10;
  const step = int(rng, 2, 8) / 10;
  const after = d - step;
  return {
    sectionKey: 'p8a-4-3',
    type: '填空题',
    difficulty: 2,
    stem: `<p>小红站在竖直放置的平面镜前 ${fmt(d)} m 处，她的像到镜面的距离是${BLANK}m；她向镜面走近 ${fmt(step)} m 后，像与她之间的距离是${BLANK}m，像的大小${BLANK}（选填“变大”“变小”或“不变”）。</p>`,
    answer: `${fmt(d)}；${fmt(2 * after)}；不变`,
    analysis: `<p>平面镜成像时，像与物到镜面的距离相等，像与物大小相等。<br>像到镜面的距离为 ${fmt(d)} m；走近 ${fmt(step)} m 后她到镜面 ${fmt(after)} m，像到镜面也是 ${fmt(after)} m，像与她相距 ${fmt(
      2 * after,
    )} m；像的大小只与物体大小有关，所以不变。</p>`,
    knowledgeKeys: ['k-p-light-mirror'],
  };
});

const reflection = gen('reflection', 6, (rng) => {
  const withMirror = int(rng, 10, 80);
  const incidence = 90 - withMirror;
  return {
    sectionKey: 'p8a-4-2',
    type: '填空题',
    difficulty: 2,
    stem: `<p>一束光与平面镜的夹角为 ${withMirror}°，则入射角为${BLANK}°，反射光线与入射光线的夹角为${BLANK}°。</p>`,
    answer: `${incidence}；${2 * incidence}`,
    analysis: `<p>入射角是入射光线与法线的夹角，法线垂直于镜面，所以入射角 ${m(r`=90^{\circ}-${withMirror}^{\circ}=${incidence}^{\circ}`)}。<br>由光的反射定律，反射角等于入射角，反射光线与入射光线的夹角为 ${m(
      r`2\times${incidence}^{\circ}=${2 * incidence}^{\circ}`,
    )}。</p>`,
    knowledgeKeys: ['k-p-light-reflect'],
  };
});

const MATERIALS = [
  { name: '铝', rho: 2.7 },
  { name: '铁', rho: 7.9 },
  { name: '铜', rho: 8.9 },
  { name: '铅', rho: 11.3 },
  { name: '冰', rho: 0.9 },
] as const;

const density = gen('density', 8, (rng) => {
  const mat = pick(rng, MATERIALS);
  const v = int(rng, 2, 40) * 5;
  const mass = Math.round(mat.rho * v * 10) / 10;
  const { options, answer } = choice(
    rng,
    mat.name,
    MATERIALS.filter((x) => x.name !== mat.name).map((x) => x.name),
  );
  return {
    sectionKey: 'p8a-6-2',
    type: '单选题',
    difficulty: 2,
    stem: `<p>一个实心金属块的质量为 ${fmt(mass)} g，体积为 ${v} cm³。查密度表可知，它可能是${SLOT}（${MATERIALS.map((x) => `${x.name} ${x.rho} g/cm³`).join('，')}）</p>`,
    options,
    answer,
    analysis: `<p>${m(r`\rho=\frac{m}{V}=\frac{${fmt(mass)}\ \text{g}}{${v}\ \text{cm}^{3}}=${fmt(mat.rho)}\ \text{g/cm}^{3}`)}，与${mat.name}的密度相同，所以它可能是${mat.name}。密度是物质的一种特性，可以用来鉴别物质。</p>`,
    knowledgeKeys: ['k-p-density-concept', 'k-p-density-app'],
  };
});

const densityCalc = gen('density-calc', 6, (rng) => {
  const liquids = [
    { name: '水', rho: 1.0 },
    { name: '酒精', rho: 0.8 },
    { name: '食用油', rho: 0.9 },
  ] as const;
  const liquid = pick(rng, liquids);
  const volume = int(rng, 2, 30) * 50;
  const mass = Math.round(liquid.rho * volume);
  return {
    sectionKey: 'p8a-6-2',
    type: '计算题',
    difficulty: 3,
    stem: `<p>一个容积为 ${volume} mL 的瓶子装满${liquid.name}（${m(r`\rho_{${liquid.name}}=${fmt(liquid.rho)}\times10^{3}\ \text{kg/m}^{3}`)}），瓶中${liquid.name}的质量是多少克？</p>`,
    answer: `<p>${mass} g</p>`,
    analysis: `<p>${m(r`V=${volume}\ \text{mL}=${volume}\ \text{cm}^{3}`)}，${m(r`\rho=${fmt(liquid.rho)}\times10^{3}\ \text{kg/m}^{3}=${fmt(liquid.rho)}\ \text{g/cm}^{3}`)}。<br>由 ${m(
      r`\rho=\frac{m}{V}`,
    )} 得 ${m(r`m=\rho V=${fmt(liquid.rho)}\ \text{g/cm}^{3}\times${volume}\ \text{cm}^{3}=${mass}\ \text{g}`)}。</p>`,
    knowledgeKeys: ['k-p-density-concept'],
  };
});

const lens = gen('lens', 8, (rng) => {
  const f = pick(rng, [5, 8, 10, 12, 15]);
  const zone = pick(rng, ['far', 'between', 'inside'] as const);
  const u =
    zone === 'far'
      ? int(rng, 2 * f + 2, 4 * f)
      : zone === 'between'
        ? int(rng, f + 1, 2 * f - 1)
        : int(rng, 1, f - 1);
  const images = {
    far: '倒立、缩小的实像',
    between: '倒立、放大的实像',
    inside: '正立、放大的虚像',
  } as const;
  const uses = { far: '照相机', between: '投影仪', inside: '放大镜' } as const;
  const { options, answer } = choice(rng, images[zone], [
    '倒立、缩小的实像',
    '倒立、放大的实像',
    '正立、放大的虚像',
    '正立、缩小的实像',
  ]);
  return {
    sectionKey: 'p8a-5-3',
    type: '单选题',
    difficulty: zone === 'between' ? 3 : 2,
    stem: `<p>某凸透镜的焦距为 ${f} cm，将一支蜡烛放在透镜前 ${u} cm 处，在透镜另一侧可以看到或承接到的是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>${
      zone === 'far'
        ? `物距 ${m(r`u=${u}\ \text{cm}\gt 2f=${2 * f}\ \text{cm}`)}`
        : zone === 'between'
          ? `物距 ${m(r`f\lt u=${u}\ \text{cm}\lt 2f=${2 * f}\ \text{cm}`)}`
          : `物距 ${m(r`u=${u}\ \text{cm}\lt f=${f}\ \text{cm}`)}`
    }，成${images[zone]}，${uses[zone]}就是利用这个规律制成的。</p>`,
    knowledgeKeys: ['k-p-lens-image'],
  };
});

const soundDistance = gen('sound-speed', 4, (rng) => {
  const t = int(rng, 2, 9);
  const s = 340 * t;
  return {
    sectionKey: 'p8a-2-1',
    type: '填空题',
    difficulty: 1,
    stem: `<p>看到闪电后经过 ${t} s 听到雷声，打雷处距离观察者约${BLANK}m（声音在空气中的速度取 340 m/s，光传播的时间忽略不计）。</p>`,
    answer: String(s),
    analysis: `<p>光速远大于声速，光传到人眼的时间可以忽略。${m(r`s=vt=340\ \text{m/s}\times${t}\ \text{s}=${s}\ \text{m}`)}。</p>`,
    knowledgeKeys: ['k-p-sound-source'],
  };
});

export const PHYSICS_GENERATED: QuestionSeed[] = [
  ...speed,
  ...averageSpeed,
  ...echo,
  ...unitConversion,
  ...mirror,
  ...reflection,
  ...density,
  ...densityCalc,
  ...lens,
  ...soundDistance,
];
