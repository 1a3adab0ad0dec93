import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's minimum parameters: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2 runs on libuv's pool (4 threads). A burst of sign-ins or registrations would keep every core busy hashing and
 * starve the event loop, so every other request (and `/health`) would wait: at most one hash fewer than there are
 * cores runs at once (one core stays with the event loop), and the rest queue here. Issue 21.
 */
const HASH_SLOTS = Math.max(1, os.availableParallelism() - 1);
let running = 0;
const waiting: Array<() => void> = [];

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** Hashes a password as an argon2id PHC string. */
export function hashPassword(password: string): Promise<string> {
  return inSlot(() => hash(password, OPTIONS));
}

/** Checks a password against its stored hash; a malformed hash simply fails. */
export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await inSlot(() => verify(hashed, password));
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
