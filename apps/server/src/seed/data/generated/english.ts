import type { QuestionSeed } from '../types.js';
import { choice, generate, pick, type Draft, type Rng } from './kit.js';

// 人教版 英语 七年级上册 (2024): grammar and vocabulary choice items built from sentence patterns of the units,
// with the analysis in Chinese as teachers give it.

const gen = (name: string, count: number, make: (rng: Rng, i: number) => Draft) =>
  generate('英语', 'e7a', name, count, make);

const GAP = '______';

function single(
  sectionKey: string,
  stem: string,
  correct: string,
  distractors: string[],
  rng: Rng,
  analysis: string,
  knowledgeKeys: string[],
  difficulty: 1 | 2 | 3 = 1,
): Draft {
  const { options, answer } = choice(rng, correct, distractors);
  return {
    sectionKey,
    type: '单选题',
    difficulty,
    stem: `<p>${stem}</p>`,
    options,
    answer,
    analysis: `<p>${analysis}</p>`,
    knowledgeKeys,
  };
}

const SUBJECTS_BE = [
  { s: 'I', be: 'am', note: '主语是 I，be 动词用 am' },
  { s: 'My sister', be: 'is', note: '主语 my sister 是第三人称单数，be 动词用 is' },
  { s: 'Tom and Peter', be: 'are', note: '主语 Tom and Peter 是复数，be 动词用 are' },
  { s: 'You', be: 'are', note: '主语是 you，be 动词用 are' },
  { s: 'Our English teacher', be: 'is', note: '主语 our English teacher 是第三人称单数，be 动词用 is' },
  { s: 'These books', be: 'are', note: '主语 these books 是复数，be 动词用 are' },
  { s: 'The cat', be: 'is', note: '主语 the cat 是第三人称单数，be 动词用 is' },
  { s: 'My parents', be: 'are', note: '主语 my parents 是复数，be 动词用 are' },
] as const;
const PLACES = [
  'at home',
  'in the classroom',
  'in Class 3',
  'from Beijing',
  'twelve years old',
  'in the library',
];

const beVerb = gen('be', 8, (rng, i) => {
  const x = SUBJECTS_BE[i % SUBJECTS_BE.length]!;
  const place = pick(rng, PLACES);
  const stem = `${x.s} ${GAP} ${place}.`;
  return single(
    'e7a-1-a',
    stem,
    x.be,
    ['am', 'is', 'are', 'be'],
    rng,
    `${x.note}。be 动词的用法：I 用 am，you 和复数用 are，第三人称单数用 is。`,
    ['k-e-be'],
  );
});

const PLURALS = [
  { one: 'box', many: 'boxes', rule: '以 x 结尾的名词加 -es' },
  { one: 'knife', many: 'knives', rule: '以 fe 结尾的名词变 fe 为 v 再加 -es' },
  { one: 'dictionary', many: 'dictionaries', rule: '以辅音字母加 y 结尾的名词变 y 为 i 再加 -es' },
  { one: 'tomato', many: 'tomatoes', rule: 'tomato 的复数加 -es' },
  { one: 'child', many: 'children', rule: 'child 的复数是不规则变化 children' },
  { one: 'watch', many: 'watches', rule: '以 ch 结尾的名词加 -es' },
  { one: 'key', many: 'keys', rule: '以元音字母加 y 结尾的名词直接加 -s' },
  { one: 'photo', many: 'photos', rule: 'photo 的复数直接加 -s' },
  { one: 'foot', many: 'feet', rule: 'foot 的复数是不规则变化 feet' },
  { one: 'bus', many: 'buses', rule: '以 s 结尾的名词加 -es' },
] as const;

const plurals = gen('plural', 8, (rng, i) => {
  const n = PLURALS[i % PLURALS.length]!;
  const number = pick(rng, ['two', 'three', 'four', 'five', 'six']);
  const wrong = [
    `${n.one}s`,
    `${n.one}es`,
    `${n.one.replace(/y$/, 'ies')}`,
    `${n.one.replace(/fe?$/, 'ves')}`,
    `${n.one}ren`,
    `${n.one}'s`,
  ];
  return single(
    'e7a-s2-a',
    `There are ${number} ${GAP} on the desk.`,
    n.many,
    wrong,
    rng,
    `${number} 后接可数名词复数。${n.rule}，所以填 ${n.many}。`,
    ['k-e-noun'],
    n.one === 'child' || n.one === 'foot' || n.one === 'knife' ? 2 : 1,
  );
});

const THERE_BE = [
  { thing: 'a big playground', be: 'is', why: '后面的名词 a big playground 是单数' },
  { thing: 'forty students', be: 'are', why: '后面的名词 forty students 是复数' },
  { thing: 'some milk', be: 'is', why: 'milk 是不可数名词，视为单数' },
  { thing: 'a pen and two rulers', be: 'is', why: 'there be 句型遵循“就近原则”，离 be 最近的 a pen 是单数' },
  {
    thing: 'two rulers and a pen',
    be: 'are',
    why: 'there be 句型遵循“就近原则”，离 be 最近的 two rulers 是复数',
  },
  { thing: 'many trees', be: 'are', why: '后面的名词 many trees 是复数' },
] as const;

const thereBe = gen('there-be', 6, (rng, i) => {
  const x = THERE_BE[i % THERE_BE.length]!;
  const where = pick(rng, ['in our school', 'in the box', 'near the library', 'in the classroom']);
  return single(
    'e7a-3-a',
    `There ${GAP} ${x.thing} ${where}.`,
    x.be,
    ['is', 'are', 'am', 'be', 'has'],
    rng,
    `there be 句型表示“某处有某物”，be 动词的单复数由后面的名词决定：${x.why}，所以用 ${x.be}。`,
    ['k-e-there-be'],
    x.thing.includes(' and ') ? 3 : 1,
  );
});

const VERBS = [
  { base: 'go', third: 'goes', tail: 'to school at 7:30' },
  { base: 'watch', third: 'watches', tail: 'TV after dinner' },
  { base: 'do', third: 'does', tail: 'homework in the evening' },
  { base: 'study', third: 'studies', tail: 'English every day' },
  { base: 'play', third: 'plays', tail: 'basketball on Sundays' },
  { base: 'have', third: 'has', tail: 'breakfast at home' },
  { base: 'brush', third: 'brushes', tail: 'her teeth at 6:40' },
  { base: 'fly', third: 'flies', tail: 'a kite in spring' },
] as const;

const presentSimple = gen('present', 8, (rng, i) => {
  const v = VERBS[i % VERBS.length]!;
  const he = pick(rng, ['My brother', 'Lucy', 'He', 'She', 'Our teacher']);
  return single(
    'e7a-6-a',
    `${he} usually ${GAP} ${v.tail}.`,
    v.third,
    [
      v.base,
      `${v.base}ing`.replace(/eing$/, 'ing'),
      `${v.base}ed`,
      `${v.base}s`.replace(/(ch|sh|o)s$/, '$1s'),
    ],
    rng,
    `usually 表示经常性的动作，用一般现在时；主语是第三人称单数，动词用三单形式。${v.base} 的三单形式是 ${v.third}。`,
    ['k-e-present'],
    v.third === 'studies' || v.third === 'flies' || v.third === 'has' ? 2 : 1,
  );
});

const TIMES = [
  { t: 'the morning', prep: 'in', why: '在上午、下午、晚上用 in' },
  { t: 'Monday', prep: 'on', why: '在具体的某一天（星期几）用 on' },
  { t: 'seven o’clock', prep: 'at', why: '在具体的钟点用 at' },
  { t: 'October', prep: 'in', why: '在某月用 in' },
  { t: 'May 4th', prep: 'on', why: '在具体的某一天（日期）用 on' },
  { t: 'night', prep: 'at', why: 'at night 是固定搭配' },
  { t: 'the afternoon of June 1st', prep: 'on', why: '在具体某一天的上午、下午或晚上用 on' },
  { t: '2025', prep: 'in', why: '在某年用 in' },
] as const;

const prepositions = gen('prep', 8, (rng, i) => {
  const x = TIMES[i % TIMES.length]!;
  const what = pick(rng, [
    'We have a music class',
    'My birthday party is',
    'The school trip starts',
    'I read books',
  ]);
  return single(
    'e7a-7-a',
    `${what} ${GAP} ${x.t}.`,
    x.prep,
    ['in', 'on', 'at', 'for', 'to'],
    rng,
    `时间介词的用法：${x.why}，所以填 ${x.prep}。`,
    ['k-e-prep'],
    x.t.includes('afternoon of') ? 3 : 1,
  );
});

const PRONOUNS = [
  {
    stem: 'This is my friend Jack. Do you know ___?',
    right: 'him',
    why: '动词 know 后用宾格，Jack 是男性，用 him',
  },
  {
    stem: 'Is this ___ eraser, Mary? — Yes, it’s mine.',
    right: 'your',
    why: '修饰名词 eraser 用形容词性物主代词；问对方用 your',
  },
  {
    stem: 'The bag isn’t mine. It’s ___.',
    right: 'hers',
    why: '句末单独使用，后面没有名词，用名词性物主代词 hers',
  },
  {
    stem: 'Ms. Wang is ___ English teacher. We all like her.',
    right: 'our',
    why: '修饰名词用形容词性物主代词；根据 We 可知是 our',
  },
  {
    stem: 'Look at the boys. ___ are playing football.',
    right: 'They',
    why: '作主语用主格；the boys 是复数，用 They',
  },
  {
    stem: 'Please give ___ the book. I want to read it.',
    right: 'me',
    why: 'give 后接间接宾语用宾格；根据 I want to read it 可知是 me',
  },
] as const;

const pronouns = gen('pronoun', 6, (rng, i) => {
  const x = PRONOUNS[i % PRONOUNS.length]!;
  const pool = [
    'him',
    'his',
    'he',
    'your',
    'yours',
    'you',
    'hers',
    'her',
    'she',
    'our',
    'ours',
    'us',
    'They',
    'Them',
    'Their',
    'me',
    'my',
    'mine',
  ];
  const family = pool.filter((w) => w !== x.right);
  const near: Record<string, string[]> = {
    him: ['he', 'his', 'himself'],
    your: ['you', 'yours', 'yourself'],
    hers: ['her', 'she', 'herself'],
    our: ['us', 'ours', 'we'],
    They: ['Them', 'Their', 'Theirs'],
    me: ['I', 'my', 'mine'],
  };
  return single(
    'e7a-2-a',
    x.stem.replace('___', GAP),
    x.right,
    [...(near[x.right] ?? []), ...family],
    rng,
    `${x.why}。`,
    ['k-e-pron'],
    2,
  );
});

const ABILITIES = [
  { act: 'swim', club: 'the swimming club' },
  { act: 'draw', club: 'the art club' },
  { act: 'play the guitar', club: 'the music club' },
  { act: 'dance', club: 'the dance club' },
  { act: 'speak English well', club: 'the English club' },
  { act: 'play chess', club: 'the chess club' },
] as const;

const canVerb = gen('can', 6, (rng, i) => {
  const x = ABILITIES[i % ABILITIES.length]!;
  const who = pick(rng, ['Lily', 'My cousin', 'He', 'She']);
  const first = x.act.split(' ')[0]!;
  const rest = x.act.slice(first.length);
  return single(
    'e7a-5-a',
    `${who} can ${GAP}${rest}, so ${who === 'He' || who === 'She' ? who.toLowerCase() : 'he'} wants to join ${x.club}.`,
    first,
    [
      `${first}s`,
      `${first}ing`.replace(/eing$/, 'ing').replace(/imming$/, 'imming'),
      `to ${first}`,
      `${first}ed`,
    ],
    rng,
    `情态动词 can 后面接动词原形，表示“能；会”，所以填 ${first}。`,
    ['k-e-can'],
  );
});

const PROGRESSIVE = [
  { base: 'read', ing: 'reading' },
  { base: 'write', ing: 'writing' },
  { base: 'run', ing: 'running' },
  { base: 'swim', ing: 'swimming' },
  { base: 'make', ing: 'making' },
  { base: 'sit', ing: 'sitting' },
] as const;

const progressive = gen('progressive', 6, (rng, i) => {
  const x = PROGRESSIVE[i % PROGRESSIVE.length]!;
  const who = pick(rng, ['Look! The children are', 'Listen! My sister is', 'Now we are', 'Look! Tom is']);
  return single(
    'e7a-6-b',
    `${who} ${GAP} now.`,
    x.ing,
    [x.base, `${x.base}s`, `${x.base}ing`, `${x.base.replace(/e$/, '')}ing`, `${x.base}ed`].filter(
      (w) => w !== x.ing,
    ),
    rng,
    `Look!/Listen!/now 提示动作正在进行，用现在进行时 be + doing。${x.base} 的现在分词是 ${x.ing}${
      x.ing.endsWith(`${x.base.slice(-1)}${x.base.slice(-1)}ing`)
        ? '（重读闭音节，双写末尾辅音字母再加 -ing）'
        : x.base.endsWith('e')
          ? '（去掉不发音的 e 再加 -ing）'
          : ''
    }。`,
    ['k-e-progressive'],
    2,
  );
});

const WH = [
  { q: '— ___ is your favourite subject? — Maths.', right: 'What', why: '答语是具体的学科，问“什么”用 What' },
  {
    q: '— ___ do you like music? — Because it’s relaxing.',
    right: 'Why',
    why: '答语用 Because 说明原因，问“为什么”用 Why',
  },
  {
    q: '— ___ is your birthday? — It’s on March 12th.',
    right: 'When',
    why: '答语是日期，问“什么时候”用 When',
  },
  {
    q: '— ___ is my pencil box? — It’s under the bed.',
    right: 'Where',
    why: '答语是位置，问“在哪里”用 Where',
  },
  { q: '— ___ is the girl in red? — She’s my cousin.', right: 'Who', why: '答语说明人物身份，问“谁”用 Who' },
  { q: '— ___ old is your grandfather? — He’s seventy.', right: 'How', why: '问年龄用 How old' },
] as const;

const whQuestions = gen('wh', 6, (rng, i) => {
  const x = WH[i % WH.length]!;
  return single(
    'e7a-4-a',
    x.q.replace('___', GAP),
    x.right,
    ['What', 'Why', 'When', 'Where', 'Who', 'How'],
    rng,
    `${x.why}。`,
    ['k-e-wh'],
  );
});

const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const ordinals = gen('ordinal', 6, (rng) => {
  const n = pick(rng, [1, 2, 3, 5, 8, 9, 12]);
  const month = MONTHS[n - 1]!;
  const cardinal = [
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
  ][n - 1]!;
  const right = ORDINALS[n - 1]!;
  return single(
    'e7a-7-b',
    `${month} is the ${GAP} month of the year.`,
    right,
    [cardinal, ORDINALS[n % 12]!, ORDINALS[(n + 10) % 12]!, `${cardinal}th`],
    rng,
    `“the + 序数词”表示顺序。${month} 是一年中的第 ${n} 个月，所以填 ${right}。${n === 1 || n === 2 || n === 3 ? '' : '注意序数词的特殊拼写，如 fifth、eighth、ninth、twelfth。'}`,
    ['k-e-num'],
    n === 5 || n === 8 || n === 9 || n === 12 ? 2 : 1,
  );
});

const GREETINGS = [
  { q: '— Good morning, Ms. Li! — ___', right: 'Good morning!', why: '对方问候“早上好”，应以同样的问候回应' },
  {
    q: '— How are you? — ___',
    right: 'I’m fine, thanks.',
    why: 'How are you? 询问身体状况，常用 I’m fine, thanks. 回答',
  },
  {
    q: '— Nice to meet you. — ___',
    right: 'Nice to meet you, too.',
    why: '初次见面互相问候，回答 Nice to meet you, too.',
  },
  {
    q: '— Thank you for your help. — ___',
    right: 'You’re welcome.',
    why: '回应别人的感谢用 You’re welcome.',
  },
] as const;

const greetings = gen('greet', 4, (rng, i) => {
  const x = GREETINGS[i % GREETINGS.length]!;
  return single(
    'e7a-s1-a',
    x.q.replace('___', GAP),
    x.right,
    ['Good morning!', 'I’m fine, thanks.', 'Nice to meet you, too.', 'You’re welcome.', 'Good night!'],
    rng,
    `${x.why}。`,
    ['k-e-greet'],
  );
});

export const ENGLISH_GENERATED: QuestionSeed[] = [
  ...beVerb,
  ...plurals,
  ...thereBe,
  ...presentSimple,
  ...prepositions,
  ...pronouns,
  ...canVerb,
  ...progressive,
  ...whQuestions,
  ...ordinals,
  ...greetings,
];
