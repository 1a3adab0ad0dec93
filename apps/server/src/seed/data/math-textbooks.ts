import type { ChapterSeed, TextbookSeed } from './types.js';

/**
 * 人教版 junior-high mathematics, chapter → numbered section.
 * 七年级上册/下册 follow the 2024 edition (in schools from autumn 2024 / spring 2025);
 * 八年级 and 九年级 follow the classic 2012 edition, whose chapter numbers (第十一章…第二十九章)
 * continue that edition's own 七年级 volumes.
 * 数学活动, 小结 and 复习题 are left out. Section keys are `${chapterKey}-${n}`, n being the number after the dot.
 */
function chapter(
  textbookKey: string,
  no: number,
  cn: string,
  title: string,
  sections: string[],
): ChapterSeed {
  const key = `${textbookKey}-${no}`;
  return {
    key,
    name: `第${cn}章 ${title}`,
    sections: sections.map((name, i) => ({ key: `${key}-${i + 1}`, name: `${no}.${i + 1} ${name}` })),
  };
}

export const MATH_TEXTBOOKS: TextbookSeed[] = [
  {
    key: 'm7a',
    subject: '数学',
    publisher: '人教版',
    name: '七年级上册',
    chapters: [
      chapter('m7a', 1, '一', '有理数', ['正数和负数', '有理数及其大小比较']),
      chapter('m7a', 2, '二', '有理数的运算', ['有理数的加法与减法', '有理数的乘法与除法', '有理数的乘方']),
      chapter('m7a', 3, '三', '代数式', ['列代数式表示数量关系', '代数式的值']),
      chapter('m7a', 4, '四', '整式的加减', ['整式', '整式的加法与减法']),
      chapter('m7a', 5, '五', '一元一次方程', ['方程', '解一元一次方程', '实际问题与一元一次方程']),
      chapter('m7a', 6, '六', '几何图形初步', ['几何图形', '直线、射线、线段', '角']),
    ],
  },
  {
    key: 'm7b',
    subject: '数学',
    publisher: '人教版',
    name: '七年级下册',
    chapters: [
      chapter('m7b', 7, '七', '相交线与平行线', ['相交线', '平行线', '定义、命题、定理', '平移']),
      chapter('m7b', 8, '八', '实数', ['平方根', '立方根', '实数及其简单运算']),
      chapter('m7b', 9, '九', '平面直角坐标系', ['用坐标描述平面内点的位置', '用坐标表示平移']),
      chapter('m7b', 10, '十', '二元一次方程组', [
        '二元一次方程组的概念',
        '消元——解二元一次方程组',
        '实际问题与二元一次方程组',
        '三元一次方程组的解法',
      ]),
      chapter('m7b', 11, '十一', '不等式与不等式组', ['不等式', '一元一次不等式', '一元一次不等式组']),
      chapter('m7b', 12, '十二', '数据的收集、整理与描述', [
        '统计调查',
        '常用统计图',
        '课题学习 从数据谈节水',
      ]),
    ],
  },
  {
    key: 'm8a',
    subject: '数学',
    publisher: '人教版',
    name: '八年级上册',
    chapters: [
      chapter('m8a', 11, '十一', '三角形', ['与三角形有关的线段', '与三角形有关的角', '多边形及其内角和']),
      chapter('m8a', 12, '十二', '全等三角形', ['全等三角形', '三角形全等的判定', '角的平分线的性质']),
      chapter('m8a', 13, '十三', '轴对称', ['轴对称', '画轴对称图形', '等腰三角形', '课题学习 最短路径问题']),
      chapter('m8a', 14, '十四', '整式的乘法与因式分解', ['整式的乘法', '乘法公式', '因式分解']),
      chapter('m8a', 15, '十五', '分式', ['分式', '分式的运算', '分式方程']),
    ],
  },
  {
    key: 'm8b',
    subject: '数学',
    publisher: '人教版',
    name: '八年级下册',
    chapters: [
      chapter('m8b', 16, '十六', '二次根式', ['二次根式', '二次根式的乘除', '二次根式的加减']),
      chapter('m8b', 17, '十七', '勾股定理', ['勾股定理', '勾股定理的逆定理']),
      chapter('m8b', 18, '十八', '平行四边形', ['平行四边形', '特殊的平行四边形']),
      chapter('m8b', 19, '十九', '一次函数', ['函数', '一次函数', '课题学习 选择方案']),
      chapter('m8b', 20, '二十', '数据的分析', [
        '数据的集中趋势',
        '数据的波动程度',
        '课题学习 体质健康测试中的数据分析',
      ]),
    ],
  },
  {
    key: 'm9a',
    subject: '数学',
    publisher: '人教版',
    name: '九年级上册',
    chapters: [
      chapter('m9a', 21, '二十一', '一元二次方程', [
        '一元二次方程',
        '解一元二次方程',
        '实际问题与一元二次方程',
      ]),
      chapter('m9a', 22, '二十二', '二次函数', [
        '二次函数的图象和性质',
        '二次函数与一元二次方程',
        '实际问题与二次函数',
      ]),
      chapter('m9a', 23, '二十三', '旋转', ['图形的旋转', '中心对称', '课题学习 图案设计']),
      chapter('m9a', 24, '二十四', '圆', [
        '圆的有关性质',
        '点和圆、直线和圆的位置关系',
        '正多边形和圆',
        '弧长和扇形面积',
      ]),
      chapter('m9a', 25, '二十五', '概率初步', ['随机事件与概率', '用列举法求概率', '用频率估计概率']),
    ],
  },
  {
    key: 'm9b',
    subject: '数学',
    publisher: '人教版',
    name: '九年级下册',
    chapters: [
      chapter('m9b', 26, '二十六', '反比例函数', ['反比例函数', '实际问题与反比例函数']),
      chapter('m9b', 27, '二十七', '相似', ['图形的相似', '相似三角形', '位似']),
      chapter('m9b', 28, '二十八', '锐角三角函数', ['锐角三角函数', '解直角三角形及其应用']),
      chapter('m9b', 29, '二十九', '投影与视图', ['投影', '三视图', '课题学习 制作立体模型']),
    ],
  },
];
