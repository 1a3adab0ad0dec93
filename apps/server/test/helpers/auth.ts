import type { FastifyInstance } from 'fastify';
import { TokenResponseSchema, type TokenResponse } from '@zhzy/contracts';
import { DEMO_PASSWORD } from '../../src/seed/demo.js';

/** The Basic header of the default OAuth client. */
export function clientHeader(id = 'zhzy-web', secret = 'zhzy-web-secret'): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** Signs in through the token call (in-process) and returns the token answer. */
export async function signIn(
  app: FastifyInstance,
  username: string,
  password = DEMO_PASSWORD,
): Promise<TokenResponse> {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth/oauth/token',
    headers: { authorization: clientHeader(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
  return TokenResponseSchema.parse(res.json());
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export { DEMO_PASSWORD } from '../../src/seed/demo.js';
