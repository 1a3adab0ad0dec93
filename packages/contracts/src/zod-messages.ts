import type { z } from 'zod';

// zod's own zh-CN locale keeps English type names ("期望 string，实际接收 undefined") and shows raw regular
// expressions. Teachers read these messages (the host puts them in every 400 with the field named after them), so
// every issue zod can raise gets a plain Chinese sentence here. A schema's own message still wins over these.

const TYPE_NAMES: Record<string, string> = {
  string: '文字',
  number: '数字',
  int: '整数',
  bigint: '整数',
  boolean: '是或否',
  object: '对象',
  array: '列表',
  tuple: '列表',
  record: '对象',
  map: '对象',
  set: '列表',
  date: '日期',
  file: '文件',
  null: '空值',
  undefined: '空',
  nan: '非数字',
  symbol: '符号',
  function: '函数',
  promise: '异步值',
};

const FORMAT_NAMES: Record<string, string> = {
  email: '邮箱',
  url: '网址',
  uuid: '编号',
  uuidv4: '编号',
  uuidv6: '编号',
  uuidv7: '编号',
  guid: '编号',
  cuid: '编号',
  cuid2: '编号',
  ulid: '编号',
  nanoid: '编号',
  datetime: '日期时间（如 2026-09-01T08:00:00.000Z）',
  date: '日期（如 2026-09-01）',
  time: '时间（如 08:00）',
  duration: '时长',
  ipv4: '网络地址',
  ipv6: '网络地址',
  base64: '编码',
  base64url: '编码',
  json_string: 'JSON',
  e164: '手机号',
  jwt: '令牌',
  emoji: '表情',
};

const typeName = (name: string) => TYPE_NAMES[name] ?? '其他类型';

function receivedType(input: unknown): string {
  if (input === undefined) return 'undefined';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number') return Number.isNaN(input) ? 'nan' : 'number';
  if (input instanceof Date) return 'date';
  return typeof input;
}

const quote = (value: unknown) => (typeof value === 'string' ? `“${value}”` : String(value));

/** The Chinese sentence for one zod issue (without the field: the host appends it). */
export function chineseIssueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return '不能为空';
      return `格式不正确：应为${typeName(issue.expected)}，收到的是${typeName(receivedType(issue.input))}`;
    }
    case 'invalid_value':
      if (issue.values.length === 1) return `应为 ${quote(issue.values[0])}`;
      return `应为以下之一：${issue.values.map(quote).join('、')}`;
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `不能超过 ${max} 个字`;
      if (issue.origin === 'array' || issue.origin === 'set') return `最多 ${max} 项`;
      if (issue.origin === 'file') return `文件不能超过 ${max} 字节`;
      if (issue.origin === 'date') return `日期太晚`;
      return issue.inclusive ? `不能大于 ${max}` : `应小于 ${max}`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') return min === '1' ? '不能为空' : `至少 ${min} 个字`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return min === '1' ? '至少要有一项' : `至少 ${min} 项`;
      if (issue.origin === 'file') return '文件不能为空';
      if (issue.origin === 'date') return `日期太早`;
      return issue.inclusive ? `不能小于 ${min}` : `应大于 ${min}`;
    }
    case 'invalid_format': {
      const format = issue.format;
      if (format === 'starts_with') return `应以“${String(issue.prefix)}”开头`;
      if (format === 'ends_with') return `应以“${String(issue.suffix)}”结尾`;
      if (format === 'includes') return `应包含“${String(issue.includes)}”`;
      const name = FORMAT_NAMES[format];
      return name ? `${name}格式不正确` : '格式不正确';
    }
    case 'not_multiple_of':
      return `应为 ${String(issue.divisor)} 的倍数`;
    case 'unrecognized_keys':
      return `含有不认识的字段：${issue.keys.map(quote).join('、')}`;
    case 'invalid_key':
      return '含有无效的键';
    case 'invalid_element':
      return '含有无效的值';
    case 'invalid_union':
      return '格式不正确';
    default:
      return '格式不正确';
  }
}
