/**
 * Chinese messages that cross the wire or that SPEC §5/§8 fixes verbatim.
 * Server and clients both read them from here so the exact strings cannot drift.
 */
export const MESSAGES = {
  notFound: '很抱歉，资源未找到',
  forbidden: '很抱歉，您暂无该操作权限',
  internal: '系统内部异常，请联系网站管理员',
  databaseUnavailable: '数据库连接中断，请稍后重试',
  refreshTokenInvalid: 'refresh token无效',
  downloadFailed: '下载失败',
  scanNeedsYear: '请选择学年后再进行扫描',
  scanReselect: '请重新选择扫描仪',
  noDefaultYear: '暂无默认学年',
  addSuccess: '添加成功',
  unauthorized: '登录已过期，请重新登录',
  badCredentials: '用户名或密码错误',
  badClient: '客户端认证失败',
  captchaRequired: '请输入图形验证码',
  captchaWrong: '图形验证码错误或已过期',
  loginDelayed: (seconds: number) => `登录失败次数过多，请${seconds}秒后再试`,
  rateLimited: (seconds: number) => `操作过于频繁，请${seconds}秒后再试`,
  registerLimited: '注册过于频繁，请稍后再试',
  requestTooLarge: '请求的网址或请求头过长，请检查后重试',
  accountDisabled: '该账号已被停用，请联系学校管理员',
  noSchool: '您尚未加入任何学校',
  invalidParams: '请求参数不正确',
  archiveTooLarge: '文件解压后过大或内容过多（可能是异常文件），已拒绝。请检查文件后重新上传',
  documentTooComplex:
    '文件内容过于复杂，无法在限定的时间和内存内处理（可能是异常文件），请检查或拆分后重新上传',
  requestAborted: '请求已取消',
  networkError: '网络连接失败，请检查网络后重试',
  timeout: (ms: number) => `请求超时（${ms}毫秒），请稍后重试`,
  ok: '操作成功',
} as const;

/** Form messages of SPEC §5. */
export const FORM_MESSAGES = {
  username: '请输入用户名',
  password: '请输入密码',
  captcha: '请输入图形验证码',
  sms: '请输入短信验证码',
  nickname: '请输入昵称',
} as const;
