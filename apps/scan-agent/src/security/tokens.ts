import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AGENT_PAIRING } from '@zhzy/contracts';
import { z } from 'zod';
import { writeFileDurable } from '../spool/durable.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Who a token belongs to. */
export type Caller = { kind: 'script' } | { kind: 'page'; origin: string };

/** A paired page: the hash of its token and its origin (a pairings file entry without both is dropped). */
const PairingSchema = z.object({ hash: z.string(), origin: z.string(), createdAt: z.string().optional() });
type Pairing = z.infer<typeof PairingSchema>;

/** The token file for scripts (readable only by its owner) and the origin-bound tokens of paired pages. */
export class TokenStore {
  readonly tokenFile: string;
  private readonly pairingsFile: string;
  private scriptToken = '';
  private pairings: Pairing[] = [];

  constructor(
    readonly dataDir: string,
    private readonly log: { warn: (obj: object, msg: string) => void } = { warn: () => undefined },
  ) {
    this.tokenFile = path.join(dataDir, 'agent-token');
    this.pairingsFile = path.join(dataDir, 'pairings.json');
  }

  /** Creates the data folder and the script token on first start; tightens loose permissions. */
  load(): void {
    fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    if (!fs.existsSync(this.tokenFile)) {
      fs.writeFileSync(this.tokenFile, `${randomBytes(32).toString('base64url')}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
    }
    if (process.platform !== 'win32') {
      const mode = fs.statSync(this.tokenFile).mode & 0o777;
      if (mode & 0o077) {
        this.log.warn(
          { file: this.tokenFile, mode: mode.toString(8) },
          'token file was readable by others; permissions tightened to 600',
        );
        fs.chmodSync(this.tokenFile, 0o600);
      }
    }
    this.scriptToken = fs.readFileSync(this.tokenFile, 'utf8').trim();
    try {
      const parsed = z.array(z.unknown()).safeParse(JSON.parse(fs.readFileSync(this.pairingsFile, 'utf8')));
      this.pairings = parsed.success
        ? parsed.data.flatMap((p) => {
            const pairing = PairingSchema.safeParse(p);
            return pairing.success ? [pairing.data] : [];
          })
        : [];
    } catch {
      this.pairings = [];
    }
  }

  /** Who the bearer token is; a page's token counts only from the origin it was paired with. */
  verify(token: string | undefined, origin: string | undefined): Caller | null {
    if (!token) return null;
    if (this.scriptToken && sameText(token, this.scriptToken)) return { kind: 'script' };
    const hash = sha256(token);
    const pairing = this.pairings.find((p) => sameText(p.hash, hash));
    if (!pairing || !origin || pairing.origin !== origin) return null;
    return { kind: 'page', origin };
  }

  /** Whether a token is a known page token for some other origin (to say so instead of "pair first"). */
  isForeignPageToken(token: string | undefined): boolean {
    return Boolean(token && this.pairings.some((p) => p.hash === sha256(token)));
  }

  async issue(origin: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    this.pairings = [
      ...this.pairings.filter((p) => p.origin !== origin),
      { hash: sha256(token), origin, createdAt: new Date().toISOString() },
    ];
    await writeFileDurable(this.pairingsFile, JSON.stringify(this.pairings, null, 2));
    return token;
  }

  async revoke(token: string): Promise<void> {
    const hash = sha256(token);
    this.pairings = this.pairings.filter((p) => p.hash !== hash);
    await writeFileDurable(this.pairingsFile, JSON.stringify(this.pairings, null, 2));
  }
}

interface ActiveCode {
  code: string;
  /** The page that asked for it; null when the CLI made it (any allowed page may then use it). */
  origin: string | null;
  expiresAt: number;
}

export type ConfirmResult =
  { ok: true } | { ok: false; reason: 'noCode' | 'wrong' | 'tooMany'; left: number };

/** Pairing codes: shown by the agent (log, CLI), typed into the page, good once, for five minutes, five tries. */
export class PairingCodes {
  private active: ActiveCode | null = null;
  private failures = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** A fresh code (replacing any older one). */
  create(origin: string | null): ActiveCode {
    const code = String(randomInt(0, 10 ** AGENT_PAIRING.codeDigits)).padStart(AGENT_PAIRING.codeDigits, '0');
    this.active = { code, origin, expiresAt: this.clock() + AGENT_PAIRING.ttlMs };
    this.failures = 0;
    return this.active;
  }

  /** The code in force, if any (what the local pairing page shows; it never makes one). */
  peek(): ActiveCode | null {
    return this.active && this.active.expiresAt > this.clock() ? this.active : null;
  }

  /** The code in force, or a new one (what `scan-agent pair` shows). */
  current(): ActiveCode {
    if (this.active && this.active.expiresAt > this.clock()) return this.active;
    return this.create(null);
  }

  confirm(code: string, origin: string): ConfirmResult {
    const active = this.active;
    if (!active || active.expiresAt <= this.clock()) return { ok: false, reason: 'noCode', left: 0 };
    if (sameText(code, active.code) && (active.origin === null || active.origin === origin)) {
      this.active = null;
      return { ok: true };
    }
    this.failures++;
    const left = AGENT_PAIRING.maxAttempts - this.failures;
    if (left <= 0) {
      this.active = null;
      return { ok: false, reason: 'tooMany', left: 0 };
    }
    return { ok: false, reason: 'wrong', left };
  }
}

/** A small fixed-window limiter for the calls anyone on an allowed page can make. */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  allow(key: string): boolean {
    const now = this.clock();
    const entry = this.hits.get(key);
    if (!entry || now - entry.since >= this.windowMs) {
      this.hits.set(key, { count: 1, since: now });
      return true;
    }
    entry.count++;
    return entry.count <= this.limit;
  }
}
