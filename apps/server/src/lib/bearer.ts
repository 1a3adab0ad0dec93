/**
 * The one reader of `Authorization: Bearer <token>` on the host (user access tokens, scan upload tokens, the metrics
 * token): the scheme in any case, one or more spaces, then a token without spaces. Null when the header is missing or
 * is not a bearer header.
 */
export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}
