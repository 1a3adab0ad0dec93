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
  loginLockedAccount: '该账号登录失败次数过多，请15分钟后再试',
  loginLockedAddress: '登录尝试过于频繁，请15分钟后再试',
  accountDisabled: '该账号已被停用，请联系学校管理员',
  noSchool: '您尚未加入任何学校',
  invalidParams: '请求参数不正确',
  archiveTooLarge: '文件解压后过大（超过200MB）或内容异常，已拒绝。请检查文件后重新上传',
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
