/**
 * Every user-facing Chinese text of the web app. SPEC strings are verbatim; wire messages come from the
 * contracts so the client and the host cannot drift apart.
 */
import { FORM_MESSAGES, MESSAGES } from '@zhzy/contracts/messages';

export { FORM_MESSAGES, MESSAGES };

/** Title and a sentence of what each screen does (page titles, the data centre's overview cards). */
export const SCREENS = {
  userset: { title: '个人中心', description: '在这里修改个人资料、头像和密码，查看消息，并向我们反馈问题。' },
  feedback: { title: '问题反馈', description: '遇到问题或有好的建议？在这里留言，我们会尽快回复。' },
  edit: { title: '组卷中心', description: '调整试题顺序与分值、替换相似题，完成后生成试卷与答题卡。' },
  paperset: { title: '试卷设置', description: '设置试卷标题、考试时长、分值与答题卡版式。' },
  scan: { title: '扫描', description: '连接扫描仪批量扫描答题卡，自动识别学生与客观题作答。' },
  teamDetails: { title: '学校设置', description: '管理学校信息、学年、班级、教师与教研组。' },
  teamMember: { title: '团队管理', description: '管理员在这里邀请教师、分配角色与班级。' },
  teamGroup: { title: '我的团队', description: '查看所在教研组的成员与共享资源。' },
  invite: { title: '邀请加入', description: '通过邀请链接加入学校或教研组。' },
  schoolmaterials: { title: '校本资料', description: '浏览和下载学校共享的教学资料。' },
  paperbinding: { title: '校本资料', description: '把校本资料与试卷、章节关联起来，方便统一管理。' },
  analysisGrade: { title: '年级分析', description: '查看年级整体成绩、分数段、及格率与优秀率。' },
  analysisClass: { title: '班级分析', description: '对比各班平均分、超均率与每道题的得分率。' },
  analysisPerson: { title: '个人分析', description: '查看每位学生的成绩趋势、知识点掌握情况与错题。' },
  correct: { title: '阅卷', description: '按题块在线批阅主观题，支持双评与仲裁。' },
  write: { title: '批阅', description: '逐份批阅学生作答，键盘输入分数，回车提交并进入下一份。' },
  paperlist: { title: '作业列表', description: '查看已布置的作业与考试，跟踪扫描、批阅与分析进度。' },
  printTest: { title: '打印测试', description: '打印一页测试页，检查打印机与纸张是否正常。' },
  printing: { title: '打印', description: '打印试卷与答题卡，支持通用卡和每位学生一张的个性化卡。' },
  printGrade: { title: '打印成绩', description: '按班级打印成绩单。' },
  printAnswer: { title: '打印答案', description: '打印试卷的参考答案与解析。' },
  printCode: { title: '打印二维码', description: '打印学生身份二维码。' },
  printBarcode: { title: '打印条形码', description: '打印学生考号条形码贴纸。' },
  printGradeTest: { title: '打印成绩测试', description: '预览成绩单的打印效果。' },
  bigData: { title: '大数据', description: '全校教学数据的汇总看板。' },
  largescreen: { title: '大屏展示', description: '在教室或会议室的大屏上展示学情数据。' },
  answerCard: { title: '答题卡', description: '设计与预览答题卡版式，客观题与主观题在同一张卡上。' },
  assistantAnalysis: { title: '数据分析', description: '按作业查看得分率、难度与区分度。' },
  assistantCommentary: { title: '作业讲评', description: '根据错误率自动挑出需要讲评的题目与典型错误。' },
  assistantDetails: { title: '作业详情', description: '查看每位学生的作答与得分明细。' },
  assistantReport: { title: '报告', description: '生成可打印、可导出的作业分析报告。' },
  dataSubject: { title: '学科统计', description: '按学科统计作业布置与完成情况。' },
  dataCorrectScore: { title: '作业批阅报告', description: '查看各班、各教师的批阅进度与得分情况。' },
  dataAverageScore: { title: '班级均分对比', description: '对比各班平均分与每道题的得分率。' },
  rehearseIntellect: { title: '智能组卷', description: '按知识点、题型和难度比例自动生成试卷。' },
  rehearseSynchronization: {
    title: '同步课堂',
    description: '按教材章节选择课前预习、课后作业、随堂练习与单元测试。',
  },
  rehearseGoods: { title: '模板试卷', description: '从精选模板试卷开始，稍作修改即可使用。' },
  rehearseMistakes: { title: '错题重练', description: '把学生的错题和相似题组成一份重练作业。' },
  cloudPersonPaper: { title: '我的试卷', description: '管理自己组过的试卷，随时再次使用。' },
  cloudSchoolPaper: { title: '校本资源', description: '浏览学校老师共享的试卷。' },
  cloudSchoolQuestions: { title: '校本题库', description: '管理学校自己的试题。' },
  cloudRecycleBin: { title: '回收站', description: '找回最近删除的试卷与试题。' },
  cloudPaperSetting: { title: '试题设置', description: '设置试题的题型、难度、知识点与解析。' },
} as const;

export const zhCN = {
  appName: '智能作业',
  tagline: '组卷、答题卡、扫描识别、网上阅卷与学情分析，一站完成。',
  loading: '加载中…',
  retry: '重试',
  close: '关闭',
  cancel: '取消',
  confirm: '确定',
  backHome: '返回首页',
  backTop: '返回顶部',
  date: {
    placeholder: '年-月-日',
    open: (label: string) => `${label}：打开日历`,
    month: (y: number, m: number) => `${y}年${m}月`,
    prev: '上个月',
    next: '下个月',
    weekdays: ['一', '二', '三', '四', '五', '六', '日'],
    day: (y: number, m: number, d: number) => `${y}年${m}月${d}日`,
    today: '今天',
    clear: '清除',
  },
  skipToContent: '跳到主要内容',
  pageLoadFailed: '页面加载失败，请刷新后重试',
  refresh: '刷新页面',

  nav: {
    label: '主导航',
    paperlist: '作业列表',
    analysis: '学情分析',
    rehearse: '智能组卷',
    cloudResources: '校本资源',
    exam: '阅卷/考试',
    dataCenter: '数据中心',
    bigData: '数据大屏',
    largescreen: '大屏展示',
    more: '菜单',
    opensNewTab: '（在新标签页打开）',
  },

  topBar: {
    logo: '智能作业首页',
    schoolLogo: (name: string) => `${name}校徽`,
    schoolYear: '默认学年',
    noDefaultYear: MESSAGES.noDefaultYear,
    savingYear: '正在切换学年…',
    scan: '扫描答题卡',
    /** Starts with the name the button shows (WCAG 2.5.3: the accessible name contains the visible label). */
    userMenu: (name: string) => `${name}，用户菜单`,
    userset: '个人中心',
    schoolSettings: '学校设置',
    signOut: '退出登录',
    loginRegister: '登录/注册',
  },

  sideBar: {
    label: '快捷工具',
    basket: '试题篮',
    basketCount: (n: number) => `试题篮，共 ${n} 题`,
    feedback: '问题反馈',
    help: '使用说明',
    app: '手机端',
    appQr: '扫码下载手机端',
    siteQr: '手机扫码打开智能作业',
    appQrAlt: '手机端二维码',
  },

  basket: {
    title: '试题篮',
    paper: '试卷',
    choosePaper: '请选择试卷',
    paperLabel: (stageName: string, subjectName: string) => `${stageName} - ${subjectName}`,
    total: (n: number) => `共 ${n} 题`,
    type: '题型',
    count: '数量',
    action: '操作',
    deleteRow: (name: string) => `删除${name}`,
    delete: '删除',
    clear: '清空',
    enter: '进入组卷中心',
    empty: '试题篮是空的',
    fallback: (paper: string) => `当前所选学段学科还没有试题，下面是「${paper}」的试题篮。`,
    emptyHint: '在“智能组卷”里把试题加入试题篮，再来这里组卷。',
    goPick: '去选题',
    cleared: '已清空试题篮',
    deleted: '已删除',
  },

  auth: {
    dialogTitle: '欢迎使用智能作业',
    login: '登录',
    register: '注册',
    username: '用户名',
    password: '密码',
    password2: '确认密码',
    nickname: '昵称',
    captcha: '图形验证码',
    captchaImage: '图形验证码，点击换一张',
    refreshCaptcha: '换一张',
    sms: '短信验证码',
    smsHint: '选填。绑定手机后可用短信找回密码。',
    placeholder: {
      username: FORM_MESSAGES.username,
      password: FORM_MESSAGES.password,
      password2: '请再次输入密码',
      nickname: FORM_MESSAGES.nickname,
      captcha: FORM_MESSAGES.captcha,
      sms: FORM_MESSAGES.sms,
    },
    usernameRule: '4–32 位字母、数字、下划线或短横线',
    passwordRule: '至少 8 位，包含字母和数字',
    submitLogin: '登录',
    submitting: '请稍候…',
    submitRegister: '注册',
    registered: '注册成功，请登录',
    agree: '登录即表示同意',
    protocol: '《用户协议》',
    backToLogin: '我已阅读，返回登录',
    captchaLoadFailed: '图形验证码加载失败，点击重试',
  },

  footer: {
    products: '产品线',
    productLines: ['智能作业系统', '理科考试系统', '宿舍睡眠系统'],
    support: '技术支持',
    supportLines: ['软件更新', '硬件服务', '7×24小时售后响应'],
    about: '关于我们',
    aboutUs: '关于我们',
    protocol: '用户协议',
    phone: (p: string) => `服务热线：${p}`,
    examSite: '网上考试平台',
  },

  home: {
    title: '智能作业',
    headline: '让每一份作业都有回音',
    lead: '从题库选题组卷，打印试卷与答题卡，用扫描仪批量识别，在线批阅主观题，自动生成年级、班级与学生学情分析。',
    start: '登录开始使用',
    features: [
      { title: '智能组卷', text: '按教材章节与知识点选题，五级难度筛选，一键加入试题篮。' },
      { title: '答题卡与打印', text: '客观题与主观题同卡，支持通用卡、个性化卡与条形码贴纸。' },
      { title: '扫描识别', text: '普通办公扫描仪即可，异常答题卡单独列出，一键修正。' },
      { title: '网上阅卷', text: '按题块批阅、匿名批阅，键盘输分，支持双评与仲裁。' },
      { title: '学情分析', text: '得分率、区分度、超均率，年级、班级、学生三级报告。' },
      { title: '数据中心', text: '年级主任跨班、跨学科查看作业与成绩数据。' },
    ],
    demoTitle: '一份试卷的题型构成',
    demoLead: '组卷时按题型归类，试题篮随时显示每种题型的数量。',
    demoCount: (n: number) => `${n} 题`,
    demoUnit: '题',
    demoTotal: (n: number) => `共 ${n} 题`,
    stepsTitle: '四步完成一次作业',
    steps: ['选题组卷', '打印答题卡', '扫描识别', '批阅与分析'],
  },

  notFound: {
    title: '页面不存在',
    text: '您访问的页面不存在或已被移动。',
  },

  forbidden: MESSAGES.forbidden,

  pagination: {
    label: '分页',
    prev: '上一页',
    next: '下一页',
    page: (n: number) => `第 ${n} 页`,
    summary: (page: number, pages: number) => `${page} / ${pages}`,
  },

  toast: {
    region: '通知',
    close: '关闭通知',
  },

  dataCenter: {
    title: '数据中心',
    lead: '年级主任在这里跨班级、跨学科查看作业数据。',
  },

  rehearse: { title: '智能组卷', select: '选题组卷' },
  analysis: { title: '学情分析' },
  assistant: { title: '助手' },
  team: { title: '团队' },
  print: { title: '打印' },

  aboutUs: {
    title: '关于我们',
    paragraphs: (company: string) => [
      `${company}专注于中小学作业与考试的数字化。我们相信，作业是教与学之间最频繁的对话：老师布置、学生作答、老师批改、再讲评。我们做的，是让这场对话少一些重复劳动，多一些看得见的反馈。`,
      '从题库选题组卷、打印答题卡，到用学校现有的办公扫描仪批量识别，再到在线批阅与学情分析，我们希望老师用熟悉的纸笔方式布置作业，同时得到准确、及时的数据。每一所学校的数据都彼此隔离，学生信息只用于教学。',
    ],
  },
  progress: '加载进度',

  protocol: {
    title: '智能作业用户协议',
  },

  // ───────────── issue 4: question bank, composition and cloud resources ─────────────

  ui: {
    subject: '学科',
    allSubjects: '全部学科',
    chooseSubject: '请选择学科',
    expand: (name: string) => `展开或收起“${name}”`,
  },
} as const;

export const t = zhCN;

// ───────────── issue 6: the /scan screen, the scan settings dialog and the scan agent ─────────────

/** Texts of the /scan screen (its own section so the catalogue's other sections stay untouched). */
export const zhCNScan = {
  lead: '用办公扫描仪批量扫描答题卡，扫好的每一页会实时出现在下方，并自动上传到服务器。',
  bound: {
    title: (homework: string) => `扫描 · ${homework}`,
    lead: '本次扫描的答题卡都归入这份作业，下方只显示这份作业的扫描批次。',
    other: '扫描其他作业',
  },
  start: '开始扫描',
  starting: '正在准备…',
  settings: '扫描设置',
  settingsSummary: '当前设置',

  dialog: {
    title: '扫描设置',
    scanner: '扫描仪',
    scannerPlaceholder: '请选择扫描仪',
    noScanner: '未检测到扫描仪',
    refresh: '重新检测',
    loadingScanners: '正在检测扫描仪…',
    adaptive: '自适应',
    paperSize: '纸张大小',
    duplex: '双面扫描',
    subjectTeacher: '是否分配给学科老师',
    virtualSheets: '演示扫描仪纸张数',
    virtualSheetsHint: '演示扫描仪每次放入的答题卡张数（1–200）',
    virtualHomework: '演示作业',
    virtualDemoCard: '内置演示卡（不属于任何作业）',
    virtualHomeworkOption: (title: string, classes: string) => (classes ? `${title}（${classes}）` : title),
    virtualHomeworkHint: '选择一份已发布的作业：演示扫描仪按它的答题卡，为每名学生填好一张个性化答题卡',
    yes: '是',
    no: '否',
    save: '保存',
    saved: '扫描设置已保存',
    chooseScanner: '请选择扫描仪',
  },
  paperNames: { A4: 'A4', A3: 'A3', B5: 'B5', B4: 'B4', '16k': '16开' },
  summary: {
    scanner: '扫描仪',
    none: '未选择',
    paper: '纸张',
    adaptive: '自适应',
    duplex: '双面',
    subjectTeacher: '分配给学科老师',
    yes: '是',
    no: '否',
  },

  agent: {
    title: '扫描助手',
    idle: '扫描助手会在开始扫描时自动连接。',
    connect: '连接扫描助手',
    checking: '正在连接扫描助手…',
    connecting: '正在连接扫描助手…',
    reconnecting: '与扫描助手的连接已断开，正在重新连接…',
    ready: (version: string) => `已连接扫描助手 ${version}`,
    unreachable: '未检测到扫描助手',
    unreachableText:
      '扫描仪需要通过本机的“扫描助手”连接。请确认这台电脑已安装并启动扫描助手，然后点击“重新检测”。',
    outdated: (has: number, wants: number) =>
      `扫描助手版本过旧（协议版本 ${has}，网页需要 ${wants}），请升级扫描助手后再试。`,
    recheck: '重新检测',
    unpair: '取消配对',
    unpaired: '已取消与扫描助手的配对',
    helpTitle: '如何安装并启动扫描助手',
    noAgentUpload: '没有扫描助手？也可以直接上传已扫描好的图片或 PDF。',
    unreachableMessage: '无法连接扫描助手，请确认扫描助手已启动',
    badAnswer: '扫描助手的回答无法识别，请升级扫描助手',
  },

  download: {
    button: (os: string) => `下载扫描助手（${os}）`,
    platforms: { 'win32-x64': 'Windows', 'linux-x64': 'Linux', 'darwin-x64': 'macOS（Intel 版）' },
    facts: (version: string, mb: string) => `版本 ${version} · ${mb} MB`,
    otherOs: '其他系统：',
    none: '服务器上还没有扫描助手安装包，请联系学校信息老师。',
    steps: [
      '下载并运行安装程序。不需要管理员权限，安装后每次登录 Windows 自动启动，不会出现黑色窗口。',
      '安装完成后会自动打开「扫描助手配对码」页面；以后也可以在开始菜单「智能作业 扫描助手 → 扫描助手配对码」中打开。',
      '回到本页点击“重新检测”，再点击“连接扫描助手”，把配对页上的 6 位数字输入对话框。',
    ],
    it: '信息老师批量安装：zhzy-scan-agent-setup.exe /S /HOST=本网站地址（/ALLUSERS 以 Windows 服务安装；安装程序旁的 agent.conf 会作为设置使用）。',
    lnaTitle: '浏览器询问“访问本地网络上的设备”？',
    lnaText:
      '请点击“允许”。网页需要这一许可才能连接这台电脑上的扫描助手（它只在本机 127.0.0.1 上提供服务，不会访问其他设备）。',
    lnaDenied:
      '浏览器已阻止本网站访问本地网络，无法连接扫描助手。请点击地址栏左侧的图标 → 网站设置 → “本地网络访问”改为“允许”，然后刷新本页。',
    updateAvailable: (has: string, latest: string) => `扫描助手有新版本 ${latest}（这台电脑上是 ${has}）。`,
    updateHint: '下载并运行新的安装程序即可升级，已扫描未上传的页面和配对都会保留。',
    updateButton: '下载新版本',
    selfUpdateHint: '点击“更新”，扫描助手会自动下载、校验并重新启动；已扫描未上传的页面和配对都会保留。',
    selfUpdateButton: '更新',
    updating: '正在更新扫描助手，请稍候…',
    updated: (v: string) => `扫描助手已更新到 ${v}`,
    updateTimeout: '扫描助手更新后没有按时启动。请在开始菜单打开「扫描助手配对码」，或重新安装扫描助手。',
  },

  pairing: {
    title: '连接扫描助手',
    intro: '第一次在这台电脑上使用扫描时，需要把网页与扫描助手配对。配对只需一次。',
    step1: '确认扫描助手已在这台电脑上运行。',
    step2:
      '点击“连接”，然后在开始菜单打开「智能作业 扫描助手 → 扫描助手配对码」（或在浏览器打开 http://127.0.0.1:17310/pair），页面上会用大号数字显示 6 位配对码。',
    step3: '把配对码输入下方并点击“确认配对”。配对保存在这台电脑上，退出登录后也不需要重新配对。',
    connect: '连接',
    requested: (time: string) => `配对码已生成，${time} 前有效。请查看扫描助手配对码页面。`,
    code: '配对码',
    codePlaceholder: '6 位数字',
    confirm: '确认配对',
    again: '重新获取配对码',
    paired: '已与扫描助手配对',
  },

  batch: {
    title: '本批扫描',
    none: '还没有扫描批次',
    states: { scanning: '扫描中', paused: '已暂停', done: '已结束' },
    scanned: '已扫描',
    uploaded: '已上传',
    failed: '上传失败',
    blank: '空白页',
    pause: '暂停',
    resume: '继续扫描',
    finish: '结束',
    retry: '重试失败的上传',
    finished: '本批扫描已结束，已扫描的页面会继续上传',
    renewing: '上传凭证已过期，正在重新获取…',
    renewed: '已重新获取上传凭证，继续上传',
    notices: '扫描提示',
    device: '扫描仪',
    summary: (pages: number, uploaded: number) => `共扫描 ${pages} 页，已上传 ${uploaded} 页`,
  },

  viewer: {
    label: '扫描预览',
    empty: '还没有扫描的页面',
    emptyHint: '把答题卡放入扫描仪进纸器，点击“开始扫描”。扫好的每一页会出现在这里。',
    scanning: '正在扫描…',
    page: (seq: number) => `第 ${seq} 页`,
    front: '正面',
    back: '背面',
    blank: '空白页',
    upload: { local: '未上传', pending: '等待上传', uploaded: '已上传', failed: '上传失败' },
    retryIn: (s: number) => `${s} 秒后重试`,
    duplicate: '已上传过',
    thumbAlt: (seq: number, name: string) => `第 ${seq} 页：${name}`,
  },

  upload: {
    title: '从文件上传',
    lead: '选择扫描好的答题卡文件（JPEG、PNG、多页 TIFF 或 PDF），每一页会单独上传。',
    choose: '选择文件',
    drop: '或把文件拖到这里',
    accept: '支持 JPEG、PNG、TIFF、PDF',
    splitting: (name: string) => `正在拆分 ${name}…`,
    unsupported: (name: string) => `不支持的文件：${name}。请上传 JPEG、PNG、TIFF 或 PDF 文件`,
    unreadable: (name: string) => `无法读取文件 ${name}，请确认文件完整后重试`,
    pageName: (name: string, page: number) => `${name} 第 ${page} 页`,
    done: (n: number) => `已上传 ${n} 页`,
    retry: '重试失败的页面',
    clear: '清空列表',
  },

  photo: {
    open: '手机拍照',
    title: '手机拍照',
    lead: '没有扫描仪时，用手机或电脑摄像头逐张拍摄答题卡：把整张答题卡放进取景框，四角的黑色方块都在画面里，拿稳不动就会自动拍下并上传。',
    starting: '正在打开摄像头…',
    denied: '没有摄像头权限：请在浏览器地址栏点击摄像头图标，允许本网站使用摄像头后点“重新打开摄像头”。',
    unavailable:
      '这个浏览器打不开摄像头（需要用 HTTPS 地址访问，或浏览器不支持）。可以用下面的“用相机拍一张”，或用手机相机拍好后从文件上传。',
    retry: '重新打开摄像头',
    capture: '拍照',
    cameraInput: '用相机拍一张',
    hints: {
      noCard: '请把整张答题卡放进取景框，四角的黑色方块都要在画面里',
      tooSmall: '答题卡太小，请把手机靠近一些',
      tooDark: '光线太暗，请到亮一些的地方',
      glare: '答题卡上有反光，请换个角度',
      blurred: '画面模糊，请拿稳手机等对焦清晰',
      hold: '已找到答题卡，请保持不动…',
      taken: '已拍好，请换下一张答题卡',
    },
    videoLabel: '摄像头画面',
    shots: '已拍摄',
    shotLabel: (n: number) => `第 ${n} 张`,
    retake: (n: number, reason: string) => `第 ${n} 张未通过：${reason}`,
    status: { uploading: '正在上传…', accepted: '已上传', refused: '未通过，请重拍', failed: '上传失败' },
    summary: (accepted: number, refused: number) =>
      refused > 0 ? `已上传 ${accepted} 张，${refused} 张未通过需要重拍` : `已上传 ${accepted} 张`,
    done: '完成',
    uploaded: (n: number) => `已上传 ${n} 张照片，正在识别`,
  },

  rescan: {
    button: '重扫',
    buttonLabel: (seq: number) => `重扫第 ${seq} 页`,
    title: '重扫答题卡',
    sheet: (seqs: number[]) =>
      seqs.length > 1
        ? `将重新扫描第 ${seqs.join('、')} 页所在的这张答题卡（正反两面），扫描后替换原来的页面，页序不变。`
        : `将重新扫描第 ${seqs[0] ?? ''} 页，扫描后替换原来的页面，页序不变。`,
    hint: '请先把这张答题卡单独放入扫描仪进纸器，再点击“开始重扫”。',
    confirm: '开始重扫',
    started: '正在重扫，扫描后会替换原来的页面',
    waiting: '等待重扫',
    done: '已重扫',
  },
} as const;

// ───────────── issue 5: the answer-card designer (/answerCard) ─────────────

/** Texts of the answer-card designer. */
export const zhCNCards = {
  title: '答题卡设计',
  missingTitle: '请选择要设计答题卡的试卷',
  missingHint: '在组卷中心点击“答题卡”，或在作业列表中选择一份作业的“设计答题卡”。',
  loadFailed: '答题卡加载失败，请返回后重试',
  goCompose: '去组卷',
  goList: '作业列表',
  backToEdit: '返回组卷',
  paperMode: (title: string) => `试卷：${title}`,
  homeworkMode: (title: string, version: number) => `作业：${title} · 当前为第 ${version} 版答题卡`,
  status: { saved: '已保存', unsaved: '有未保存的修改', defaults: '默认设置，尚未保存' },
  save: '保存答题卡',
  saveVersion: '保存为新版本',
  saved: '答题卡已保存',
  savedVersion: (v: number) => `已保存为第 ${v} 版答题卡；之前打印的答题卡仍可正常识别`,
  unchanged: '设置与当前版本相同，没有生成新版本',
  readOnlyPaper: '这份试卷不是您的，只能查看答题卡，不能保存修改。',
  readOnlyHomework: '只有发布这次作业的老师可以修改答题卡，您可以查看和打印。',
  publish: '发布作业',
  publishHint: '答题卡在发布作业时定版。发布后即可在作业列表中下载、打印每位学生的答题卡。',
  printPaper: '打印试卷',
  saveBeforePrint: '请先保存修改，再打印答题卡',
  settings: {
    heading: '版式设置',
    size: '纸张',
    sizes: { A4: 'A4', A3: 'A3', B4: 'B4', '16k': '16开' },
    columns: '分栏',
    columnNames: { 1: '单栏', 2: '双栏', 3: '三栏' },
    onlyColumns: (size: string, columns: string) => `${size} 答题卡为${columns}`,
    identity: '学生识别方式',
    identities: {
      qr: { label: '二维码（个性化）', hint: '每位学生一张，印好姓名、考号和二维码，扫描时自动识别学生。' },
      bubbles: { label: '考号填涂', hint: '通用答题卡，学生填写考号并用2B铅笔涂黑对应数字。' },
      barcode: { label: '条形码粘贴', hint: '通用答题卡，学生把考号条形码贴在粘贴区内。' },
    },
    digits: '考号位数',
    digitsValue: (n: number) => `${n} 位`,
    group: '客观题分组',
    groupValue: (n: number) => `每组 ${n} 题`,
    maxPages: '页数上限',
    maxPagesValue: (n: number) => `${n} 页`,
    sealingLine: '印密封线',
  },
  boxes: {
    heading: '主观题答题区',
    hint: '拖动答题区的下边缘调整高度；也可以用 Tab 键选中答题区的下边缘，再按 ↑ ↓ 键每次调整 2 毫米。',
    adjusted: (n: number) => (n === 0 ? '全部为默认高度' : `已调整 ${n} 个答题区`),
    reset: '恢复默认高度',
    resizeLabel: (number: string | null) => (number ? `第${number}题答题区高度` : '选做题答题区高度'),
    height: (mm: number) => `${mm} 毫米`,
  },
  check: {
    heading: '版式检查',
    ok: (pages: number) => `检查通过：共 ${pages} 页，答题区大小合适。`,
    perStudent: (pages: number, size: string) => `每名学生 ${pages} 页，${paperSheets(size, pages, 1)}`,
    locate: '定位',
    failed: '当前设置无法排版：有答题区放不进任何一栏，请减小答题区高度或增加分栏。',
  },
  pages: {
    label: '答题卡页面',
    of: (n: number) => `第 ${n} 页`,
    total: (n: number) => `共 ${n} 页`,
    prev: '上一页',
    next: '下一页',
  },
  preview: (title: string, n: number, total: number) => `${title} 答题卡预览，第 ${n} 页，共 ${total} 页`,
  words: {
    gridLabel: (label: string) => `${label}（用2B铅笔填涂）`,
    barcodeHint: '（请将条形码横贴在此框内）',
    chosenNumber: '所选题号',
  },
  zoomIn: '放大预览',
  zoomFit: '适应宽度',
  qrNote: '预览中的二维码是通用码；打印个性化答题卡时，每位学生的二维码都含有其身份信息，并印上姓名和考号。',
  leave: {
    title: '离开答题卡设计？',
    body: '有修改尚未保存，离开后这些修改将丢失。',
    confirm: '不保存，离开',
  },
} as const;

// ───────────── issue 5: the print pages and the card print dialog ─────────────

const COLUMN_NAMES: Record<number, string> = { 1: '单栏', 2: '双栏', 3: '三栏' };
const IDENTITY_NAMES = { qr: '二维码个性化', bubbles: '考号填涂', barcode: '条形码粘贴' } as const;
const CARD_SIZE_NAMES = { A4: 'A4', A3: 'A3', B4: 'B4', '16k': '16开' } as const;

/** The sheets of paper a card takes for `students` students: one a page, or both sides of a sheet when it has more. */
function paperSheets(size: string, pages: number, students: number): string {
  const name = CARD_SIZE_NAMES[size as keyof typeof CARD_SIZE_NAMES] ?? size;
  return pages === 1
    ? `用 ${name} 纸 ${students} 张`
    : `双面打印用 ${name} 纸 ${students * Math.ceil(pages / 2)} 张`;
}

/** Texts of /printing, /printanswer, /printcode, /printBarcode, /pringtingtest, /printgrade, /printgradetest. */
export const zhCNPrint = {
  print: '打印',
  close: '关闭',
  backToList: '返回作业列表',
  sizes: CARD_SIZE_NAMES,
  identity: IDENTITY_NAMES,

  cards: {
    button: '打印答题卡',
    title: '打印答题卡',
    summary: (size: string, columns: number, pages: number, version: number, identity: string) =>
      `${CARD_SIZE_NAMES[size as keyof typeof CARD_SIZE_NAMES] ?? size} ${COLUMN_NAMES[columns] ?? ''} · 每份 ${pages} 页 · 第 ${version} 版 · ${identity}`,
    kind: '打印内容',
    kinds: {
      students: {
        label: '个性化答题卡',
        hint: '每位学生一份，印好姓名、班级、考号和专属二维码，扫描时自动识别学生。',
      },
      generic: { label: '通用答题卡', hint: '只生成一份，复印后发给学生；学生自己填涂考号或粘贴条形码。' },
    },
    changeIdentity: '去修改学生识别方式',
    classes: '班级',
    classOption: (name: string, students: number) => `${name}（${students} 人）`,
    total: (students: number, pages: number, size: string) =>
      `共 ${students} 名学生，每名学生 ${pages} 页，合计 ${students * pages} 页（${paperSheets(size, pages, students)}）`,
    pickClass: '请至少选择一个班级',
    scaleNote:
      '打印时请在打印设置中选择“实际大小”（100%，不缩放），不要选“适合页面”，否则答题卡可能无法识别。第一次使用某台打印机时，建议先打印校准页检查。',
    calibrate: '打印校准页',
    download: '下载 PDF',
    progress: (size: string) => `正在生成，已下载 ${size}…`,
    downloaded: (name: string) => `已下载“${name}”。`,
    openPdf: '在浏览器中打开并打印',
    filePersonal: (title: string) => `${title}-个性化答题卡.pdf`,
    fileGeneric: (title: string) => `${title}-通用答题卡.pdf`,
  },

  paper: {
    title: '打印试卷',
    missing: '请选择要打印的试卷',
    missingHint: '在作业列表中选择一份作业的“打印试卷”，或在组卷中心、答题卡设计中点击“打印试卷”。',
    failed: '试卷加载失败，请返回后重试',
    myPapers: '我的试卷',
    toAnswers: '打印答案',
    withAnswers: '在试卷末尾附参考答案',
    note: (layout: string) =>
      `版式按试卷设置：${layout}。点击“打印”后，请在打印设置中选择对应纸张，并关闭“页眉和页脚”。`,
    sizeName: (size: string, columns: number) => `${size} ${COLUMN_NAMES[columns] ?? ''}`,
    sealing: '密封线内不要答题',
    examMinutes: (m: number) => `考试时间：${m} 分钟`,
    fullScore: (s: number) => `满分：${s} 分`,
    scoreNo: '题号',
    scoreTotal: '总分',
    scoreGot: '得分',
    notice: '注意事项：',
    deleted: '（该题已从题库中删除）',
    answer: '答案：',
    none: '暂无',
    answersHeading: '参考答案',
  },

  answer: {
    title: '打印答案',
    heading: '参考答案与解析',
    sheetLabel: (title: string) => `${title} 参考答案`,
    toPaper: '打印试卷',
    withAnalysis: '包含解析与知识点',
    withQuestions: '包含题目',
    quick: '选择题答案速查',
    no: '题号',
    key: '答案',
    analysis: '解析：',
    points: (names: string) => `知识点：${names}`,
  },

  code: {
    title: '打印学生二维码',
    subtitle: '按常用不干胶标签纸排版，每位学生一张标签，二维码下印姓名和学号。',
    sheet: '标签纸',
    sheets: {
      'a4-3x8': 'A4 3×8（70×37 毫米，24 张）',
      'a4-2x5': 'A4 2×5（105×57 毫米，10 张）',
      'a4-4x10': 'A4 4×10（52.5×29.7 毫米，40 张）',
    },
    kind: '码制',
    kinds: { qr: '二维码', barcode: '条形码' },
    className: '班级',
    chooseClass: '请选择班级',
    skip: '跳过已用标签',
    rosterPlaceholder:
      '从 Excel 复制“学号、姓名”两列粘贴到这里，每行一名学生，例如：\n20260101\t张三\n20260102\t李四',
    forHomework: (title: string) => `作业：${title}`,
    loading: '正在读取学生名册…',
    fromRoster: (className: string) => `名单取自本校学生名册（${className}）。`,
    summary: (students: number, pages: number, per: number) =>
      students === 0
        ? `每张标签纸 ${per} 张标签。`
        : `共 ${students} 名学生，需要 ${pages} 张标签纸（每张 ${per} 张标签）。`,
    qrNote:
      '二维码内容为学号，可用扫码枪或手机扫码登记。答题卡“条形码粘贴区”识别的是条形码，请改用条形码，或',
    toBarcode: '在“打印条形码”中制作',
    barcodeNote:
      '条形码为学号的 CODE128 码，可贴在答题卡的“条形码粘贴区”（62×32 毫米以内，建议用 A4 4×10 标签纸）。',
    empty: '选择班级后，这里会按所选标签纸排好每位学生的标签。',
    emptyClass: '这个班级还没有学生，请先在学校管理中添加学生。',
    qrLabel: (number: string) => `学号 ${number} 的二维码`,
    line: (number: string, className: string) => `${number} · ${className}`,
  },

  barcode: {
    title: '打印条形码',
    subtitle: '每行一个条码，生成后点击“打印”。默认条宽 2、高度 100、字号 20、边距 10（像素）。',
    format: '码制',
    formats: {
      code128: 'CODE128',
      ean13: 'EAN-13',
      ean8: 'EAN-8',
      upca: 'UPC-A',
      itf14: 'ITF-14',
      code39: 'CODE39',
      pharmacode: 'Pharmacode（药品码）',
      qrcode: '二维码',
    },
    width: '条宽',
    height: '高度',
    fontSize: '字号',
    margin: '边距',
    showText: '显示文字',
    defaults: '恢复默认',
    content: '条码内容（每行一个）',
    placeholder: {
      code128: '例如：20260101',
      ean13: '例如：6901234567892',
      ean8: '例如：96385074',
      upca: '例如：036000291452',
      itf14: '例如：10614141000415',
      code39: '例如：ZY-2026',
      pharmacode: '例如：1234',
      qrcode: '例如：七年级(1)班 张三 20260101',
    },
    rules: {
      code128:
        '规则：英文字母、数字和常用符号（ASCII 可打印字符），最多 80 个字符。学生考号条形码请用 CODE128。',
      ean13: '规则：13 位数字，最后一位是校验位；只输入前 12 位时会提示正确的校验位。',
      ean8: '规则：8 位数字，最后一位是校验位。',
      upca: '规则：12 位数字，最后一位是校验位。',
      itf14: '规则：14 位数字，最后一位是校验位。',
      code39: '规则：大写字母 A–Z、数字 0–9、空格和 - . $ / + %，最多 43 个字符。',
      pharmacode: '规则：3 到 131070 之间的整数。',
      qrcode: '规则：任意文字，最多 500 个字符。',
    },
    problems: {
      empty: '请输入条码内容',
      tooLong: (name: string, max: number) => `${name} 内容过长：最多 ${max} 个字符`,
      code128Char: (c: string) =>
        `CODE128 只能包含英文字母、数字和常用符号（ASCII 可打印字符），不能包含“${c}”`,
      code39Char: (c: string) => `CODE39 只能包含大写字母 A–Z、数字 0–9、空格和 - . $ / + %，不能包含“${c}”`,
      digitsOnly: (name: string) => `${name} 只能包含数字`,
      digitCount: (name: string, expected: number, actual: number, completed: string | null) =>
        `${name} 需要 ${expected} 位数字（最后一位是校验位），当前为 ${actual} 位` +
        (completed ? `；如果前 ${expected - 1} 位无误，完整号码应为 ${completed}` : ''),
      checkDigit: (name: string, expected: number, actual: number) =>
        `${name} 校验位不正确：按前面的数字计算，最后一位应为 ${expected}，而不是 ${actual}`,
      pharmacodeNumber: 'Pharmacode 只能是整数，取值范围 3 到 131070',
      pharmacodeRange: (v: number) => `Pharmacode 的取值范围是 3 到 131070，${v} 超出了范围`,
    },
    lineError: (line: number, message: string) => `第 ${line} 行：${message}`,
    renderFailed: (message: string) => `无法生成条码（${message}）`,
    empty: '在上方输入条码内容，每行一个，这里会显示生成的条码。',
    loading: '正在加载条码组件…',
    codeLabel: (format: string, text: string) => `${format} 条码：${text}`,
  },

  test: {
    title: '打印校准页',
    subtitle: '检查打印机是否按 100% 实际大小打印答题卡。',
    size: '答题卡纸张',
    scaleNote:
      '请按 100% 打印：在打印设置中选择“实际大小”（不缩放），关闭“适合页面”“缩小超大页面”和“页眉和页脚”。打印后用直尺量两条标尺，都应正好 100 毫米。',
    sheetLabel: (size: string, w: number, h: number) => `${size} 校准页（${w} × ${h} 毫米）`,
    sheetTitle: '答题卡打印校准页',
    sheetSize: (size: string, w: number, h: number) =>
      `纸张：${size}（${w} × ${h} 毫米），请按 100% 实际大小打印`,
    rulerH: '横向标尺：应为 100 毫米',
    rulerV: '纵向标尺：应为 100 毫米',
    square: '50 × 50 毫米',
    steps: (anchor: number, inset: number) => [
      '1. 用直尺量横向、纵向两条标尺：都应为 100 毫米，误差不超过 0.5 毫米。',
      `2. 四角的黑色定位块边长 ${anchor} 毫米，外边离纸边各 ${inset} 毫米，位置与答题卡完全相同。`,
      '3. 若标尺短了（例如 97 毫米），说明打印机在缩放：请在打印设置中选择“实际大小”后重新打印。',
      '4. 若定位块缺了一部分，说明纸张放歪或纸张尺寸设置不对，请检查后重新打印。',
    ],
    footer: '定位块被裁切或标尺不足 100 毫米时，请勿用这台打印机的当前设置打印答题卡',
  },

  grade: {
    title: '打印成绩单',
    testTitle: '打印考试成绩单',
    pick: '选择要打印成绩单的作业',
    pickFailed: '作业列表加载失败，请稍后重试',
    noHomework: '还没有发布作业',
    failed: '作业加载失败，请返回后重试',
    classLabel: '班级',
    allClasses: '全部班级',
    toTest: '按大题汇总（考试格式）',
    toQuestions: '按小题登分（作业格式）',
    noScores: (state: string) =>
      `这份作业当前状态为“${state}”，还没有成绩：阅卷完成后，学生姓名与各题得分会自动填入成绩单。现在可以打印空白登分表用于手工登记。`,
    roster: '填入学生名单（可选，从 Excel 复制“学号、姓名”两列粘贴）',
    sheetLabel: (name: string) => `${name} 成绩单`,
    sheetTitle: (title: string, className: string) => `${title} · ${className} 成绩单`,
    meta: (subject: string, type: string, start: string, due: string, total: number, students: number) =>
      `${subject} · ${type} · ${start} 至 ${due} · 满分 ${total} 分 · ${students} 人`,
    seq: '序号',
    number: '学号',
    examNumber: '考号',
    name: '姓名',
    total: '总分',
    rank: '名次',
    objective: '客观题',
    subjective: '主观题',
    points: (n: number) => `${n}分`,
    footer: '登分人：__________　核对人：__________　日期：__________',
    orderLabel: '排序',
    orderNumber: '按学号',
    orderRank: '按总分',
    fromResults: (printedAt: string) => `成绩取自阅卷结果（${printedAt}），与学情分析一致。`,
    pendingNote: (n: number) =>
      `其中 ${n} 名学生还有题目未阅完，总分栏暂记“阅卷中”，阅卷完成后刷新本页即可。`,
    resultsFailed: '成绩加载失败，下面是空白登分表；请稍后刷新重试。',
    summary: (average: number, max: number, min: number, passRate: number) =>
      `平均分 ${average} · 最高分 ${max} · 最低分 ${min} · 及格率 ${Math.round(passRate * 1000) / 10}%`,
    counts: (scored: number, pending: number, absent: number) =>
      `已出分 ${scored} 人 · 阅卷中 ${pending} 人 · 缺考 ${absent} 人`,
  },
} as const;

// ───────────── issue 9 (first part): the homework list and publishing (/paperlist) ─────────────

/** Texts of /paperlist and the 发布作业 dialog. */
export const zhCNHomework = {
  title: '作业列表',
  lead: '发布给本学年班级的作业与考试，状态随扫描和阅卷进度自动更新。',
  publishButton: '发布作业',
  goCompose: '去组卷',
  cancel: '取消',
  retry: '重试',
  loading: '正在加载作业…',
  loadFailed: '作业列表加载失败',
  mine: '我发布的',
  total: (n: number) => `共 ${n} 份作业`,
  noMatch: '没有符合条件的作业',
  noMatchHint: '换个班级、学科或日期，或清除筛选条件。',
  empty: {
    title: '还没有发布作业',
    steps: [
      '发布第一份作业只需三步：',
      '1. 在“智能组卷”中选题组卷，保存为定稿；',
      '2. 在组卷中心点击“答题卡”，调整答题卡版式；',
      '3. 点击“发布作业”，选择试卷、班级和日期。发布后即可打印每位学生的答题卡。',
    ],
  },
  types: { homework: '作业', test: '考试' },
  states: { toScan: '待扫描', scanning: '扫描中', marking: '阅卷中', done: '已完成' },
  sizes: CARD_SIZE_NAMES,
  identity: IDENTITY_NAMES,
  filters: {
    label: '筛选作业',
    all: '全部',
    class: '班级',
    subject: '学科',
    type: '类型',
    state: '状态',
    from: '日期',
    to: '至',
    mine: '只看我发布的',
    clear: '清除筛选',
    toggle: (n: number) => (n > 0 ? `筛选（${n}）` : '筛选'),
    subjectName: (stage: string, subject: string) => `${stage}${subject}`,
  },
  row: {
    meta: (stage: string, subject: string, count: number, score: number) =>
      `${stage}${subject} · ${count} 题 · 满分 ${score} 分`,
    dates: (start: string, due: string) => `${start} 至 ${due}`,
    classes: (names: string, students: number) => `${names}（共 ${students} 人）`,
    by: (name: string) => `发布人：${name}`,
    card: (size: string, columns: number, pages: number, version: number, identity: string) =>
      `答题卡：${size} ${COLUMN_NAMES[columns] ?? ''} · ${pages} 页 · 第 ${version} 版 · ${identity}`,
  },
  actions: {
    print: '打印答题卡',
    scan: '扫描',
    mark: '阅卷',
    analyse: '分析',
    more: '更多',
    moreOf: (title: string) => `${title}的更多操作`,
    design: '设计答题卡',
    printPaper: '打印试卷',
    printAnswer: '打印答案',
    printCode: '打印学生二维码',
    scoreSheet: '打印成绩单',
    scoreSheetTest: '打印考试成绩单',
    delete: '删除',
  },
  deleteTitle: '删除作业',
  deleteBody: (title: string) =>
    `确定删除“${title}”吗？删除后作业不再出现在列表中，已扫描的答题卡也不再归入这份作业；此操作不能撤销。`,
  deleted: (title: string) => `已删除“${title}”`,
  publish: {
    title: '发布作业',
    paper: '试卷',
    paperPrefix: '试卷：',
    otherPaper: '换一份试卷',
    searchPaper: '搜索我的试卷',
    noPapers: '还没有试卷，先去组一份吧。',
    noMatch: '没有找到这份试卷',
    emptyPaper: '没有试题，不能发布',
    paperMeta: (stage: string, subject: string, count: number, score: number) =>
      `${stage}${subject} · ${count} 题 · ${score} 分`,
    pickPaper: '请选择要发布的试卷',
    titleLabel: '作业名称',
    type: '类型',
    classes: '班级',
    classesFailed: '班级加载失败，请关闭后重试',
    noYear: '请先在页面顶部选择默认学年，再发布作业。',
    noClasses: '当前学年还没有班级，请联系学校管理员添加。',
    all: '全选',
    none: '全不选',
    startDate: '开始日期',
    dueDate: '截止日期',
    subjectTeacher: '是否分配给学科老师',
    yes: '是',
    no: '否',
    freezeNote: '发布时会按当前的试卷和答题卡定版；之后修改答题卡会生成新版本，已打印的答题卡仍可识别。',
    submit: '发布',
    done: (title: string) => `已发布“${title}”，可以在列表中打印答题卡了`,
  },
} as const;
