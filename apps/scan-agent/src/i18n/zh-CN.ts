import { MESSAGES } from '@zhzy/contracts';

/** Every Chinese text of the agent that a person reads: API answers, notices, CLI output. */
export const T = {
  hostRefused: '拒绝访问：扫描助手只接受本机请求',
  originRefused: '拒绝访问：该网页无权使用扫描助手',
  unauthorized: '请先与扫描助手配对',
  tokenWrongOrigin: '配对凭证与当前网页不符，请重新配对',
  scriptOnly: '此操作只能在本机命令行中进行',
  pairingNoCode: '配对码已失效，请在网页上重新发起配对',
  pairingWrongCode: (left: number) => `配对码不正确，还可尝试 ${left} 次`,
  pairingTooMany: '配对码错误次数过多，请重新发起配对',
  pairingNeedsOrigin: '只有网页才能通过配对码配对',
  pairingShown: (origin: string, code: string, minutes: number) =>
    `网页 ${origin} 请求与扫描助手配对。配对码：${code}（${minutes}分钟内有效）`,
  rateLimited: '请求过于频繁，请稍后再试',
  notFound: MESSAGES.notFound,
  invalidParams: MESSAGES.invalidParams,
  internal: '扫描助手内部错误，请查看扫描助手日志',
  bodyTooLarge: '请求内容过大',
  reselectScanner: MESSAGES.scanReselect,
  scannerBusy: '扫描仪正在使用中，请稍后再试',
  batchNotFound: '扫描批次不存在',
  pageNotFound: '扫描页不存在',
  batchDone: '该批次已结束扫描',
  batchScanning: '该批次正在扫描中',
  hostNotAllowed: '上传地址不在扫描助手允许的范围内',
  virtualOnly: '只有虚拟扫描仪可以使用演示答题卡设置',

  // Device notices (SANE status, eSCL AdfState, WIA errors, NAPS2 messages all map here).
  feederEmpty: '进纸器中没有纸张，请放入答题卡后点击“继续扫描”',
  feederEmptyDone: '进纸器已扫描完毕，可放入更多答题卡继续扫描',
  jam: '扫描仪卡纸，请取出卡住的纸张，把未扫描的答题卡重新放入进纸器后继续扫描',
  doubleFeed: '检测到重张进纸（多张纸同时进入），请把最后几张答题卡重新放入进纸器后继续扫描',
  coverOpen: '扫描仪盖板未关闭，请合上盖板后继续扫描',
  busy: '扫描仪正忙或被其他程序占用，请关闭其他扫描软件后重试',
  ioError: '与扫描仪通信失败，请检查数据线或网络连接后重试',
  offline: '扫描仪未连接或已关机',
  unknownDevice: '找不到所选扫描仪，请重新选择扫描仪',
  accessDenied: '没有使用该扫描仪的权限',
  interrupted: '扫描助手重启，扫描已中断。请检查进纸器，放回未扫描的答题卡后继续扫描',
  scanFailed: (detail: string) => `扫描失败：${detail}`,
  pdfNeedsPoppler: '无法读取 PDF：本机未安装 pdftoppm（poppler-utils），请安装后重试，或改为导出图片',
  unreadableFile: (name: string) => `无法读取文件 ${name}，已跳过（原文件保留在扫描文件夹中）`,
  pageUnreadable: '扫描仪送来的图片无法解码',

  // Uploads
  uploadOffline: '暂时无法连接服务器，稍后自动重试',
  uploadRefused: (message: string) => `服务器拒收该页：${message}`,
  uploadTokenExpired: '上传凭证已过期，请在扫描页面重新开始上传',

  // CLI
  cliUsage: [
    '用法：scan-agent <命令> [选项]',
    '',
    '  start                 启动扫描助手（默认端口 17310，只监听 127.0.0.1）',
    '  status                显示扫描助手是否在运行、版本与批次',
    '  list                  列出本机可用的扫描仪',
    '  scan --out 目录       扫描一批答题卡到指定文件夹（--scanner 序号 --pages 数量 --paper A4 --simplex）',
    '  pair                  显示网页配对所需的配对码',
    '  install-service       安装为当前用户的开机自启（--mode systemd|xdg|winsw，--dry-run 只显示不写入）',
    '  uninstall-service     移除开机自启',
  ].join('\n'),
  cliNotRunning: '扫描助手未运行。请先运行 scan-agent start',
  cliRunning: (version: string, port: number) => `扫描助手 ${version} 正在运行（127.0.0.1:${port}）`,
  cliNoScanners: '未找到扫描仪',
  cliPairCode: (code: string, until: string) =>
    `配对码：${code}（有效期至 ${until}）。请在网页的“连接扫描助手”窗口中输入。`,
  cliScanDone: (pages: number, dir: string) => `已扫描 ${pages} 页，保存在 ${dir}`,
  cliRootWarning: '警告：不建议以管理员（root）身份运行扫描助手，请以当前用户身份运行。',
  cliUnknownCommand: (cmd: string) => `未知命令：${cmd}`,
  cliListening: (port: number) =>
    `扫描助手已启动：http://127.0.0.1:${port}（websocket：ws://127.0.0.1:${port}/ws）`,
  cliServiceWritten: (file: string) => `已写入 ${file}`,
  cliServiceRemoved: (file: string) => `已删除 ${file}`,
} as const;
