import type { KnowledgeSeed, SubjectName } from './types.js';

/** A knowledge point; pass children for an inner node. */
const k = (key: string, name: string, children?: KnowledgeSeed[]): KnowledgeSeed =>
  children ? { key, name, children } : { key, name };

const MATH: KnowledgeSeed[] = [
  k('k-m-num', '数与式', [
    k('k-m-rational', '有理数', [
      k('k-m-rational-sign', '正数和负数'),
      k('k-m-rational-concept', '有理数的概念与分类'),
      k('k-m-rational-axis', '数轴'),
      k('k-m-rational-opposite', '相反数'),
      k('k-m-rational-abs', '绝对值'),
      k('k-m-rational-compare', '有理数的大小比较'),
      k('k-m-rational-add', '有理数的加法'),
      k('k-m-rational-sub', '有理数的减法'),
      k('k-m-rational-addsub', '有理数的加减混合运算'),
      k('k-m-rational-mul', '有理数的乘法'),
      k('k-m-rational-reciprocal', '倒数'),
      k('k-m-rational-div', '有理数的除法'),
      k('k-m-rational-law', '有理数的运算律'),
      k('k-m-rational-power', '有理数的乘方'),
      k('k-m-rational-mixed', '有理数的混合运算'),
      k('k-m-rational-sci', '科学记数法'),
      k('k-m-rational-approx', '近似数'),
      k('k-m-rational-apply', '有理数运算的实际应用'),
    ]),
    k('k-m-real', '实数', [
      k('k-m-real-arith-sqrt', '算术平方根'),
      k('k-m-real-sqrt', '平方根'),
      k('k-m-real-cbrt', '立方根'),
      k('k-m-real-nonneg', '非负数的性质'),
      k('k-m-real-irrational', '无理数'),
      k('k-m-real-concept', '实数的概念与分类'),
      k('k-m-real-axis', '实数与数轴'),
      k('k-m-real-estimate', '无理数的估算'),
      k('k-m-real-op', '实数的运算'),
    ]),
    k('k-m-alg', '代数式', [
      k('k-m-alg-write', '列代数式'),
      k('k-m-alg-value', '代数式的值'),
      k('k-m-alg-whole', '整体代入求值'),
      k('k-m-alg-pattern', '用代数式表示规律'),
    ]),
    k('k-m-poly', '整式', [
      k('k-m-poly-monomial', '单项式'),
      k('k-m-poly-polynomial', '多项式'),
      k('k-m-poly-like', '同类项'),
      k('k-m-poly-combine', '合并同类项'),
      k('k-m-poly-bracket', '去括号与添括号'),
      k('k-m-poly-addsub', '整式的加减'),
      k('k-m-poly-simplify-eval', '整式的化简求值'),
      k('k-m-poly-power', '幂的运算'),
      k('k-m-poly-mul', '整式的乘法'),
      k('k-m-poly-formula', '乘法公式'),
      k('k-m-poly-factor', '因式分解'),
    ]),
    k('k-m-frac', '分式', [k('k-m-frac-concept', '分式的概念与基本性质'), k('k-m-frac-op', '分式的运算')]),
    k('k-m-radical', '二次根式', [
      k('k-m-radical-concept', '二次根式的概念与性质'),
      k('k-m-radical-op', '二次根式的运算'),
    ]),
  ]),
  k('k-m-eq', '方程与不等式', [
    k('k-m-eq1', '一元一次方程', [
      k('k-m-eq1-concept', '方程与一元一次方程的概念'),
      k('k-m-eq1-solution', '方程的解'),
      k('k-m-eq1-property', '等式的性质'),
      k('k-m-eq1-solve', '解一元一次方程'),
      k('k-m-eq1-app-alloc', '配套与分配问题'),
      k('k-m-eq1-app-sale', '销售与利润问题'),
      k('k-m-eq1-app-travel', '行程问题'),
      k('k-m-eq1-app-work', '工程问题'),
    ]),
    k('k-m-eq2', '二元一次方程组', [
      k('k-m-eq2-concept', '二元一次方程（组）及其解'),
      k('k-m-eq2-sub', '代入消元法'),
      k('k-m-eq2-elim', '加减消元法'),
      k('k-m-eq2-app', '二元一次方程组的应用'),
      k('k-m-eq2-three', '三元一次方程组'),
    ]),
    k('k-m-ineq', '不等式与不等式组', [
      k('k-m-ineq-concept', '不等式及其解集'),
      k('k-m-ineq-property', '不等式的性质'),
      k('k-m-ineq-solve', '解一元一次不等式'),
      k('k-m-ineq-app', '一元一次不等式的应用'),
      k('k-m-ineq-system', '一元一次不等式组'),
      k('k-m-ineq-int', '不等式（组）的整数解'),
    ]),
    k('k-m-fraceq', '分式方程', [k('k-m-fraceq-solve', '解分式方程'), k('k-m-fraceq-app', '分式方程的应用')]),
    k('k-m-qeq', '一元二次方程', [
      k('k-m-qeq-concept', '一元二次方程的概念'),
      k('k-m-qeq-solve', '一元二次方程的解法'),
      k('k-m-qeq-disc', '根的判别式'),
      k('k-m-qeq-vieta', '根与系数的关系'),
      k('k-m-qeq-app', '一元二次方程的应用'),
    ]),
  ]),
  k('k-m-func', '函数', [
    k('k-m-coord', '平面直角坐标系', [
      k('k-m-coord-concept', '平面直角坐标系与点的坐标'),
      k('k-m-coord-quadrant', '象限与坐标轴上点的特征'),
      k('k-m-coord-distance', '点到坐标轴的距离'),
      k('k-m-coord-parallel', '平行于坐标轴的直线上的点'),
      k('k-m-coord-location', '用坐标表示地理位置'),
      k('k-m-coord-area', '坐标系中的图形面积'),
      k('k-m-coord-translate', '用坐标表示平移'),
    ]),
    k('k-m-func-basic', '函数及其表示', [
      k('k-m-func-var', '变量与函数'),
      k('k-m-func-rep', '函数的表示方法'),
    ]),
    k('k-m-linear', '一次函数', [
      k('k-m-linear-direct', '正比例函数'),
      k('k-m-linear-graph', '一次函数的图象与性质'),
      k('k-m-linear-eq', '一次函数与方程、不等式'),
      k('k-m-linear-app', '一次函数的应用'),
    ]),
    k('k-m-inverse', '反比例函数', [
      k('k-m-inverse-graph', '反比例函数的图象与性质'),
      k('k-m-inverse-app', '反比例函数的应用'),
    ]),
    k('k-m-quadfn', '二次函数', [
      k('k-m-quadfn-graph', '二次函数的图象与性质'),
      k('k-m-quadfn-eq', '二次函数与一元二次方程'),
      k('k-m-quadfn-app', '二次函数的应用'),
    ]),
  ]),
  k('k-m-geo', '图形与几何', [
    k('k-m-geo-basic', '几何图形初步', [
      k('k-m-geo-solid', '立体图形与平面图形'),
      k('k-m-geo-net', '立体图形的展开图'),
      k('k-m-geo-pointline', '点、线、面、体'),
      k('k-m-geo-line', '直线、射线、线段'),
      k('k-m-geo-shortest', '两点之间线段最短'),
      k('k-m-geo-segment', '线段的比较与运算'),
      k('k-m-geo-angle', '角的概念与度量'),
      k('k-m-geo-angle-calc', '角的比较与运算'),
      k('k-m-geo-compl', '余角和补角'),
      k('k-m-geo-direction', '方位角'),
    ]),
    k('k-m-lines', '相交线与平行线', [
      k('k-m-lines-vertical', '对顶角与邻补角'),
      k('k-m-lines-perp', '垂线与垂线段'),
      k('k-m-lines-distance', '点到直线的距离'),
      k('k-m-lines-angles', '同位角、内错角、同旁内角'),
      k('k-m-lines-axiom', '平行公理及其推论'),
      k('k-m-lines-judge', '平行线的判定'),
      k('k-m-lines-prop', '平行线的性质'),
      k('k-m-lines-proposition', '定义、命题与定理'),
      k('k-m-lines-translate', '平移'),
    ]),
    k('k-m-tri', '三角形', [
      k('k-m-tri-side', '三角形的三边关系'),
      k('k-m-tri-angle', '三角形的内角和与外角'),
      k('k-m-tri-polygon', '多边形及其内角和'),
      k('k-m-tri-congruent', '全等三角形'),
      k('k-m-tri-bisector', '角的平分线的性质'),
      k('k-m-tri-axial', '轴对称'),
      k('k-m-tri-isosceles', '等腰三角形'),
      k('k-m-tri-pythag', '勾股定理'),
    ]),
    k('k-m-quad', '四边形', [k('k-m-quad-para', '平行四边形'), k('k-m-quad-special', '特殊的平行四边形')]),
    k('k-m-circle', '圆', [
      k('k-m-circle-basic', '圆的有关性质'),
      k('k-m-circle-position', '点、直线与圆的位置关系'),
      k('k-m-circle-arc', '弧长和扇形面积'),
    ]),
    k('k-m-trans', '图形的变化', [
      k('k-m-trans-rotate', '旋转与中心对称'),
      k('k-m-trans-similar', '相似'),
      k('k-m-trans-trig', '锐角三角函数'),
      k('k-m-trans-view', '投影与视图'),
    ]),
  ]),
  k('k-m-stat', '统计与概率', [
    k('k-m-stat-collect', '数据的收集', [
      k('k-m-stat-census', '全面调查与抽样调查'),
      k('k-m-stat-sample', '总体、个体、样本与样本容量'),
    ]),
    k('k-m-stat-describe', '数据的整理与描述', [
      k('k-m-stat-table', '数据的整理与统计表'),
      k('k-m-stat-bar', '条形图'),
      k('k-m-stat-pie', '扇形图'),
      k('k-m-stat-line', '折线图'),
      k('k-m-stat-hist', '频数分布直方图'),
      k('k-m-stat-estimate', '用样本估计总体'),
    ]),
    k('k-m-stat-analysis', '数据的分析', [
      k('k-m-stat-mean', '平均数'),
      k('k-m-stat-median', '中位数与众数'),
      k('k-m-stat-variance', '方差'),
    ]),
    k('k-m-prob', '概率', [
      k('k-m-prob-event', '随机事件'),
      k('k-m-prob-list', '用列举法求概率'),
      k('k-m-prob-freq', '用频率估计概率'),
    ]),
  ]),
];

const CHINESE: KnowledgeSeed[] = [
  k('k-c-basic', '积累与运用', [
    k('k-c-pinyin', '字音'),
    k('k-c-char', '字形'),
    k('k-c-word', '词语运用'),
    k('k-c-sentence', '病句辨析与修改'),
    k('k-c-rhetoric', '修辞手法'),
    k('k-c-punct', '标点符号'),
    k('k-c-recite', '古诗文默写'),
    k('k-c-literature', '文学常识'),
    k('k-c-classics', '名著阅读'),
  ]),
  k('k-c-read', '阅读', [
    k('k-c-read-modern', '现代文阅读', [
      k('k-c-read-lang', '品味语言'),
      k('k-c-read-theme', '理解情感与主旨'),
      k('k-c-read-narrative', '记叙的要素与顺序'),
      k('k-c-read-method', '写作手法'),
    ]),
    k('k-c-read-classical', '文言文阅读', [
      k('k-c-wy-word', '文言实词与虚词'),
      k('k-c-wy-translate', '文言句子翻译'),
      k('k-c-wy-content', '文言文内容理解'),
    ]),
    k('k-c-read-poem', '古诗词鉴赏', [
      k('k-c-poem-image', '意象与意境'),
      k('k-c-poem-emotion', '诗歌的思想感情'),
    ]),
  ]),
  k('k-c-write', '写作', [
    k('k-c-write-narrative', '记叙文写作'),
    k('k-c-write-detail', '细节描写'),
    k('k-c-write-topic', '命题与半命题作文'),
  ]),
];

const ENGLISH: KnowledgeSeed[] = [
  k('k-e-vocab', '词汇', [
    k('k-e-noun', '名词'),
    k('k-e-pron', '代词'),
    k('k-e-num', '数词'),
    k('k-e-prep', '介词'),
    k('k-e-adj', '形容词和副词'),
    k('k-e-phrase', '固定搭配'),
  ]),
  k('k-e-grammar', '语法', [
    k('k-e-be', 'be 动词'),
    k('k-e-present', '一般现在时'),
    k('k-e-there-be', 'there be 句型'),
    k('k-e-wh', '特殊疑问句'),
    k('k-e-imperative', '祈使句'),
    k('k-e-can', '情态动词 can'),
    k('k-e-progressive', '现在进行时'),
  ]),
  k('k-e-comm', '交际用语', [k('k-e-greet', '问候与介绍'), k('k-e-ask', '询问与回答')]),
  k('k-e-read', '阅读理解', [
    k('k-e-read-detail', '细节理解'),
    k('k-e-read-main', '主旨大意'),
    k('k-e-read-infer', '推理判断'),
    k('k-e-read-word', '词义猜测'),
  ]),
  k('k-e-cloze', '完形填空', [k('k-e-cloze-context', '语境理解与词语辨析')]),
  k('k-e-write', '书面表达', [k('k-e-write-intro', '介绍类短文'), k('k-e-write-letter', '书信与电子邮件')]),
];

const PHYSICS: KnowledgeSeed[] = [
  k('k-p-motion', '机械运动', [
    k('k-p-motion-measure', '长度和时间的测量'),
    k('k-p-motion-error', '误差'),
    k('k-p-motion-ref', '参照物与运动的相对性'),
    k('k-p-motion-speed', '速度及其计算'),
    k('k-p-motion-avg', '平均速度及其测量'),
  ]),
  k('k-p-sound', '声现象', [
    k('k-p-sound-source', '声音的产生与传播'),
    k('k-p-sound-feature', '音调、响度与音色'),
    k('k-p-sound-use', '声的利用'),
    k('k-p-sound-noise', '噪声的危害和控制'),
  ]),
  k('k-p-state', '物态变化', [
    k('k-p-state-temp', '温度与温度计'),
    k('k-p-state-melt', '熔化和凝固'),
    k('k-p-state-vapor', '汽化和液化'),
    k('k-p-state-sublime', '升华和凝华'),
  ]),
  k('k-p-light', '光现象', [
    k('k-p-light-straight', '光的直线传播'),
    k('k-p-light-reflect', '光的反射'),
    k('k-p-light-mirror', '平面镜成像'),
    k('k-p-light-refract', '光的折射'),
    k('k-p-light-disperse', '光的色散'),
  ]),
  k('k-p-lens', '透镜及其应用', [
    k('k-p-lens-basic', '透镜及其对光的作用'),
    k('k-p-lens-image', '凸透镜成像的规律'),
    k('k-p-lens-eye', '眼睛和眼镜'),
    k('k-p-lens-app', '生活中的透镜'),
  ]),
  k('k-p-density', '质量与密度', [
    k('k-p-mass', '质量及其测量'),
    k('k-p-density-concept', '密度'),
    k('k-p-density-measure', '密度的测量'),
    k('k-p-density-app', '密度的应用'),
  ]),
];

export const KNOWLEDGE_TREES: Record<SubjectName, KnowledgeSeed[]> = {
  数学: MATH,
  语文: CHINESE,
  英语: ENGLISH,
  物理: PHYSICS,
};
