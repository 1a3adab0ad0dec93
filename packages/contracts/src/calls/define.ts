import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** How a call carries its payload. */
export type Encoding = 'none' | 'query' | 'form' | 'json' | 'multipart';
/** Who may make the call: anyone, the OAuth client (Basic header), or a signed-in user (bearer). */
export type CallAuth = 'none' | 'client' | 'bearer';

export interface CallDef {
  /** Short English name, unique. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path with Fastify-style parameters, e.g. `/teacher/paper/info/:id/clearBasket`. */
  readonly path: string;
  readonly encoding: Encoding;
  readonly auth: CallAuth;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Shape of the HTTP 200 answer. */
  readonly response: z.ZodType;
}

/** Declares a call; the literal type is kept so clients and servers infer payloads and answers. */
export function defineCall<const T extends CallDef>(def: T): T {
  return def;
}

/** The commonest call: a signed-in user's GET whose inputs ride in the query string. */
export function bearerQueryCall<
  const N extends string,
  const P extends string,
  Q extends z.ZodType,
  R extends z.ZodType,
>(name: N, path: P, query: Q, response: R) {
  return defineCall({ name, method: 'GET', path, encoding: 'query', auth: 'bearer', query, response });
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

export type CallParams<C extends CallDef> = InputOf<C['params']>;
export type CallQuery<C extends CallDef> = InputOf<C['query']>;
export type CallBody<C extends CallDef> = InputOf<C['body']>;
export type CallResponse<C extends CallDef> = OutputOf<C['response']>;

/** Fills `:name` parameters of a call's path (values are URI-encoded). */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, key: string) => {
    const value = params?.[key];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
}
