/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed, SubjectName } from './types.js';

/** LaTeX-friendly strings: backslashes are kept as written. */
const r = String.raw;

type Draft = Omit<QuestionSeed, 'subject' | 'textbookKey'>;

const inBook = (subject: SubjectName, textbookKey: string, drafts: Draft[]): QuestionSeed[] =>
  drafts.map((d) => ({ subject, textbookKey, ...d }));

// ───────────── 语文 统编版 七年级上册 ─────────────
const CHINESE: Draft[] = [
  {
    key: 'q-c7a-1-1-01',
    sectionKey: 'c7a-1-1',
    type: '单选题',
    difficulty: 1,
    stem: '<p>下列词语中注音全部正确的一项是（　　）</p>',
    options: [
      '酝酿（yùn niàng）　应和（yìng hè）　窠巢（kē cháo）',
      '嘹亮（liáo liàng）　黄晕（huáng yūn）　抖擞（dǒu sǒu）',
      '蓑衣（shuāi yī）　花苞（huā bāo）　健壮（jiàn zhuàng）',
      '朗润（lǎng rùn）　宛转（wǎn zhuǎn）　着落（zháo luò）',
    ],
    answer: 'A',
    analysis:
      '<p>B 项“晕”应读 yùn（黄晕：昏黄的光晕）；C 项“蓑”应读 suō；D 项“着落”的“着”应读 zhuó。A 项全部正确。</p><p>多音字要结合词义判断读音，如“应和”表示声音相呼应，读 yìng hè。</p>',
    knowledgeKeys: ['k-c-pinyin'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-c7a-1-2-01',
    sectionKey: 'c7a-1-2',
    type: '单选题',
    difficulty: 2,
    stem: '<p>下列句子中，没有语病的一项是（　　）</p>',
    options: [
      '通过这次研学活动，使我们增长了见识。',
      '能否养成良好的阅读习惯，是提高语文素养的关键。',
      '秋天的济南是一个美丽的季节。',
      '同学们在老师的带领下，认真观察了校园里的各种植物。',
    ],
    answer: 'D',
    analysis:
      '<p>A 项“通过……使……”造成句子缺少主语，可删去“通过”或“使”；B 项前面“能否”是两面，后面“是提高语文素养的关键”是一面，两面对一面，应删去“能否”；C 项主宾搭配不当，“济南”不是“季节”，可改为“济南的秋天是一个美丽的季节”。D 项没有语病。</p>',
    knowledgeKeys: ['k-c-sentence'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-c7a-1-4-01',
    sectionKey: 'c7a-1-4',
    type: '填空题',
    difficulty: 1,
    stem: '<p>古诗文默写。</p><p>（1）《观沧海》中想象大海吞吐日月星辰的句子是：“＿＿＿＿，若出其中；＿＿＿＿，若出其里。”<br>（2）《次北固山下》中描写时序交替、蕴含新事物孕育于旧事物之中的哲理的句子是：“＿＿＿＿，＿＿＿＿。”<br>（3）《天净沙·秋思》中直接抒发游子思乡之情的句子是：“＿＿＿＿，＿＿＿＿。”</p>',
    answer: '（1）日月之行；星汉灿烂<br>（2）海日生残夜，江春入旧年<br>（3）夕阳西下，断肠人在天涯',
    analysis:
      '<p>默写要准确理解句意，避免错别字。注意“灿烂”“残夜”“断肠”等字的写法。（2）句写残夜未尽海日已升、旧年未过江上已有春意，写出了时序的交替，常被引用来说明新旧交替的道理。</p>',
    knowledgeKeys: ['k-c-recite'],
    year: 2023,
    source: '原创',
  },
  {
    key: 'q-c7a-1-4-02',
    sectionKey: 'c7a-1-4',
    type: '阅读理解',
    difficulty: 3,
    stem: '<p>阅读元代马致远的《天净沙·秋思》，完成下面的题目。</p><p>枯藤老树昏鸦，小桥流水人家，古道西风瘦马。夕阳西下，断肠人在天涯。</p><p>（1）前三句一共选取了哪些意象？营造了怎样的氛围？<br>（2）“小桥流水人家”与其他意象的色调有什么不同？这样写有什么作用？<br>（3）“断肠人在天涯”表达了作者怎样的思想感情？</p>',
    answer:
      '<p>（1）枯藤、老树、昏鸦、小桥、流水、人家、古道、西风、瘦马九个意象，营造了萧瑟、凄凉的深秋黄昏氛围。<br>（2）其他意象大多萧瑟冷落，而“小桥流水人家”的画面宁静温馨。以乐景衬哀情，用别人家的安适团聚反衬游子的漂泊无依，使思乡之情更加强烈。<br>（3）表达了漂泊天涯的游子浓重的思乡之情和羁旅之愁。</p>',
    analysis:
      '<p>本曲前三句全由名词组合而成，九个意象并列铺排，像电影镜头一样组成一幅秋郊夕照图，修饰语“枯”“老”“昏”“瘦”等奠定了凄凉的感情基调。解答意象题，先找出具体景物，再抓住修饰语概括氛围；分析情感，要抓住“断肠”“天涯”等关键词。</p>',
    knowledgeKeys: ['k-c-poem-image', 'k-c-poem-emotion'],
    year: 2025,
    source: '2025年秋季单元练习（自编）',
  },
  {
    key: 'q-c7a-2-1-01',
    sectionKey: 'c7a-2-1',
    type: '阅读理解',
    difficulty: 3,
    stem: `<p>阅读下面的文章，完成题目。</p>
<p><b>外婆的葱油饼</b></p>
<p>①小时候，我最盼望的是周末去外婆家。外婆家的厨房不大，灶台边总放着一只掉了漆的搪瓷盆，盆里是她早早和好的面。</p>
<p>②我一进门，外婆就笑着把袖子挽到胳膊肘，说：“小馋猫来了，开工！”她把面团擀成薄薄的一张，刷上油，撒上细盐和葱花，卷起来，盘成圆，再擀开。<u>油锅“滋啦”一声响，面饼在锅里慢慢鼓起金黄的小泡，香味顺着窗缝钻出去，连隔壁的小黄狗都趴在门口不肯走。</u></p>
<p>③后来我上了中学，功课多了，去外婆家的次数越来越少。有一回，妈妈从外婆家回来，递给我一个保温饭盒。打开一看，是两张葱油饼，还温着。妈妈说，外婆听说我晚上要上自习，特意早起做的，又怕凉了，用毛巾裹了好几层。</p>
<p>④我咬了一口，饼还是小时候的味道，只是葱花切得有些粗了——外婆的眼睛，已经不太看得清了。</p>
<p>⑤那天晚上，我在日记本上写：这个周末，我要去外婆家，学做葱油饼。</p>
<p>（1）文章围绕“葱油饼”写了哪两件事？请简要概括。<br>（2）赏析第②段画线句。<br>（3）第④段“只是葱花切得有些粗了”中的“只是”能否删去？为什么？<br>（4）结尾“我要去外婆家，学做葱油饼”表达了“我”怎样的情感？</p>`,
    answer:
      '<p>（1）①小时候周末去外婆家，看外婆做葱油饼；②上中学后，外婆特意早起做葱油饼，托妈妈带给“我”。<br>（2）运用细节描写，从听觉（“滋啦”）、视觉（金黄的小泡）、嗅觉（香味）多角度写出葱油饼的诱人，并借小黄狗“趴在门口不肯走”侧面烘托，表现外婆手艺好和“我”对葱油饼的喜爱。<br>（3）不能删去。“只是”表示转折，强调饼的味道没变，变的是葱花切粗了，暗示外婆年老眼花，流露出“我”对外婆衰老的心疼；删去后这层意味就没有了。<br>（4）表达了“我”对外婆的感激、心疼，以及想要回报外婆、多陪伴外婆的心愿。</p>',
    analysis:
      '<p>（1）概括事件可用“时间＋人物＋事件”的方法，注意第①②段与第③④段的时间变化。<br>（2）赏析句子从修辞、描写方法、用词等角度入手，结合内容说出表达效果。<br>（3）分析虚词作用时，先解释它的含义（转折），再结合语境说出它所强调的内容和蕴含的情感，最后说明删去后的变化。<br>（4）结尾的心愿由前文自然引出：外婆老了，“我”由被照顾者想要变为照顾者，情感要答出感激与心疼两层。</p>',
    knowledgeKeys: ['k-c-read-narrative', 'k-c-read-lang', 'k-c-read-theme'],
    year: 2026,
    source: '原创',
  },
  {
    key: 'q-c7a-2-2-01',
    sectionKey: 'c7a-2-2',
    type: '作文',
    difficulty: 3,
    stem: '<p>生活中，总有一些人、一些事，默默地陪伴着我们，只是我们常常没有留意。某一天，一个不经意的瞬间，我们忽然明白了他们的分量。</p><p>请以“原来，＿＿＿＿一直在我身边”为题，写一篇记叙文。</p><p>要求：①先将题目补充完整；②不少于 500 字；③写出真情实感，不得抄袭、套作；④文中不得出现真实的人名、校名。</p>',
    answer:
      '<p>评分要点（满分 50 分）：<br>一类文（45～50 分）：题目补充恰当，中心明确；选材真实具体，能围绕“一直在身边”写出一两件典型事例；有细节描写，情感真挚；结构完整，语言流畅。<br>二类文（38～44 分）：中心较明确，内容较具体，有一定细节，语言通顺。<br>三类文（30～37 分）：中心基本明确，内容不够具体，叙事较平淡。<br>四类文（30 分以下）：偏离题意，内容空洞或字数明显不足。</p>',
    analysis:
      '<p>审题：题眼是“原来”和“一直”。“原来”表示恍然醒悟，文章要写出“我”从没有留意到忽然明白的认识变化；“一直”说明陪伴是长期的、默默的。<br>选材：横线上可填人（如“爷爷的唠叨”“同桌的提醒”），也可填物或精神（如“一盏台灯”“勇气”）。宜选身边的小事，以小见大。<br>写法：可采用先抑后扬，先写“我”的不在意甚至误解，再写触动“我”的那一刻；在关键处放慢节奏，运用动作、语言、神态等细节描写；结尾点题，写出感悟，不要空喊口号。</p>',
    knowledgeKeys: ['k-c-write-narrative', 'k-c-write-topic', 'k-c-write-detail'],
    year: 2025,
    source: '2025年秋季单元练习（自编）',
  },
  {
    key: 'q-c7a-2-4-01',
    sectionKey: 'c7a-2-4',
    type: '单选题',
    difficulty: 2,
    stem: '<p>下列选自《陈太丘与友期行》的句子中，加下划线词语的解释<b>有误</b>的一项是（　　）</p>',
    options: [
      '陈太丘与友<u>期</u>行（期：约定）',
      '太丘舍<u>去</u>（去：离开）',
      '相<u>委</u>而去（委：舍弃）',
      '元方入门不<u>顾</u>（顾：照顾）',
    ],
    answer: 'D',
    analysis:
      '<p>“入门不顾”中的“顾”意思是“回头看”，写元方走进家门，连头也不回，表现了他对友人无礼的不满。A、B、C 三项解释都正确，其中“去”在古汉语中常表示“离开”，与现代汉语的“到……去”不同，属于古今异义。选 D。</p>',
    knowledgeKeys: ['k-c-wy-word'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-c7a-3-1-01',
    sectionKey: 'c7a-3-1',
    type: '填空题',
    difficulty: 1,
    stem: '<p>《从百草园到三味书屋》选自鲁迅的散文集《＿＿＿＿》，这本集子原名《＿＿＿＿》。鲁迅，原名＿＿＿＿，浙江绍兴人。</p>',
    answer: '朝花夕拾；旧事重提；周树人',
    analysis:
      '<p>《朝花夕拾》是鲁迅的回忆性散文集，共 10 篇，原名《旧事重提》，记述了作者童年到青年时期的生活经历。“朝花夕拾”意为早晨的花傍晚来拾，比喻中年以后回忆童年往事。鲁迅原名周树人，“鲁迅”是他发表《狂人日记》时开始使用的笔名。</p>',
    knowledgeKeys: ['k-c-literature', 'k-c-classics'],
    year: 2023,
    source: '原创',
  },
  {
    key: 'q-c7a-3-3-01',
    sectionKey: 'c7a-3-3',
    type: '单选题',
    difficulty: 2,
    stem: '<p>下列对《〈论语〉十二章》中语句的理解，<b>不正确</b>的一项是（　　）</p>',
    options: [
      '“学而时习之，不亦说乎”中的“说”同“悦”，意思是愉快。',
      '“温故而知新”的意思是温习学过的知识，从而获得新的理解与体会。',
      '“三人行，必有我师焉”告诉我们要虚心向别人学习。',
      '“吾日三省吾身”中的“三”表示恰好三次，即每天反省三次。',
    ],
    answer: 'D',
    analysis:
      '<p>“吾日三省吾身”中的“三”是虚指，表示多次，意思是“我每天多次反省自己”，并非确切的三次。另外也可理解为从后文所说的三个方面反省。A 项“说”是通假字，B、C 两项理解正确。选 D。</p>',
    knowledgeKeys: ['k-c-wy-word', 'k-c-wy-content'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-c7a-4-4-01',
    sectionKey: 'c7a-4-4',
    type: '阅读理解',
    difficulty: 4,
    stem: '<p>阅读诸葛亮的《诫子书》，完成题目。</p><p>夫君子之行，静以修身，俭以养德。非淡泊无以明志，非宁静无以致远。夫学须静也，才须学也，非学无以广才，非志无以成学。<u>淫</u>慢则不能励精，险躁则不能<u>治</u>性。年与时驰，意与日去，<u>遂</u>成枯落，多不接世，悲守穷庐，将复何及！</p><p>（1）解释文中加下划线的词：淫＿＿＿＿　治＿＿＿＿　遂＿＿＿＿<br>（2）把“非学无以广才，非志无以成学”翻译成现代汉语。<br>（3）作者告诫儿子应怎样修身养德、勤学立志？请结合文章内容简要概括。</p>',
    answer:
      '<p>（1）淫：过度；治：修养；遂：于是，就（最终）。<br>（2）不学习就无法增长才干，不立志就无法在学习上取得成就。<br>（3）要做到内心宁静、生活节俭、淡泊名利；要勤奋学习、树立志向；要力戒懈怠放纵与轻薄浮躁；要珍惜时间，不要等到年老一事无成时才悲叹。</p>',
    analysis:
      '<p>（1）“淫慢”指过度享乐、懈怠，“淫”不能按现代义理解；“治性”即修养性情。<br>（2）“非……无以……”是双重否定，意为“不……就没有办法……”；“广”是形容词用作动词，意为“增长，扩大”。<br>（3）文章从正面（静、俭、淡泊、学、志）和反面（淫慢、险躁）两个角度论述，最后以“年与时驰”警示珍惜光阴。概括时要把正反两方面和“惜时”都答到。</p>',
    knowledgeKeys: ['k-c-wy-word', 'k-c-wy-translate', 'k-c-wy-content'],
    year: 2026,
    source: '2026年期末复习（自编）',
  },
];

// ───────────── 英语 人教版 七年级上册 ─────────────
const ENGLISH: Draft[] = [
  {
    key: 'q-e7a-1-a-01',
    sectionKey: 'e7a-1-a',
    type: '单选题',
    difficulty: 1,
    stem: '<p>— ______ is your name?<br>— My name is Li Ming.</p>',
    options: ['How', 'What', 'Where', 'Who'],
    answer: 'B',
    analysis:
      '<p>答语告诉对方自己的名字，问句应为“What is your name?”（你叫什么名字？）。How 问方式或状况，Where 问地点，Who 问人是谁。选 B。</p>',
    knowledgeKeys: ['k-e-wh', 'k-e-greet'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-e7a-2-a-01',
    sectionKey: 'e7a-2-a',
    type: '单选题',
    difficulty: 2,
    stem: '<p>This is ______ sister. ______ name is Emma.</p>',
    options: ['my; Her', 'I; She', 'my; She', 'me; Her'],
    answer: 'A',
    analysis:
      '<p>第一空修饰名词 sister，要用形容词性物主代词 my（我的）；第二空修饰 name，表示“她的名字”，用形容词性物主代词 Her。I 和 She 是主格，me 是宾格，都不能直接修饰名词。选 A。</p>',
    knowledgeKeys: ['k-e-pron'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-e7a-3-a-01',
    sectionKey: 'e7a-3-a',
    type: '单选题',
    difficulty: 2,
    stem: '<p>There ______ a library and two science labs in our school.</p>',
    options: ['is', 'are', 'am', 'be'],
    answer: 'A',
    analysis:
      '<p>there be 句型中，be 动词的形式遵循“就近原则”，与离它最近的主语保持一致。紧跟 be 的是 a library（单数），所以用 is。选 A。</p>',
    knowledgeKeys: ['k-e-there-be'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-e7a-5-a-01',
    sectionKey: 'e7a-5-a',
    type: '单选题',
    difficulty: 1,
    stem: "<p>— ______ you play the guitar?<br>— Yes, I can. That's why I'm in the music club.</p>",
    options: ['Can', 'Do', 'Are', 'Does'],
    answer: 'A',
    analysis:
      '<p>答语“Yes, I can.”说明问句用情态动词 can 提问，询问能力：“Can you play the guitar?”（你会弹吉他吗？）。选 A。</p>',
    knowledgeKeys: ['k-e-can'],
    year: 2023,
    source: '原创',
  },
  {
    key: 'q-e7a-6-a-01',
    sectionKey: 'e7a-6-a',
    type: '单选题',
    difficulty: 3,
    stem: '<p>My brother usually ______ his homework after dinner.</p>',
    options: ['do', 'does', 'doing', 'to do'],
    answer: 'B',
    analysis:
      '<p>usually 表示经常性的动作，用一般现在时；主语 My brother 是第三人称单数，谓语动词要用第三人称单数形式 does。选 B。</p>',
    knowledgeKeys: ['k-e-present'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-e7a-7-a-01',
    sectionKey: 'e7a-7-a',
    type: '单选题',
    difficulty: 2,
    stem: "<p>— When is your birthday?<br>— It's ______ May 5th.</p>",
    options: ['in', 'on', 'at', 'for'],
    answer: 'B',
    analysis:
      '<p>表示在具体的某一天用介词 on，如 on May 5th；in 用于月份、年份、季节之前（如 in May）；at 用于具体钟点之前（如 at 7:00）。选 B。</p>',
    knowledgeKeys: ['k-e-prep'],
    year: 2026,
    source: '原创',
  },
  {
    key: 'q-e7a-4-b-01',
    sectionKey: 'e7a-4-b',
    type: '完形填空',
    difficulty: 3,
    stem: `<p>阅读短文，从每小题所给的四个选项中选出最佳选项。</p>
<p>Hi, I'm Lucy. I'm a student at No. 5 Middle School. I have many subjects this term, but my favourite subject is __1__. Why? Because I love numbers and I think they are __2__. My maths teacher is Mr Black. He is very kind, and he always __3__ us with our problems. In his class, we often play number games __4__ groups. I also like art, but I'm not good __5__ drawing, so I often go to the art club after school.</p>
<p>1. A. music　B. maths　C. history　D. PE<br>
2. A. boring　B. terrible　C. interesting　D. quiet<br>
3. A. helps　B. tells　C. looks　D. thanks<br>
4. A. on　B. in　C. at　D. under<br>
5. A. in　B. for　C. at　D. with</p>`,
    answer: 'BCABC',
    analysis:
      '<p>1. B 由下文 I love numbers 和 My maths teacher 可知最喜欢的学科是数学。<br>2. C 喜欢数字是因为觉得它们“有趣”，interesting 符合语境；boring、terrible 是贬义，与 love 矛盾。<br>3. A help sb with sth 意为“帮助某人解决某事”，与 kind 相呼应。<br>4. B in groups 意为“分组地”。<br>5. C be good at 意为“擅长”，固定搭配。</p>',
    knowledgeKeys: ['k-e-cloze-context', 'k-e-phrase'],
    year: 2025,
    source: '2025年秋季单元练习（自编）',
  },
  {
    key: 'q-e7a-3-b-01',
    sectionKey: 'e7a-3-b',
    type: '阅读理解',
    difficulty: 2,
    stem: `<p>阅读下面的通知，选出正确答案。</p>
<p><b>School Library Notice</b></p>
<p>Welcome to our school library! It is on the second floor of the Science Building, next to the computer room.</p>
<p><b>Opening hours:</b> Monday to Friday, 7:30 a.m. – 5:00 p.m. It is closed on weekends.</p>
<p><b>Rules:</b><br>1) Please be quiet.<br>2) No food or drinks.<br>3) You can borrow three books at a time and keep them for two weeks.</p>
<p>1. Where is the library?<br>A. On the first floor.　B. On the second floor.　C. Next to the art room.　D. In the gym.</p>
<p>2. When can students go to the library?<br>A. On Saturday morning.　B. On Sunday afternoon.　C. On Wednesday at 4 p.m.　D. On Friday at 6 p.m.</p>
<p>3. How many books can a student borrow at a time?<br>A. Two.　B. Three.　C. Four.　D. Five.</p>`,
    answer: 'BCB',
    analysis:
      '<p>1. B 由 It is on the second floor of the Science Building 可知。<br>2. C 图书馆周一至周五 7:30—17:00 开放，周末关闭。周三下午 4 点在开放时间内；周五下午 6 点已闭馆。<br>3. B 由 You can borrow three books at a time 可知。</p>',
    knowledgeKeys: ['k-e-read-detail'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-e7a-6-b-01',
    sectionKey: 'e7a-6-b',
    type: '阅读理解',
    difficulty: 3,
    stem: `<p>阅读短文，选出正确答案。</p>
<p>My name is Zhang Hao. I'm 12 years old. I usually get up at 6:30 in the morning. After a quick shower, I have breakfast with my parents. I often eat noodles or eggs and drink some milk. Then I go to school by bike at 7:20. It takes me about fifteen minutes.</p>
<p>Classes start at 8:00. We have four classes in the morning and three in the afternoon. At noon, I have lunch in the school dining hall. School finishes at 4:30. Twice a week, I play basketball with my friends after school. I get home at about 5:30 and do my homework first. After dinner, I sometimes read books or watch TV for half an hour. I go to bed at 9:30 because I want to be full of energy the next day.</p>
<p>1. What time does Zhang Hao leave home for school?<br>A. At 6:30.　B. At 7:20.　C. At 7:35.　D. At 8:00.</p>
<p>2. How many classes does he have every school day?<br>A. Three.　B. Four.　C. Six.　D. Seven.</p>
<p>3. How often does he play basketball after school?<br>A. Every day.　B. Once a week.　C. Twice a week.　D. Never.</p>
<p>4. What does the underlined word “energy” probably mean?<br>A. 精力　B. 作业　C. 时间　D. 朋友</p>
<p>5. What is the best title for the passage?<br>A. My Favourite Sport　B. A Day in Zhang Hao's Life　C. Our School Dining Hall　D. How to Go to School</p>`,
    answer: 'BDCAB',
    analysis:
      '<p>1. B 由 Then I go to school by bike at 7:20 可知；7:35 是他大约到校的时间，不是出发时间。<br>2. D 上午四节、下午三节，共七节课，需要简单计算。<br>3. C 由 Twice a week 可知。<br>4. A 早睡是为了第二天“精力”充沛，be full of energy 意为“精力充沛”。<br>5. B 全文按时间顺序介绍了张浩一天的生活，B 项最能概括全文。</p>',
    knowledgeKeys: ['k-e-read-detail', 'k-e-read-word', 'k-e-read-main'],
    year: 2026,
    source: '2026年期中练习（自编）',
  },
  {
    key: 'q-e7a-1-b-01',
    sectionKey: 'e7a-1-b',
    type: '书面表达',
    difficulty: 4,
    stem: '<p>假如你是李华，你的新笔友 Tom 来信想了解你。请根据以下要点给他回一封电子邮件：</p><p>1. 姓名、年龄、所在班级；<br>2. 家庭成员；<br>3. 最喜欢的学科及原因；<br>4. 爱好以及参加的社团。</p><p>要求：①60 词左右，可适当发挥；②邮件的开头和结尾已给出，不计入总词数；③文中不得出现真实的校名。</p><p>Dear Tom,<br>______________________<br>Yours,<br>Li Hua</p>',
    answer:
      "<p>Dear Tom,</p><p>I'm glad to be your pen pal. My name is Li Hua. I'm 12 years old, and I'm in Class 3, Grade 7. There are three people in my family: my father, my mother and me. My favourite subject is science because it's fun to do experiments. I like playing table tennis, and I'm in the table tennis club. We practise every Tuesday and Thursday. What about you? What's your favourite subject? Please write back soon.</p><p>Yours,<br>Li Hua</p>",
    analysis:
      "<p>写作指导：<br>1. 体裁为电子邮件，用第一人称，时态以一般现在时为主。<br>2. 要点要齐全：个人信息、家庭、学科及原因、爱好与社团，缺一项扣分。<br>3. 可使用本单元的常用句型：I'm ... years old. / My favourite subject is ... because ... / I'm in the ... club.<br>4. 结尾用 What about you? 等句子与对方互动，使邮件自然得体。<br>5. 注意第三人称单数、大小写和标点。</p>",
    knowledgeKeys: ['k-e-write-letter', 'k-e-write-intro'],
    year: 2025,
    source: '原创',
  },
];

// ───────────── 物理 人教版 八年级上册 ─────────────
const PHYSICS: Draft[] = [
  {
    key: 'q-p8a-1-1-01',
    sectionKey: 'p8a-1-1',
    type: '单选题',
    difficulty: 1,
    stem: '<p>下列估测最接近实际的是（　　）</p>',
    options: [
      '一支新铅笔的长度约为 18 cm',
      '一名中学生的身高约为 165 dm',
      '教室里课桌的高度约为 80 mm',
      '人正常步行的速度约为 5 m/s',
    ],
    answer: 'A',
    analysis:
      '<p>一支新铅笔约与一拃（约 18～20 cm）相当，A 符合实际；中学生身高约 165 cm＝16.5 dm，B 不符合；课桌高约 80 cm，C 不符合；人正常步行速度约 1.1 m/s，D 不符合。选 A。</p>',
    knowledgeKeys: ['k-p-motion-measure'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-p8a-1-2-01',
    sectionKey: 'p8a-1-2',
    type: '填空题',
    difficulty: 2,
    stem: '<p>坐在行驶列车中的乘客，以＿＿＿＿为参照物，他是静止的；以＿＿＿＿为参照物，他是运动的。</p>',
    answer: '列车（或座椅）；路旁的树木（或站台、地面）',
    analysis:
      '<p>判断物体是运动还是静止，要看它相对于参照物的位置是否改变。乘客相对于列车（座椅）位置不变，是静止的；相对于地面上的树木位置不断改变，是运动的。这说明运动和静止是相对的，答案合理即可。</p>',
    knowledgeKeys: ['k-p-motion-ref'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-p8a-1-3-01',
    sectionKey: 'p8a-1-3',
    type: '计算题',
    difficulty: 4,
    stem: '<p>一列长 200 m 的火车以 72 km/h 的速度匀速通过一条长 1.6 km 的隧道。求：</p><p>（1）火车完全通过隧道所用的时间；<br>（2）火车全部在隧道内运行的时间。</p>',
    answer: '<p>（1）90 s；（2）70 s。</p>',
    analysis: r`<p>统一单位：\(v=72\ \text{km/h}=20\ \text{m/s}\)，\(L_{隧}=1600\ \text{m}\)。<br>（1）完全通过隧道：从车头进隧道到车尾出隧道，通过的路程 \(s_1=L_{隧}+L_{车}=1600\ \text{m}+200\ \text{m}=1800\ \text{m}\)，<br>\(t_1=\frac{s_1}{v}=\frac{1800\ \text{m}}{20\ \text{m/s}}=90\ \text{s}\)。<br>（2）全部在隧道内：从车尾进隧道到车头出隧道，路程 \(s_2=L_{隧}-L_{车}=1400\ \text{m}\)，<br>\(t_2=\frac{s_2}{v}=\frac{1400\ \text{m}}{20\ \text{m/s}}=70\ \text{s}\)。</p>`,
    knowledgeKeys: ['k-p-motion-speed'],
    year: 2025,
    source: '2025年秋季单元练习（自编）',
  },
  {
    key: 'q-p8a-1-3-02',
    sectionKey: 'p8a-1-3',
    type: '单选题',
    difficulty: 4,
    stem: '<p>一辆小车沿直线运动，前一半路程的平均速度为 4 m/s，后一半路程的平均速度为 6 m/s，则小车全程的平均速度为（　　）</p>',
    options: ['5 m/s', '4.8 m/s', '5.2 m/s', '10 m/s'],
    answer: 'B',
    analysis: r`<p>平均速度等于总路程除以总时间，不等于速度的平均值。设全程为 \(2s\)，<br>\(t_1=\frac{s}{4}\)，\(t_2=\frac{s}{6}\)，\(v=\frac{2s}{\frac{s}{4}+\frac{s}{6}}=\frac{2s}{\frac{5s}{12}}=4.8\ \text{m/s}\)。选 B。</p>`,
    knowledgeKeys: ['k-p-motion-avg'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-p8a-2-1-01',
    sectionKey: 'p8a-2-1',
    type: '多选题',
    difficulty: 3,
    stem: '<p>关于声现象，下列说法正确的有（　　）</p>',
    options: [
      '声音在真空中传播得最快',
      '一切正在发声的物体都在振动',
      '在道路两旁植树，是在传播过程中减弱噪声',
      '用超声波粉碎人体内的结石，说明声可以传递信息',
    ],
    answer: 'BC',
    analysis:
      '<p>A：声音的传播需要介质，真空不能传声，错误。B：声音是由物体振动产生的，正确。C：树木能吸收、阻挡声音，属于在传播过程中减弱噪声，正确。D：超声波粉碎结石说明声可以传递能量，错误。选 BC。</p>',
    knowledgeKeys: ['k-p-sound-source', 'k-p-sound-noise', 'k-p-sound-use'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-p8a-2-2-01',
    sectionKey: 'p8a-2-2',
    type: '单选题',
    difficulty: 2,
    stem: '<p>“闻其声而知其人”，我们能分辨出熟悉的人的声音，主要是根据声音的（　　）</p>',
    options: ['音调', '响度', '音色', '传播速度'],
    answer: 'C',
    analysis:
      '<p>不同发声体的材料和结构不同，发出声音的音色不同。每个人的声带结构不同，所以音色不同，我们据此分辨不同人的声音。选 C。</p>',
    knowledgeKeys: ['k-p-sound-feature'],
    year: 2023,
    source: '原创',
  },
  {
    key: 'q-p8a-2-3-01',
    sectionKey: 'p8a-2-3',
    type: '计算题',
    difficulty: 5,
    stem: '<p>一辆汽车以 20 m/s 的速度匀速驶向一座山崖，司机鸣笛后经过 2 s 听到回声。已知声音在空气中的传播速度为 340 m/s。求：</p><p>（1）司机鸣笛时汽车与山崖的距离；<br>（2）司机听到回声时汽车与山崖的距离。</p>',
    answer: '<p>（1）360 m；（2）320 m。</p>',
    analysis: r`<p>在 2 s 内，声音从鸣笛处传到山崖再反射回来，汽车同时向山崖前进。<br>声音通过的路程：\(s_{声}=v_{声}t=340\ \text{m/s}\times2\ \text{s}=680\ \text{m}\)；<br>汽车通过的路程：\(s_{车}=v_{车}t=20\ \text{m/s}\times2\ \text{s}=40\ \text{m}\)。<br>（1）\(s_{声}+s_{车}=2s\)，所以鸣笛时的距离 \(s=\frac{680\ \text{m}+40\ \text{m}}{2}=360\ \text{m}\)。<br>（2）听到回声时的距离 \(s'=s-s_{车}=360\ \text{m}-40\ \text{m}=320\ \text{m}\)。<br>画出声音与汽车运动的路线示意图，有助于找出路程关系。</p>`,
    knowledgeKeys: ['k-p-sound-use', 'k-p-motion-speed'],
    year: 2026,
    source: '2026年期末复习（自编）',
  },
  {
    key: 'q-p8a-3-2-01',
    sectionKey: 'p8a-3-2',
    type: '实验题',
    difficulty: 3,
    stem: '<p>小明用如下装置探究冰熔化时温度的变化规律：将碎冰装入试管，再把试管放在装有水的烧杯中加热，每隔 1 min 记录一次温度，数据如下表：</p><table><tr><th>时间/min</th><td>0</td><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td><td>7</td><td>8</td></tr><tr><th>温度/℃</th><td>−4</td><td>−2</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>1</td><td>2</td></tr></table><p>（1）实验中把试管放在水中加热（水浴法），而不是直接用酒精灯加热，目的是＿＿＿＿；<br>（2）由数据可知，冰是＿＿＿＿（选填“晶体”或“非晶体”），熔点是＿＿＿＿℃；<br>（3）冰的熔化过程持续了＿＿＿＿min，第 4 min 时试管内的物质处于＿＿＿＿态；<br>（4）冰在熔化过程中不断＿＿＿＿热，温度＿＿＿＿。</p>',
    answer:
      '（1）使冰受热均匀（且温度上升较慢，便于记录）；（2）晶体；0；（3）4；固液共存；（4）吸；保持不变',
    analysis: r`<p>（1）水浴法加热使试管内的冰受热均匀，温度变化较慢，便于观察和记录。<br>（2）冰熔化时有固定的温度（0 ℃），所以冰是晶体，熔点为 0 ℃。<br>（3）从第 2 min 开始温度保持 0 ℃，到第 6 min 后温度开始上升，熔化过程为 \(6-2=4\) min；第 4 min 正处在熔化过程中，为固液共存态。<br>（4）晶体熔化的特点：持续吸热，温度保持不变。</p>`,
    knowledgeKeys: ['k-p-state-melt', 'k-p-state-temp'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-p8a-3-3-01',
    sectionKey: 'p8a-3-3',
    type: '单选题',
    difficulty: 2,
    stem: '<p>夏天，从冰箱里取出的饮料瓶放一会儿，瓶的外壁会“出汗”。这是（　　）</p>',
    options: ['熔化现象', '汽化现象', '液化现象', '凝华现象'],
    answer: 'C',
    analysis:
      '<p>瓶外壁的小水珠不是从瓶内渗出来的，而是空气中温度较高的水蒸气遇到温度很低的瓶壁，放热液化成的小水珠。物质由气态变为液态叫液化，选 C。</p>',
    knowledgeKeys: ['k-p-state-vapor'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-p8a-4-1-01',
    sectionKey: 'p8a-4-1',
    type: '单选题',
    difficulty: 1,
    stem: '<p>下列现象中，由光的直线传播形成的是（　　）</p>',
    options: ['小孔成像', '平静水面映出岸边的倒影', '雨后天空出现彩虹', '插入水中的筷子看起来向上“弯折”'],
    answer: 'A',
    analysis:
      '<p>小孔成像是光在同种均匀介质中沿直线传播形成的；水中倒影是光的反射（平面镜成像）；彩虹是光的色散；筷子“弯折”是光的折射。选 A。</p>',
    knowledgeKeys: ['k-p-light-straight'],
    year: 2023,
    source: '原创',
  },
  {
    key: 'q-p8a-4-2-01',
    sectionKey: 'p8a-4-2',
    type: '填空题',
    difficulty: 2,
    stem: '<p>一束光射到平面镜上，入射光线与镜面的夹角为 30°，则反射角为＿＿＿＿°；若入射角增大 10°，则反射光线与入射光线的夹角为＿＿＿＿°。</p>',
    answer: '60；140',
    analysis:
      '<p>入射角是入射光线与<b>法线</b>的夹角，法线垂直于镜面，所以入射角为 90°−30°＝60°，由反射定律，反射角等于入射角，为 60°。<br>入射角增大 10° 后为 70°，反射角也为 70°，反射光线与入射光线的夹角为 70°＋70°＝140°。</p>',
    knowledgeKeys: ['k-p-light-reflect'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-p8a-4-3-01',
    sectionKey: 'p8a-4-3',
    type: '单选题',
    difficulty: 3,
    stem: '<p>小明站在竖直放置的平面镜前 2 m 处，当他向平面镜走近 0.5 m 后，他与镜中像的距离以及像的大小变化情况是（　　）</p>',
    options: ['3 m，像的大小不变', '3 m，像变大', '1.5 m，像的大小不变', '4 m，像变小'],
    answer: 'A',
    analysis:
      '<p>走近后小明到镜面的距离为 2 m−0.5 m＝1.5 m，平面镜所成的像与物到镜面的距离相等，像到镜面也是 1.5 m，人与像的距离为 3 m。平面镜所成的像与物体大小相等，像的大小不变（“近大远小”只是视觉感受）。选 A。</p>',
    knowledgeKeys: ['k-p-light-mirror'],
    year: 2026,
    source: '原创',
  },
  {
    key: 'q-p8a-5-3-01',
    sectionKey: 'p8a-5-3',
    type: '多选题',
    difficulty: 4,
    stem: '<p>某凸透镜的焦距为 10 cm，将蜡烛放在距透镜 15 cm 处，调节光屏位置，可在光屏上得到清晰的像。下列说法正确的有（　　）</p>',
    options: [
      '光屏上成倒立、放大的实像',
      '光屏到透镜的距离大于 20 cm',
      '投影仪就是利用这一成像规律工作的',
      '照相机就是利用这一成像规律工作的',
    ],
    answer: 'ABC',
    analysis:
      '<p>物距 u＝15 cm，满足 f＜u＜2f（10 cm＜15 cm＜20 cm），成倒立、放大的实像，像距 v＞2f＝20 cm，投影仪利用此规律，A、B、C 正确。照相机成倒立、缩小的实像，要求 u＞2f，D 错误。选 ABC。</p>',
    knowledgeKeys: ['k-p-lens-image', 'k-p-lens-app'],
    year: 2025,
    source: '2025年期末复习（自编）',
  },
  {
    key: 'q-p8a-6-2-01',
    sectionKey: 'p8a-6-2',
    type: '计算题',
    difficulty: 4,
    stem: r`<p>一个空瓶的质量为 200 g，装满水后的总质量为 700 g；若用该瓶装满某种液体，总质量为 600 g。求这种液体的密度。（\(\rho_{水}=1.0\times10^{3}\ \text{kg/m}^{3}\)）</p>`,
    answer: r`\(0.8\times10^{3}\ \text{kg/m}^{3}\)`,
    analysis: r`<p>瓶子的容积一定，装满水和装满液体时，水和液体的体积都等于瓶子的容积。<br>水的质量：\(m_{水}=700\ \text{g}-200\ \text{g}=500\ \text{g}\)，<br>瓶子容积：\(V=V_{水}=\frac{m_{水}}{\rho_{水}}=\frac{500\ \text{g}}{1.0\ \text{g/cm}^{3}}=500\ \text{cm}^{3}\)。<br>液体质量：\(m_{液}=600\ \text{g}-200\ \text{g}=400\ \text{g}\)，<br>液体密度：\(\rho_{液}=\frac{m_{液}}{V}=\frac{400\ \text{g}}{500\ \text{cm}^{3}}=0.8\ \text{g/cm}^{3}=0.8\times10^{3}\ \text{kg/m}^{3}\)。</p>`,
    knowledgeKeys: ['k-p-density-concept', 'k-p-density-app'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-p8a-6-3-01',
    sectionKey: 'p8a-6-3',
    type: '实验题',
    difficulty: 4,
    stem: '<p>小华用天平和量筒测量一块小石块的密度。</p><p>（1）把天平放在水平台上，将游码移到标尺左端的零刻度线处，发现指针偏向分度盘中线的左侧，应将平衡螺母向＿＿＿＿调节，使天平横梁平衡；<br>（2）用调好的天平测石块的质量，天平平衡时右盘中有一个 50 g 的砝码，游码在标尺上对应的示数为 4 g，则石块的质量为＿＿＿＿g；<br>（3）在量筒中倒入 20 mL 水，用细线系住石块将其浸没在水中，液面升至 40 mL，则石块的体积为＿＿＿＿cm³；<br>（4）石块的密度为＿＿＿＿kg/m³；<br>（5）若先测石块的体积，再把石块从水中取出直接测质量，测得的密度会偏＿＿＿＿。</p>',
    answer: '（1）右；（2）54；（3）20；（4）2.7×10³；（5）大',
    analysis: r`<p>（1）指针偏左说明左侧偏重，平衡螺母应向右调（“左偏右调”）。<br>（2）物体质量 = 砝码质量 + 游码示数：\(50\ \text{g}+4\ \text{g}=54\ \text{g}\)。<br>（3）排水法：\(V=40\ \text{mL}-20\ \text{mL}=20\ \text{mL}=20\ \text{cm}^{3}\)。<br>（4）\(\rho=\frac{m}{V}=\frac{54\ \text{g}}{20\ \text{cm}^{3}}=2.7\ \text{g/cm}^{3}=2.7\times10^{3}\ \text{kg/m}^{3}\)。<br>（5）石块从水中取出时表面沾有水，测得的质量偏大，体积准确，由 \(\rho=\frac{m}{V}\) 可知密度偏大。</p>`,
    knowledgeKeys: ['k-p-density-measure', 'k-p-mass'],
    year: 2026,
    source: '2026年期中练习（自编）',
  },
];

/** 语文, 英语 and 物理 questions. */
export const OTHER_QUESTIONS: QuestionSeed[] = [
  ...inBook('语文', 'c7a', CHINESE),
  ...inBook('英语', 'e7a', ENGLISH),
  ...inBook('物理', 'p8a', PHYSICS),
];
