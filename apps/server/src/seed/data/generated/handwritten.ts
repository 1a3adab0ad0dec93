/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed } from '../types.js';

// Hand-written items for 语文, 英语 and 物理 beside the generated ones: original text written for this bank.

const r = String.raw;

export const HANDWRITTEN_QUESTIONS: QuestionSeed[] = [
  {
    key: 'q-h-c7a-2-2-01',
    subject: '语文',
    textbookKey: 'c7a',
    sectionKey: 'c7a-2-2',
    type: '单选题',
    difficulty: 2,
    stem: '<p>下列句子中，没有语病的一项是（　　）</p>',
    options: [
      '经过一个学期的练习，使我的字写得越来越工整了。',
      '我们要发扬和继承中华民族勤劳节俭的传统美德。',
      '周末的读书会上，同学们交流了各自的读书心得。',
      '能否坚持锻炼身体，是保持健康的重要条件。',
    ],
    answer: 'C',
    analysis:
      '<p>A 项“经过……使……”导致句子缺少主语，应删去“经过”或“使”；B 项语序不当，应先“继承”后“发扬”；D 项“能否”与“是保持健康的重要条件”两面对一面，应删去“能否”。C 项没有语病。</p>',
    knowledgeKeys: ['k-c-sentence'],
    year: 2026,
    source: '原创',
  },
  {
    key: 'q-h-c7a-2-1-01',
    subject: '语文',
    textbookKey: 'c7a',
    sectionKey: 'c7a-2-1',
    type: '阅读理解',
    difficulty: 3,
    stem: '<p>阅读下面的文字，完成题目。</p><p>　　外婆的菜园不大，却一年四季都不空着。春天种下的豆角，到了夏天就爬满了竹架，一串串垂下来，像挂着的绿色风铃。外婆每天清早挎着竹篮去摘菜，回来时篮子里总是满满的，她自己却舍不得多吃，总说：“留着，等你们放假回来。”</p><p>　　后来我到城里读书，很少回去。有一年暑假回家，我看见菜园里的豆角老得发黄，一根根硬邦邦地挂在架上。外婆站在架下，笑着说：“今年的豆角结得特别多，就是没人吃。”那一刻，我忽然明白，外婆种的从来不只是菜。</p><p>（1）第一段画线句把豆角比作“绿色风铃”，有什么表达效果？<br>（2）结尾说“外婆种的从来不只是菜”，你怎样理解这句话？</p>',
    answer:
      '<p>（1）运用比喻，生动形象地写出了豆角成串下垂、青翠可爱的样子，也透露出“我”对外婆菜园的喜爱。<br>（2）外婆种菜是为了让放假回家的儿孙吃上新鲜的菜，菜园里寄托着外婆对亲人的牵挂和盼望，“种的”其实是对家人的爱。</p>',
    analysis:
      '<p>（1）赏析比喻句，要说出本体和喻体的相似点，再点明表达效果和情感。（2）理解含义深刻的句子，要联系上下文：“舍不得多吃”“留着，等你们放假回来”“豆角老得发黄”“没人吃”，可以看出外婆的盼望与孤独，从而体会句子的深层含义。</p>',
    knowledgeKeys: ['k-c-read-lang', 'k-c-read-theme'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-h-e7a-5-b-01',
    subject: '英语',
    textbookKey: 'e7a',
    sectionKey: 'e7a-5-b',
    type: '阅读理解',
    difficulty: 2,
    stem: '<p>Read the passage and answer the questions.</p><p>Hi, I’m Chen Yu. I’m in Class 2, Grade 7. Our school has many clubs. I’m in the robot club. We meet every Wednesday afternoon. We make small robots and teach them to walk and pick up things. My friend Anna is in the music club. She can play the violin very well, and she practises every day after school. On Friday, the two clubs have a show together. My robot dances and Anna plays the music. It’s really fun!</p><p>1. When does the robot club meet?<br>2. What can Anna do?<br>3. What happens on Friday?</p>',
    answer:
      '<p>1. Every Wednesday afternoon.<br>2. She can play the violin (very well).<br>3. The two clubs have a show together.</p>',
    analysis:
      '<p>本题考查细节理解。第 1 题根据“We meet every Wednesday afternoon.”作答；第 2 题根据“She can play the violin very well”作答；第 3 题根据“On Friday, the two clubs have a show together.”作答。回答时注意人称与时态要与问题一致。</p>',
    knowledgeKeys: ['k-e-read-detail'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-h-e7a-6-b-01',
    subject: '英语',
    textbookKey: 'e7a',
    sectionKey: 'e7a-6-b',
    type: '书面表达',
    difficulty: 3,
    stem: '<p>假如你是李华，你的英国笔友 Tom 想了解你的周末生活。请根据以下提示写一封 60 词左右的电子邮件：</p><p>1. 周六上午做作业，下午踢足球；<br>2. 周日和父母看望祖父母，一起做饭；<br>3. 你对周末的感受。</p>',
    answer:
      '<p>Dear Tom,<br>I’m glad to tell you about my weekend. On Saturday morning, I do my homework. In the afternoon, I play football with my friends. On Sunday, I visit my grandparents with my parents. We cook dinner together and talk a lot. I think my weekend is busy but happy. What about your weekend?<br>Yours,<br>Li Hua</p>',
    analysis:
      '<p>写作要点齐全：周六上午、下午的活动，周日的活动，个人感受。时态以一般现在时为主，注意时间介词 on Saturday morning、in the afternoon 的用法，书信格式完整（称呼、正文、结束语、署名）。</p>',
    knowledgeKeys: ['k-e-write-letter', 'k-e-present'],
    year: 2026,
    source: '原创',
  },
  {
    key: 'q-h-e7a-3-b-01',
    subject: '英语',
    textbookKey: 'e7a',
    sectionKey: 'e7a-3-b',
    type: '完形填空',
    difficulty: 2,
    stem: '<p>My school is not very big, but it is very beautiful. There are three buildings. The tall one is our (1)______ building. There are twenty classrooms in it. Next to it is the library. I often (2)______ books there after class. Behind the library, there is a small garden (3)______ many flowers. My favourite place is the playground, because I can run and play (4)______ my friends there.</p><p>(1) A. teaching B. sleeping C. eating D. shopping<br>(2) A. write B. read C. sell D. make<br>(3) A. for B. with C. of D. at<br>(4) A. to B. at C. with D. in</p>',
    answer: '<p>(1) A　(2) B　(3) B　(4) C</p>',
    analysis:
      '<p>(1) 教学楼里有教室，teaching building 意为“教学楼”。(2) 在图书馆常做的事是读书，read books。(3) with 表示“带有”，a garden with many flowers 意为“有许多花的花园”。(4) play with sb. 意为“和某人一起玩”。</p>',
    knowledgeKeys: ['k-e-cloze-context', 'k-e-prep'],
    year: 2024,
    source: '原创',
  },
  {
    key: 'q-h-p8a-3-3-01',
    subject: '物理',
    textbookKey: 'p8a',
    sectionKey: 'p8a-3-3',
    type: '多选题',
    difficulty: 3,
    stem: '<p>下列现象中，属于液化的是（　　）</p>',
    options: [
      '冬天戴眼镜的人从室外走进温暖的教室，镜片上蒙了一层“雾”',
      '夏天从冰箱里拿出的饮料瓶，外壁上出现小水珠',
      '湿衣服在阳光下变干',
      '清晨草叶上出现晶莹的露珠',
    ],
    answer: 'ABD',
    analysis:
      '<p>物质由气态变为液态叫液化。A 项室内温暖的水蒸气遇到冷的镜片液化成小水珠；B 项空气中的水蒸气遇到冷的瓶壁液化；D 项露珠是夜间空气中的水蒸气遇冷液化形成的。C 项湿衣服变干是水由液态变为气态，属于汽化。</p>',
    knowledgeKeys: ['k-p-state-vapor'],
    year: 2025,
    source: '原创',
  },
  {
    key: 'q-h-p8a-1-4-01',
    subject: '物理',
    textbookKey: 'p8a',
    sectionKey: 'p8a-1-4',
    type: '实验题',
    difficulty: 3,
    stem: r`<p>小组同学用如图所示的装置测量小车沿斜面下滑的平均速度：让小车从斜面顶端 A 点由静止下滑，用刻度尺测出 AB 段路程为 80.0 cm，用停表测得小车通过 AB 段用时 2.5 s。</p><p>（1）该实验的原理是＿＿＿＿。<br>（2）小车在 AB 段的平均速度为＿＿＿＿m/s。<br>（3）为了便于测量时间，斜面的坡度应较＿＿＿＿（选填“大”或“小”）。<br>（4）如果小车过了 B 点才停止计时，测得的平均速度会偏＿＿＿＿。</p>`,
    answer: r`<p>（1）\(v=\frac{s}{t}\)；（2）0.32；（3）小；（4）小</p>`,
    analysis: r`<p>（1）测出路程和时间，用 \(v=\frac{s}{t}\) 计算平均速度。（2）\(s=80.0\ \text{cm}=0.800\ \text{m}\)，\(v=\frac{0.800\ \text{m}}{2.5\ \text{s}}=0.32\ \text{m/s}\)。（3）坡度小，小车下滑慢，所用时间长，便于测量。（4）过了 B 点才停止计时，测得的时间偏大，由 \(v=\frac{s}{t}\) 可知测得的速度偏小。</p>`,
    knowledgeKeys: ['k-p-motion-avg', 'k-p-motion-measure'],
    year: 2026,
    source: '原创',
  },
  {
    key: 'q-h-p8a-6-3-01',
    subject: '物理',
    textbookKey: 'p8a',
    sectionKey: 'p8a-6-3',
    type: '实验题',
    difficulty: 4,
    stem: r`<p>小明用天平和量筒测量一块小石块的密度。</p><p>（1）把天平放在水平台上，将游码移到标尺左端零刻度线处，发现指针偏向分度盘左侧，应将平衡螺母向＿＿＿＿调节。<br>（2）测得石块质量为 52 g；量筒中原有水 30 mL，放入石块后水面到达 50 mL，石块的体积为＿＿＿＿\(\text{cm}^{3}\)。<br>（3）石块的密度为＿＿＿＿\(\text{kg/m}^{3}\)。<br>（4）若先测体积再测质量，测得的密度会偏＿＿＿＿，原因是＿＿＿＿。</p>`,
    answer: r`<p>（1）右；（2）20；（3）\(2.6\times10^{3}\)；（4）大，石块上沾有水，测得的质量偏大</p>`,
    analysis: r`<p>（1）指针偏左说明左盘偏重，平衡螺母应向右调。（2）\(V=50\ \text{mL}-30\ \text{mL}=20\ \text{mL}=20\ \text{cm}^{3}\)。（3）\(\rho=\frac{m}{V}=\frac{52\ \text{g}}{20\ \text{cm}^{3}}=2.6\ \text{g/cm}^{3}=2.6\times10^{3}\ \text{kg/m}^{3}\)。（4）先测体积，石块从水中取出会沾水，再测质量偏大，由 \(\rho=\frac{m}{V}\) 可知密度偏大。</p>`,
    knowledgeKeys: ['k-p-density-measure', 'k-p-mass'],
    year: 2025,
    source: '原创',
  },
];
