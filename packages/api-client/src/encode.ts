/** Encoding of query strings, form bodies and multipart bodies, and URL joining. */

/** Values accepted in a query string or a form body; null and undefined are skipped. */
export type FieldValue = string | number | boolean | bigint | Date | null | undefined;
export type Fields = Record<string, FieldValue | readonly FieldValue[]>;

function fieldText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return JSON.stringify(value);
    default:
      return null;
  }
}

/**
 * Form/query encoding of an object: null and undefined values are skipped, arrays repeat the key,
 * dates become ISO strings and other objects JSON.
 */
export function toSearchParams(fields: object | null | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (!fields) return params;
  for (const [key, value] of Object.entries(fields)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const text = fieldText(v);
      if (text !== null) params.append(key, text);
    }
  }
  return params;
}

/** Multipart body of an object: Blobs are appended as files, other values as text (nulls skipped). */
export function toFormData(fields: object | null | undefined): FormData {
  if (fields instanceof FormData) return fields;
  const form = new FormData();
  if (!fields) return form;
  for (const [key, value] of Object.entries(fields)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v instanceof Blob) {
        const name = (v as Blob & { name?: unknown }).name;
        if (typeof name === 'string' && name !== '') form.append(key, v, name);
        else form.append(key, v);
        continue;
      }
      const text = fieldText(v);
      if (text !== null) form.append(key, text);
    }
  }
  return form;
}

/** `base` + `path` (one slash between) + the query string; absolute `http(s)://` paths are kept. */
export function joinUrl(base: string, path: string, query?: object | null): string {
  let url = /^https?:\/\//i.test(path)
    ? path
    : `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  const qs = toSearchParams(query).toString();
  if (qs) url += `${url.includes('?') ? '&' : '?'}${qs}`;
  return url;
}

/** Base64 of the UTF-8 bytes of a string (btoa alone fails outside Latin-1). */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The fixed client header of the token call: `Basic base64(clientId:clientSecret)`. */
export function basicAuthHeader(clientId: string, clientSecret: string): string {
  return `Basic ${base64Utf8(`${clientId}:${clientSecret}`)}`;
}
