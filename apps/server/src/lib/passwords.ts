import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's minimum parameters: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password as an argon2id PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Checks a password against its stored hash; a malformed hash simply fails. */
export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** A hash to verify against when the user does not exist, so timing does not reveal usernames. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password');
  return dummy;
}
