import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallDef, CallResponse } from '@zhzy/contracts';
import { describeIssues, type AuthContext, type CallGuards } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';

export interface UploadLimits {
  maxBytes: number;
  /** Messages: the file is too large; no file was sent. */
  tooLarge: string;
  noFile: string;
}

/** Reads a multipart body: the one `file` part (fields may come before or after it) and the text fields. */
export async function readMultipart(
  request: FastifyRequest,
  limits: UploadLimits,
): Promise<{ file: Buffer; fields: Record<string, string> }> {
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: limits.maxBytes, files: 1, fields: 20, fieldSize: 2_000, parts: 21 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && !file) file = await part.toBuffer();
        else await part.toBuffer();
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
  return { file, fields };
}

type Out<S> = S extends { _zod: { output: infer O } } ? O : undefined;

export interface UploadContext<C extends CallDef> {
  auth: AuthContext;
  params: Out<C['params']>;
  /** The call's body schema applied to the text fields plus `file` (the bytes). */
  body: Out<C['body']>;
  request: FastifyRequest;
}

/**
 * Registers a multipart call of the contracts (in a scope that has @fastify/multipart): the bearer is checked first,
 * so an anonymous upload is refused before a byte of it is read; then the params and the fields are validated by the
 * call's own schemas, the file bytes standing in the body as `file`.
 */
export function registerUploadCall<C extends CallDef>(
  scope: FastifyInstance,
  guards: CallGuards,
  call: C,
  limits: UploadLimits,
  handler: (ctx: UploadContext<C>) => Promise<CallResponse<C>>,
): void {
  scope.route({
    method: call.method,
    url: call.path,
    handler: async (request) => {
      const auth = await guards.authenticate(request);
      let params: unknown;
      if (call.params) {
        const parsed = call.params.safeParse(request.params);
        if (!parsed.success) throw describeIssues(parsed.error, 'params');
        params = parsed.data;
      }
      const { file, fields } = await readMultipart(request, limits);
      let body: unknown = { ...fields, file };
      if (call.body) {
        const parsed = call.body.safeParse(body);
        if (!parsed.success) throw describeIssues(parsed.error, 'body');
        body = parsed.data;
      }
      return handler({ auth, params, body, request } as UploadContext<C>);
    },
  });
}
