import type { ChapterSeed, SectionSeed, TextbookSeed } from './types.js';

/** Sections keyed `${chapterKey}-${i + 1}`, names given in full. */
function numbered(key: string, name: string, sections: string[]): ChapterSeed {
  return { key, name, sections: sections.map((s, i): SectionSeed => ({ key: `${key}-${i + 1}`, name: s })) };
}

/** An English unit with its two sections, keyed `${chapterKey}-a` and `${chapterKey}-b`. */
function unit(key: string, name: string): ChapterSeed {
  return {
    key,
    name,
    sections: [
      { key: `${key}-a`, name: 'Section A' },
      { key: `${key}-b`, name: 'Section B' },
    ],
  };
}

/** A physics chapter whose sections are numbered `${no}.${i + 1}`. */
function physics(no: number, cn: string, title: string, sections: string[]): ChapterSeed {
  const key = `p8a-${no}`;
  return {
    key,
    name: `第${cn}章 ${title}`,
    sections: sections.map((s, i) => ({ key: `${key}-${i + 1}`, name: `${no}.${i + 1} ${s}` })),
  };
}

export const OTHER_TEXTBOOKS: TextbookSeed[] = [
  {
    // 统编版 (部编版) 七年级上册, the lesson order of the 2016 edition as revised in later printings.
    key: 'c7a',
    subject: '语文',
    publisher: '统编版',
    name: '七年级上册',
    chapters: [
      numbered('c7a-1', '第一单元', ['1 春', '2 济南的冬天', '3 雨的四季', '4 古代诗歌四首']),
      numbered('c7a-2', '第二单元', ['5 秋天的怀念', '6 散步', '7 散文诗二首', '8 《世说新语》二则']),
      numbered('c7a-3', '第三单元', ['9 从百草园到三味书屋', '10 再塑生命的人', '11 《论语》十二章']),
      numbered('c7a-4', '第四单元', ['12 纪念白求恩', '13 植树的牧羊人', '14 走一步，再走一步', '15 诫子书']),
      numbered('c7a-5', '第五单元', ['16 猫', '17 动物笑谈', '18 狼']),
      numbered('c7a-6', '第六单元', ['19 皇帝的新装', '20 天上的街市', '21 女娲造人', '22 寓言四则']),
    ],
  },
  {
    // 人教版 (2024 edition) 英语 七年级上册: three starter units, then seven units.
    key: 'e7a',
    subject: '英语',
    publisher: '人教版',
    name: '七年级上册',
    chapters: [
      unit('e7a-s1', 'Starter Unit 1 Hello!'),
      unit('e7a-s2', 'Starter Unit 2 Keep Tidy!'),
      unit('e7a-s3', 'Starter Unit 3 Welcome!'),
      unit('e7a-1', 'Unit 1 You and Me'),
      unit('e7a-2', "Unit 2 We're Family!"),
      unit('e7a-3', 'Unit 3 My School'),
      unit('e7a-4', 'Unit 4 My Favourite Subject'),
      unit('e7a-5', 'Unit 5 Fun Clubs'),
      unit('e7a-6', 'Unit 6 A Day in the Life'),
      unit('e7a-7', 'Unit 7 Happy Birthday!'),
    ],
  },
  {
    // 人教版 (2024 edition) 物理 八年级上册.
    key: 'p8a',
    subject: '物理',
    publisher: '人教版',
    name: '八年级上册',
    chapters: [
      physics(1, '一', '机械运动', ['长度和时间的测量', '运动的描述', '运动的快慢', '速度的测量']),
      physics(2, '二', '声现象', ['声音的产生与传播', '声音的特性', '声的利用', '噪声的危害和控制']),
      physics(3, '三', '物态变化', ['温度', '熔化和凝固', '汽化和液化', '升华和凝华']),
      physics(4, '四', '光现象', ['光的直线传播', '光的反射', '平面镜成像', '光的折射', '光的色散']),
      physics(5, '五', '透镜及其应用', [
        '透镜',
        '生活中的透镜',
        '凸透镜成像的规律',
        '眼睛和眼镜',
        '显微镜和望远镜',
      ]),
      physics(6, '六', '质量与密度', ['质量', '密度', '测量液体和固体的密度', '密度的应用']),
    ],
  },
];
