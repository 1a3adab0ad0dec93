/** 使用说明: the product's own help pages (issue #22), the journey of one homework from paper to analysis. */
export const zhCNHelp = {
  title: '使用说明',
  intro:
    '一份作业从组卷到学情分析的完整流程：组卷 → 答题卡 → 打印 → 扫描 → 阅卷 → 分析。每一步都在本系统内完成，无需联网访问其他网站。',
  toc: '目录',
  figure: (n: number, title: string) => `图 ${n}\u3000${title}`,
  steps: [
    {
      id: 'compose',
      title: '一、组卷',
      image: 'compose.png',
      text: '在「智能组卷」里按教材章节、知识点、题型和难度选题，点「加入试题篮」；或用「智能组卷」按题型题量和目标难度系数自动选题。右侧试题篮显示已选题数，点「进入组卷中心」调整题序和分值后保存定稿。难度系数即得分率（0–1，越高越容易）。',
    },
    {
      id: 'card',
      title: '二、答题卡',
      image: 'card.png',
      text: '试卷定稿后点「答题卡」：选择纸张（A4 单栏或 A3 多栏），客观题排成涂卡区，主观题留出作答框；每页都带二维码，扫描时可自动识别页码和学生。',
    },
    {
      id: 'print',
      title: '三、发布与打印',
      image: 'print.png',
      text: '在「作业列表」点「发布作业」，选择班级和起止日期（按学校所在时区计日）。发布后可打印试卷、答题卡和学生二维码标签；标签名单直接取自本校学生名册。',
    },
    {
      id: 'scan',
      title: '四、扫描',
      image: 'scan.png',
      text: '学生作答后，在作业上点「扫描」，用学校的扫描仪连续扫描答题卡。识别异常（未识别学生、多涂、漏页等）会单独列出，逐张处理即可，不影响其他答卷。',
    },
    {
      id: 'mark',
      title: '五、阅卷',
      image: 'mark.png',
      text: '顶部菜单「阅卷/考试」进入阅卷：按题批改主观题，数字键打分、回车提交并进入下一份。客观题已按答案自动判分。',
    },
    {
      id: 'analyse',
      title: '六、学情分析',
      image: 'analyse.png',
      text: '阅卷完成后在「学情分析」查看年级、班级和学生三个层面的成绩、各题得分率与区分度、知识点掌握和典型错误。',
    },
  ],
} as const;
