/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed } from '../types.js';
import { BLANK, SLOT, choice, generate, shuffle, type Draft, type Rng } from './kit.js';

// 统编版 语文 七年级上册: items built from facts about the lessons — readings of words the lessons use,
// authors of the texts, and lines of the classical poems and prose the students recite.

const gen = (name: string, count: number, make: (rng: Rng, i: number) => Draft) =>
  generate('语文', 'c7a', name, count, make);

/** Words of the lessons with their reading and readings students commonly confuse them with. */
const READINGS: {
  word: string;
  right: string;
  wrong: [string, string, string];
  section: string;
  note: string;
}[] = [
  {
    word: '确凿',
    right: 'què záo',
    wrong: ['què zuò', 'què zhuó', 'què zāo'],
    section: 'c7a-3-1',
    note: '“凿”在“确凿”中读 záo，意为确实',
  },
  {
    word: '菜畦',
    right: 'cài qí',
    wrong: ['cài wā', 'cài guī', 'cài qī'],
    section: 'c7a-3-1',
    note: '“畦”读 qí，指有土埂围着的一块块整齐的田地',
  },
  {
    word: '桑葚',
    right: 'sāng shèn',
    wrong: ['sāng rèn', 'sāng shén', 'sāng zhēn'],
    section: 'c7a-3-1',
    note: '“葚”读 shèn',
  },
  {
    word: '憔悴',
    right: 'qiáo cuì',
    wrong: ['qiáo zuì', 'jiāo cuì', 'qiáo suì'],
    section: 'c7a-2-1',
    note: '“悴”读 cuì，不要受“醉”的影响读成 zuì',
  },
  {
    word: '诀别',
    right: 'jué bié',
    wrong: ['juè bié', 'guài bié', 'jué biè'],
    section: 'c7a-2-1',
    note: '“诀”读 jué，诀别指不再相见的分别',
  },
  {
    word: '贮蓄',
    right: 'zhù xù',
    wrong: ['chǔ xù', 'zhù chù', 'zhǔ xù'],
    section: 'c7a-1-2',
    note: '“贮”读 zhù，意为储存',
  },
  {
    word: '嫩芽',
    right: 'nèn yá',
    wrong: ['lèn yá', 'nùn yá', 'nèn yā'],
    section: 'c7a-1-1',
    note: '“嫩”的声母是 n，韵母是 en',
  },
  {
    word: '收敛',
    right: 'shōu liǎn',
    wrong: ['shōu liàn', 'shōu jiǎn', 'shōu lián'],
    section: 'c7a-2-1',
    note: '“敛”读第三声 liǎn',
  },
  {
    word: '尴尬',
    right: 'gān gà',
    wrong: ['jiān gà', 'gān gā', 'gàn gà'],
    section: 'c7a-4-3',
    note: '“尴”读 gān，“尬”读 gà',
  },
  {
    word: '沮丧',
    right: 'jǔ sàng',
    wrong: ['zǔ sàng', 'jǔ sāng', 'jū sàng'],
    section: 'c7a-4-3',
    note: '“沮”读 jǔ；“丧”在“沮丧”中读第四声',
  },
  {
    word: '怂恿',
    right: 'sǒng yǒng',
    wrong: ['cóng yǒng', 'sǒng yōng', 'sōng yǒng'],
    section: 'c7a-4-3',
    note: '“怂”读 sǒng，“恿”读 yǒng，都是第三声',
  },
  {
    word: '纳罕',
    right: 'nà hǎn',
    wrong: ['nà hàn', 'nà gǎn', 'nà hán'],
    section: 'c7a-5-1',
    note: '“罕”读 hǎn，纳罕意为诧异',
  },
  {
    word: '惩戒',
    right: 'chéng jiè',
    wrong: ['chěng jiè', 'zhēng jiè', 'chéng jiě'],
    section: 'c7a-5-1',
    note: '“惩”读第二声 chéng',
  },
  {
    word: '嗔怪',
    right: 'chēn guài',
    wrong: ['zhēn guài', 'chēng guài', 'chèn guài'],
    section: 'c7a-6-3',
    note: '“嗔”读 chēn，是前鼻音',
  },
  {
    word: '炽热',
    right: 'chì rè',
    wrong: ['zhì rè', 'chí rè', 'zhī rè'],
    section: 'c7a-3-2',
    note: '“炽”读 chì，是翘舌音',
  },
  {
    word: '缥缈',
    right: 'piāo miǎo',
    wrong: ['piǎo miǎo', 'biāo miǎo', 'piāo miáo'],
    section: 'c7a-6-2',
    note: '“缥”读 piāo，“缈”读 miǎo',
  },
  {
    word: '窘迫',
    right: 'jiǒng pò',
    wrong: ['jūn pò', 'jiǒng pǎi', 'jiōng pò'],
    section: 'c7a-5-3',
    note: '“窘”读 jiǒng，“迫”在这里读 pò',
  },
  {
    word: '苫蔽',
    right: 'shàn bì',
    wrong: ['zhān bì', 'shān bì', 'kǔ bì'],
    section: 'c7a-5-3',
    note: '“苫”作动词“遮盖”讲时读 shàn',
  },
  {
    word: '酝酿',
    right: 'yùn niàng',
    wrong: ['yùn rǎng', 'wēn niàng', 'yùn niáng'],
    section: 'c7a-1-1',
    note: '“酿”读 niàng，不要读成 rǎng',
  },
  {
    word: '恍然大悟',
    right: 'huǎng rán dà wù',
    wrong: ['guāng rán dà wù', 'huàng rán dà wù', 'huǎng rán dà wǔ'],
    section: 'c7a-3-2',
    note: '“恍”读第三声 huǎng',
  },
];

const readings = gen('reading', 16, (rng, i) => {
  const x = READINGS[i % READINGS.length]!;
  const { options, answer } = choice(rng, x.right, [...x.wrong]);
  return {
    sectionKey: x.section,
    type: '单选题',
    difficulty: 1,
    stem: `<p>“${x.word}”一词的正确读音是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>${x.note}，所以“${x.word}”读作 ${x.right}。</p>`,
    knowledgeKeys: ['k-c-pinyin'],
  };
});

/** Texts of the volume: section, title, author and how the author is introduced. */
const TEXTS: { section: string; title: string; author: string; about: string }[] = [
  { section: 'c7a-1-1', title: '春', author: '朱自清', about: '朱自清，字佩弦，现代散文家、诗人、学者' },
  { section: 'c7a-1-2', title: '济南的冬天', author: '老舍', about: '老舍，原名舒庆春，字舍予，现代作家' },
  { section: 'c7a-1-3', title: '雨的四季', author: '刘湛秋', about: '刘湛秋，当代诗人、散文家' },
  { section: 'c7a-1-4', title: '观沧海', author: '曹操', about: '曹操，东汉末年政治家、军事家、诗人' },
  { section: 'c7a-1-4', title: '次北固山下', author: '王湾', about: '王湾，唐代诗人' },
  { section: 'c7a-1-4', title: '天净沙·秋思', author: '马致远', about: '马致远，元代戏曲作家、散曲家' },
  { section: 'c7a-2-1', title: '秋天的怀念', author: '史铁生', about: '史铁生，当代作家' },
  { section: 'c7a-2-2', title: '散步', author: '莫怀戚', about: '莫怀戚，当代作家' },
  { section: 'c7a-2-3', title: '金色花', author: '泰戈尔', about: '泰戈尔，印度诗人、作家' },
  { section: 'c7a-2-3', title: '荷叶·母亲', author: '冰心', about: '冰心，原名谢婉莹，现代作家、诗人' },
  {
    section: 'c7a-3-1',
    title: '从百草园到三味书屋',
    author: '鲁迅',
    about: '鲁迅，原名周树人，现代文学家、思想家，本文选自散文集《朝花夕拾》',
  },
  {
    section: 'c7a-4-1',
    title: '纪念白求恩',
    author: '毛泽东',
    about: '本文是毛泽东为纪念加拿大共产党员、医生白求恩而写的文章',
  },
  {
    section: 'c7a-4-4',
    title: '诫子书',
    author: '诸葛亮',
    about: '诸葛亮，字孔明，三国时期蜀汉政治家、军事家',
  },
  { section: 'c7a-5-1', title: '猫', author: '郑振铎', about: '郑振铎，现代作家、学者' },
  { section: 'c7a-5-3', title: '狼', author: '蒲松龄', about: '蒲松龄，清代文学家，本文选自《聊斋志异》' },
  { section: 'c7a-6-1', title: '皇帝的新装', author: '安徒生', about: '安徒生，丹麦童话作家' },
  { section: 'c7a-6-2', title: '天上的街市', author: '郭沫若', about: '郭沫若，现代诗人、剧作家、学者' },
  { section: 'c7a-6-3', title: '女娲造人', author: '袁珂', about: '本文是袁珂根据古代神话传说改写的' },
];

const authors = gen('author', 14, (rng, i) => {
  const x = TEXTS[i % TEXTS.length]!;
  const others = shuffle(
    rng,
    TEXTS.filter((t) => t.author !== x.author).map((t) => t.author),
  );
  const { options, answer } = choice(rng, x.author, others);
  return {
    sectionKey: x.section,
    type: '单选题',
    difficulty: 1,
    stem: `<p>《${x.title}》的作者是${SLOT}</p>`,
    options,
    answer,
    analysis: `<p>《${x.title}》的作者是${x.author}。${x.about}。</p>`,
    knowledgeKeys: ['k-c-literature'],
  };
});

/** Couplets to recite: the line given, the line asked, and where it comes from. */
const LINES: { section: string; source: string; given: string; asked: string; givenFirst: boolean }[] = [
  { section: 'c7a-1-4', source: '曹操《观沧海》', given: '东临碣石', asked: '以观沧海', givenFirst: true },
  { section: 'c7a-1-4', source: '曹操《观沧海》', given: '水何澹澹', asked: '山岛竦峙', givenFirst: true },
  { section: 'c7a-1-4', source: '曹操《观沧海》', given: '秋风萧瑟', asked: '洪波涌起', givenFirst: true },
  {
    section: 'c7a-1-4',
    source: '王湾《次北固山下》',
    given: '潮平两岸阔',
    asked: '风正一帆悬',
    givenFirst: true,
  },
  {
    section: 'c7a-1-4',
    source: '王湾《次北固山下》',
    given: '江春入旧年',
    asked: '海日生残夜',
    givenFirst: false,
  },
  {
    section: 'c7a-1-4',
    source: '王湾《次北固山下》',
    given: '乡书何处达',
    asked: '归雁洛阳边',
    givenFirst: true,
  },
  {
    section: 'c7a-1-4',
    source: '马致远《天净沙·秋思》',
    given: '断肠人在天涯',
    asked: '夕阳西下',
    givenFirst: false,
  },
  { section: 'c7a-3-3', source: '《论语》', given: '温故而知新', asked: '可以为师矣', givenFirst: true },
  { section: 'c7a-3-3', source: '《论语》', given: '学而不思则罔', asked: '思而不学则殆', givenFirst: true },
  {
    section: 'c7a-3-3',
    source: '《论语》',
    given: '择其善者而从之',
    asked: '其不善者而改之',
    givenFirst: true,
  },
  { section: 'c7a-3-3', source: '《论语》', given: '然后知松柏之后凋也', asked: '岁寒', givenFirst: false },
  {
    section: 'c7a-4-4',
    source: '诸葛亮《诫子书》',
    given: '非淡泊无以明志',
    asked: '非宁静无以致远',
    givenFirst: true,
  },
  { section: 'c7a-4-4', source: '诸葛亮《诫子书》', given: '静以修身', asked: '俭以养德', givenFirst: true },
  {
    section: 'c7a-4-4',
    source: '诸葛亮《诫子书》',
    given: '非学无以广才',
    asked: '非志无以成学',
    givenFirst: true,
  },
];

const recite = gen('recite', 14, (rng, i) => {
  const x = LINES[i % LINES.length]!;
  void rng;
  const stem = x.givenFirst ? `${x.given}，${BLANK}。` : `${BLANK}，${x.given}。`;
  return {
    sectionKey: x.section,
    type: '填空题',
    difficulty: i % 3 === 0 ? 2 : 1,
    stem: `<p>古诗文默写：${stem}（${x.source}）</p>`,
    answer: x.asked,
    analysis: `<p>本句出自${x.source}，原句为“${x.givenFirst ? `${x.given}，${x.asked}` : `${x.asked}，${x.given}`}”。默写时要注意字形，不写错别字。</p>`,
    knowledgeKeys: ['k-c-recite'],
  };
});

/** Sentences with a named figure of speech, written for this bank. */
const FIGURES: { sentence: string; figure: string; why: string; section: string }[] = [
  {
    sentence: '操场边的银杏树像一把把金色的大伞，为我们遮住了秋日的阳光。',
    figure: '比喻',
    why: '把银杏树比作金色的大伞，写出了树冠的形状和颜色',
    section: 'c7a-1-1',
  },
  {
    sentence: '春风轻轻地抚摸着孩子们的脸庞。',
    figure: '拟人',
    why: '“抚摸”是人的动作，赋予春风人的情态，写出了春风的温柔',
    section: 'c7a-1-1',
  },
  {
    sentence: '我们爱读书，我们爱思考，我们爱这间小小的教室。',
    figure: '排比',
    why: '三个结构相同的“我们爱……”连用，增强了语势',
    section: 'c7a-2-2',
  },
  {
    sentence: '难道我们能眼看着同学遇到困难而袖手旁观吗？',
    figure: '反问',
    why: '用疑问的形式表达肯定的意思，语气更加强烈',
    section: 'c7a-4-1',
  },
  {
    sentence: '他的嗓门大得能把屋顶掀翻。',
    figure: '夸张',
    why: '故意夸大嗓门之大，给人深刻的印象',
    section: 'c7a-5-2',
  },
  {
    sentence: '小溪唱着欢快的歌，一路奔向远方。',
    figure: '拟人',
    why: '“唱着歌”“奔向”赋予小溪人的行为，写出了溪水的欢快',
    section: 'c7a-1-3',
  },
  {
    sentence: '远处的山峦如同一幅淡淡的水墨画。',
    figure: '比喻',
    why: '把山峦比作水墨画，写出了山色朦胧、淡雅的特点',
    section: 'c7a-1-2',
  },
];

const figures = gen('figure', 7, (rng, i) => {
  const x = FIGURES[i % FIGURES.length]!;
  const { options, answer } = choice(
    rng,
    x.figure,
    ['比喻', '拟人', '排比', '反问', '夸张', '设问'].filter((f) => f !== x.figure),
  );
  return {
    sectionKey: x.section,
    type: '单选题',
    difficulty: x.figure === '反问' || x.figure === '夸张' ? 2 : 1,
    stem: `<p>下面句子运用的修辞手法是${SLOT}</p><p>${x.sentence}</p>`,
    options,
    answer,
    analysis: `<p>句子${x.why}，运用了${x.figure}的修辞手法。</p>`,
    knowledgeKeys: ['k-c-rhetoric'],
  };
});

export const CHINESE_GENERATED: QuestionSeed[] = [...readings, ...authors, ...recite, ...figures];
