/*
 * A small IPP/1.1–2.0 message encoder and decoder (RFC 8010): enough for Get-Printer-Attributes, Print-Job,
 * Get-Job-Attributes and Cancel-Job against network printers and CUPS. Collections are decoded into objects.
 */

export const IPP_OPERATION = {
  printJob: 0x0002,
  cancelJob: 0x0008,
  getJobAttributes: 0x0009,
  getPrinterAttributes: 0x000b,
} as const;

export const IPP_GROUP = { operation: 0x01, job: 0x02, end: 0x03, printer: 0x04, unsupported: 0x05 } as const;

export const IPP_TAG = {
  unsupported: 0x10,
  unknown: 0x12,
  noValue: 0x13,
  integer: 0x21,
  boolean: 0x22,
  enum: 0x23,
  octetString: 0x30,
  dateTime: 0x31,
  resolution: 0x32,
  rangeOfInteger: 0x33,
  begCollection: 0x34,
  textWithLanguage: 0x35,
  nameWithLanguage: 0x36,
  endCollection: 0x37,
  text: 0x41,
  name: 0x42,
  keyword: 0x44,
  uri: 0x45,
  uriScheme: 0x46,
  charset: 0x47,
  naturalLanguage: 0x48,
  mimeMediaType: 0x49,
  memberAttrName: 0x4a,
} as const;

export type IppValue = string | number | boolean | null | IppValue[] | { [key: string]: IppValue };

/** An attribute to encode: its value tag and one or more values. */
export interface IppAttribute {
  tag: number;
  name: string;
  value: string | number | boolean | (string | number | boolean)[];
}

export interface IppRequest {
  operation: number;
  requestId: number;
  operationAttributes: IppAttribute[];
  jobAttributes?: IppAttribute[];
  version?: [number, number];
}

export interface IppResponse {
  version: [number, number];
  statusCode: number;
  requestId: number;
  /** Attribute groups in order, by group name (operation, job, printer, unsupported). */
  groups: { group: keyof typeof IPP_GROUP | 'other'; attributes: Record<string, IppValue> }[];
}

const INTEGER_TAGS = new Set<number>([IPP_TAG.integer, IPP_TAG.enum]);

function encodeValue(tag: number, value: string | number | boolean): Buffer {
  if (INTEGER_TAGS.has(tag)) {
    const b = Buffer.alloc(4);
    b.writeInt32BE(Number(value));
    return b;
  }
  if (tag === IPP_TAG.boolean) return Buffer.from([value ? 1 : 0]);
  return Buffer.from(String(value), 'utf8');
}

function encodeAttribute(attr: IppAttribute): Buffer {
  const values = Array.isArray(attr.value) ? attr.value : [attr.value];
  const parts: Buffer[] = [];
  values.forEach((v, i) => {
    const name = i === 0 ? Buffer.from(attr.name, 'utf8') : Buffer.alloc(0);
    const data = encodeValue(attr.tag, v);
    const head = Buffer.alloc(3);
    head[0] = attr.tag;
    head.writeUInt16BE(name.length, 1);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(data.length);
    parts.push(head, name, len, data);
  });
  return Buffer.concat(parts);
}

/** Encodes a request's header and attributes (the document, if any, follows it). */
export function encodeIppRequest(request: IppRequest): Buffer {
  const head = Buffer.alloc(8);
  const [major, minor] = request.version ?? [2, 0];
  head[0] = major;
  head[1] = minor;
  head.writeUInt16BE(request.operation, 2);
  head.writeUInt32BE(request.requestId, 4);
  const parts = [
    head,
    Buffer.from([IPP_GROUP.operation]),
    ...request.operationAttributes.map(encodeAttribute),
  ];
  if (request.jobAttributes?.length)
    parts.push(Buffer.from([IPP_GROUP.job]), ...request.jobAttributes.map(encodeAttribute));
  parts.push(Buffer.from([IPP_GROUP.end]));
  return Buffer.concat(parts);
}

const GROUP_NAMES = new Map<number, keyof typeof IPP_GROUP>(
  Object.entries(IPP_GROUP).map(([k, v]) => [v, k as keyof typeof IPP_GROUP]),
);

function decodeValue(tag: number, data: Buffer): IppValue {
  switch (tag) {
    case IPP_TAG.integer:
    case IPP_TAG.enum:
      return data.length === 4 ? data.readInt32BE(0) : null;
    case IPP_TAG.boolean:
      return data[0] === 1;
    case IPP_TAG.rangeOfInteger:
      return data.length === 8 ? [data.readInt32BE(0), data.readInt32BE(4)] : null;
    case IPP_TAG.resolution:
      return data.length === 9 ? [data.readInt32BE(0), data.readInt32BE(4), data[8]!] : null;
    case IPP_TAG.dateTime:
      return data.toString('hex');
    case IPP_TAG.textWithLanguage:
    case IPP_TAG.nameWithLanguage: {
      const langLen = data.readUInt16BE(0);
      const textLen = data.readUInt16BE(2 + langLen);
      return data.toString('utf8', 4 + langLen, 4 + langLen + textLen);
    }
    case IPP_TAG.unsupported:
    case IPP_TAG.unknown:
    case IPP_TAG.noValue:
      return null;
    default:
      return data.toString('utf8');
  }
}

/** Decodes a response; throws on a truncated or malformed message. */
export function decodeIppResponse(buf: Buffer): IppResponse {
  if (buf.length < 9) throw new Error('IPP response too short');
  let pos = 8;
  const need = (n: number) => {
    if (pos + n > buf.length) throw new Error('IPP response truncated');
  };
  const response: IppResponse = {
    version: [buf[0]!, buf[1]!],
    statusCode: buf.readUInt16BE(2),
    requestId: buf.readUInt32BE(4),
    groups: [],
  };
  let attributes: Record<string, IppValue> | undefined;
  let lastName = '';
  // Collections being read: the object, its pending member name, the attribute it belongs to.
  const stack: { obj: Record<string, IppValue>; member: string; outerName: string }[] = [];

  // Names that already hold several values, per object (a single value may itself be an array: a range).
  const multi = new WeakMap<object, Set<string>>();
  const add = (target: Record<string, IppValue>, name: string, value: IppValue, additional: boolean) => {
    if (!additional || !(name in target)) {
      target[name] = value;
      return;
    }
    let names = multi.get(target);
    if (!names) multi.set(target, (names = new Set()));
    if (!names.has(name)) {
      target[name] = [target[name]!];
      names.add(name);
    }
    (target[name] as IppValue[]).push(value);
  };

  while (pos < buf.length) {
    const tag = buf[pos]!;
    pos++;
    if (tag === IPP_GROUP.end) break;
    if (tag < 0x10) {
      attributes = {};
      response.groups.push({ group: GROUP_NAMES.get(tag) ?? 'other', attributes });
      continue;
    }
    need(2);
    const nameLen = buf.readUInt16BE(pos);
    pos += 2;
    need(nameLen + 2);
    const name = buf.toString('utf8', pos, pos + nameLen);
    pos += nameLen;
    const valueLen = buf.readUInt16BE(pos);
    pos += 2;
    need(valueLen);
    const data = buf.subarray(pos, pos + valueLen);
    pos += valueLen;
    if (!attributes) throw new Error('IPP attribute outside a group');
    const additional = nameLen === 0;
    const top = stack.at(-1);

    if (tag === IPP_TAG.begCollection) {
      const obj: Record<string, IppValue> = {};
      const outerName = additional ? (top ? top.member : lastName) : name;
      if (!additional && !top) lastName = name;
      stack.push({ obj, member: '', outerName });
      continue;
    }
    if (tag === IPP_TAG.endCollection) {
      const done = stack.pop();
      if (!done) throw new Error('IPP endCollection without a collection');
      const parent = stack.at(-1);
      if (parent) add(parent.obj, done.outerName, done.obj, parent.obj[done.outerName] !== undefined);
      else add(attributes, done.outerName, done.obj, attributes[done.outerName] !== undefined);
      continue;
    }
    if (tag === IPP_TAG.memberAttrName && top) {
      top.member = data.toString('utf8');
      continue;
    }
    const value = decodeValue(tag, data);
    if (top) {
      add(top.obj, top.member, value, top.obj[top.member] !== undefined);
      continue;
    }
    if (!additional) lastName = name;
    add(attributes, additional ? lastName : name, value, additional);
  }
  return response;
}

/** All attributes of one group kind, merged (a response has one operation group and usually one of the other). */
export function groupOf(response: IppResponse, group: IppResponse['groups'][number]['group']) {
  return Object.assign(
    {},
    ...response.groups.filter((g) => g.group === group).map((g) => g.attributes),
  ) as Record<string, IppValue>;
}

/** Whether an IPP status code is a success (0x0000–0x00ff). */
export const ippOk = (status: number) => status < 0x0100;

/** Readable names of the common IPP error statuses (for logs and messages). */
export const IPP_STATUS: Record<number, string> = {
  0x0400: 'client-error-bad-request',
  0x0401: 'client-error-forbidden',
  0x0402: 'client-error-not-authenticated',
  0x0403: 'client-error-not-authorized',
  0x0404: 'client-error-not-possible',
  0x0406: 'client-error-not-found',
  0x040a: 'client-error-document-format-not-supported',
  0x040b: 'client-error-attributes-or-values-not-supported',
  0x0500: 'server-error-internal-error',
  0x0501: 'server-error-operation-not-supported',
  0x0503: 'server-error-version-not-supported',
  0x0506: 'server-error-not-accepting-jobs',
  0x0507: 'server-error-busy',
};
