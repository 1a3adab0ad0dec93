import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MESSAGES, type CallDef, type CallResponse } from '@zhzy/contracts';
import { AppError } from './errors.js';
import { CALL_TEXT } from '../i18n/messages.js';

/** Who is calling: resolved from the bearer token by the auth module. */
export interface AuthContext {
  userId: string;
  username: string;
  sessionId: string;
  /** The caller's current school (default organisation); null when they belong to none. */
  orgId: string | null;
  isCreator: boolean;
  isAdministrator: boolean;
  isGradeDirector: boolean;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface CallContext<C extends CallDef> {
  params: Out<C['params']>;
  query: Out<C['query']>;
  body: Out<C['body']>;
  auth: C['auth'] extends 'bearer' ? AuthContext : undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Authenticator = (request: FastifyRequest) => Promise<AuthContext>;
export type ClientChecker = (request: FastifyRequest) => void;

export interface CallGuards {
  authenticate: Authenticator;
  checkClient: ClientChecker;
}

/** Answers that carry tokens are never kept by a browser or a proxy. */
export function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/** A success answer in the envelope of SPEC §7. */
export function ok<T>(data: T, message: string = MESSAGES.ok): { code: number; message: string; data: T } {
  return { code: 200, message, data };
}

/** Turns zod issues into one Chinese message that names the field, and the list for `data`. */
export function describeIssues(error: z.ZodError, where: string): AppError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || where,
    message: issue.message,
  }));
  const first = issues[0];
  const message = first ? CALL_TEXT.issueWithField(first.message, first.field) : MESSAGES.invalidParams;
  return new AppError('VALIDATION', message, { data: { issues } });
}

const NUL_MESSAGE = CALL_TEXT.nulCharacter;

/** The path of the first string holding a NUL character (PostgreSQL cannot store one), or null. */
function nulPath(value: unknown, path: string[], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 20 || typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses a NUL character anywhere in the path parameters, the query or a parsed body, before any handler: text
 * columns of PostgreSQL cannot hold one, so it would otherwise surface as a 500 (found by fuzzing, ADR 0026).
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const path = nulPath(value, []);
      if (path) {
        const field = path.join('.') || where;
        throw new AppError('VALIDATION', CALL_TEXT.issueWithField(NUL_MESSAGE, field), {
          data: { issues: [{ field, message: NUL_MESSAGE }] },
        });
      }
    }
  });
}

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw describeIssues(result.error, where);
  return result.data;
}

/**
 * Registers one call of the contracts: checks who is calling, validates params, query and body
 * with the call's schemas (400 naming the field), then runs the handler. Handlers stay thin.
 */
export function registerCall<C extends CallDef>(
  app: FastifyInstance,
  guards: CallGuards,
  call: C,
  handler: (ctx: CallContext<C>) => Promise<CallResponse<C>>,
): void {
  app.route({
    method: call.method,
    url: call.path,
    handler: async (request, reply) => {
      let auth: AuthContext | undefined;
      if (call.auth === 'bearer') auth = await guards.authenticate(request);
      else if (call.auth === 'client') guards.checkClient(request);
      const ctx = {
        params: parsePart(call.params, request.params, 'params'),
        query: parsePart(call.query, request.query, 'query'),
        body: parsePart(call.body, request.body, 'body'),
        auth,
        request,
        reply,
      } as CallContext<C>;
      return handler(ctx);
    },
  });
}

// ───────────── multipart uploads ─────────────

export interface UploadLimits {
  maxBytes: number;
  /** Messages: the file is too large; no file was sent. */
  tooLarge: string;
  noFile: string;
  /** How many text fields the body may carry (20 unless told). */
  fields?: number;
}

/** A multipart body as read: the bytes of the one `file` part, the name the browser gave it, the text fields. */
export interface MultipartBody {
  file: Buffer;
  filename?: string;
  fields: Record<string, string>;
}

/** Reads a multipart body: the one `file` part (fields may come before or after it) and the text fields. */
export async function readMultipart(request: FastifyRequest, limits: UploadLimits): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  let filename: string | undefined;
  const fieldCount = limits.fields ?? 20;
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxBytes,
        files: 1,
        fields: fieldCount,
        fieldSize: 2_000,
        parts: fieldCount + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'file' && !file) {
          file = data;
          filename = part.filename;
        }
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', limits.tooLarge);
    throw new AppError('VALIDATION', limits.noFile, { detail: `multipart: ${code ?? String(error)}` });
  }
  if (!file || file.length === 0) throw new AppError('VALIDATION', limits.noFile);
  return { file, filename, fields };
}

export interface UploadOptions<A> extends UploadLimits {
  /** Who is uploading (before a byte of the body is read); the bearer's user unless told. */
  authenticate?: (request: FastifyRequest) => Promise<A>;
  /** Reads the body; `readMultipart` unless told. */
  read?: (request: FastifyRequest, limits: UploadLimits) => Promise<MultipartBody>;
  /** Shapes the refusal of invalid fields (e.g. gives it the scan's reason). */
  invalidBody?: (error: AppError) => unknown;
}

export interface UploadContext<C extends CallDef, A = AuthContext> {
  auth: A;
  params: Out<C['params']>;
  /** The call's body schema applied to the text fields plus `file` (the bytes). */
  body: Out<C['body']>;
  /** The file's bytes and the name the browser gave it. */
  file: Buffer;
  filename: string | undefined;
  request: FastifyRequest;
}

/**
 * Registers a multipart call of the contracts (in a scope that has @fastify/multipart) — the one way beside
 * `registerCall`: the caller is checked first, so an anonymous upload is refused before a byte of it is read; then
 * the params and the fields are validated by the call's own schemas, the file bytes standing in the body as `file`.
 */
export function registerUploadCall<C extends CallDef, A = AuthContext>(
  scope: FastifyInstance,
  guards: CallGuards,
  call: C,
  options: UploadOptions<A>,
  handler: (ctx: UploadContext<C, A>) => Promise<CallResponse<C>>,
): void {
  const authenticate =
    options.authenticate ?? (guards.authenticate as unknown as (r: FastifyRequest) => Promise<A>);
  const read = options.read ?? readMultipart;
  scope.route({
    method: call.method,
    url: call.path,
    handler: async (request) => {
      const auth = await authenticate(request);
      const params = parsePart(call.params, request.params, 'params');
      const { file, filename, fields } = await read(request, options);
      let body: unknown = { ...fields, file };
      if (call.body) {
        const parsed = call.body.safeParse(body);
        if (!parsed.success) {
          const refusal = describeIssues(parsed.error, 'body');
          throw options.invalidBody ? options.invalidBody(refusal) : refusal;
        }
        body = parsed.data;
      }
      return handler({ auth, params, body, file, filename, request } as UploadContext<C, A>);
    },
  });
}
