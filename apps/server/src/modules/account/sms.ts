import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  SMS_LIMITS,
  SMS_PURPOSE_NAMES,
  type SentSms,
  type SmsInboxEntry,
  type SmsPurpose,
} from '@zhzy/contracts';
import { AppError } from '../../lib/errors.js';
import { hashToken, isoAfter, newId } from '../../lib/ids.js';
import type { AccountRepository } from './repository.js';
import { ACCOUNT_TEXT } from '../../i18n/messages.js';

/** One text message to send. */
export interface SmsMessage {
  phone: string;
  purpose: SmsPurpose;
  code: string;
  text: string;
}

/**
 * The port SMS providers plug into. A real gateway (Aliyun, Tencent Cloud …) implements `send` and throws when the
 * message was not accepted; the host then answers 短信发送失败 and the code is withdrawn.
 */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}

/** The last messages of the embedded provider, for the development inbox (never on in production). */
export class DevSmsInbox {
  private readonly entries: SmsInboxEntry[] = [];

  constructor(private readonly capacity = 100) {}

  add(entry: SmsInboxEntry): void {
    this.entries.unshift(entry);
    this.entries.length = Math.min(this.entries.length, this.capacity);
  }

  list(phone?: string): SmsInboxEntry[] {
    return this.entries.filter((e) => !phone || e.phone === phone);
  }
}

/** The embedded provider: no message leaves the host; the code goes to the log (and the development inbox). */
export class LogSmsProvider implements SmsProvider {
  readonly name = 'log';

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly inbox: DevSmsInbox | null,
    private readonly clock: () => number = Date.now,
  ) {}

  send(message: SmsMessage): Promise<void> {
    this.log.info(
      { phone: message.phone, purpose: message.purpose, code: message.code },
      `SMS: ${message.text}`,
    );
    this.inbox?.add({ ...message, sentAt: new Date(this.clock()).toISOString() });
    return Promise.resolve();
  }
}

const codeHash = (phone: string, purpose: SmsPurpose, code: string) =>
  hashToken(`${phone}|${purpose}|${code}`);

/**
 * SMS codes: six digits, five minutes, one purpose, a few tries; sending is limited per phone (one a minute, ten a
 * day) and per address (twenty an hour). Codes are stored as digests; the rows are also what the limits count, so
 * several host instances share them.
 */
export class SmsCodes {
  constructor(
    private readonly repo: AccountRepository,
    private readonly provider: SmsProvider,
    private readonly clock: () => number,
  ) {}

  async send(phone: string, purpose: SmsPurpose, ip: string | null): Promise<SentSms> {
    const now = this.clock();
    const last = await this.repo.lastSmsAt(phone);
    if (last) {
      const wait = SMS_LIMITS.resendSeconds - Math.floor((now - Date.parse(last)) / 1000);
      if (wait > 0) throw new AppError('RATE_LIMITED', ACCOUNT_MESSAGES.smsTooSoon(wait));
    }
    const dayAgo = new Date(now - 24 * 3_600_000).toISOString();
    if ((await this.repo.countSmsSince({ phone }, dayAgo)) >= SMS_LIMITS.perPhonePerDay)
      throw new AppError('RATE_LIMITED', ACCOUNT_MESSAGES.smsPhoneDailyLimit);
    if (ip) {
      const hourAgo = new Date(now - 3_600_000).toISOString();
      if ((await this.repo.countSmsSince({ ip }, hourAgo)) >= SMS_LIMITS.perAddressPerHour)
        throw new AppError('RATE_LIMITED', ACCOUNT_MESSAGES.smsAddressLimit);
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const id = newId();
    const at = new Date(now).toISOString();
    await this.repo.withdrawSmsCodes(phone, purpose, at);
    await this.repo.insertSmsCode({
      id,
      phone,
      purpose,
      codeHash: codeHash(phone, purpose, code),
      ip,
      expiresAt: isoAfter(now, SMS_LIMITS.codeTtlSeconds),
      createdAt: at,
    });
    const minutes = Math.round(SMS_LIMITS.codeTtlSeconds / 60);
    const text = ACCOUNT_TEXT.smsText(SMS_PURPOSE_NAMES[purpose], code, minutes);
    try {
      await this.provider.send({ phone, purpose, code, text });
    } catch (error) {
      await this.repo.consumeSmsCode(id, at);
      throw new AppError('INTERNAL', ACCOUNT_MESSAGES.smsSendFailed, {
        detail: `SMS provider: ${String(error)}`,
      });
    }
    return { expiresIn: SMS_LIMITS.codeTtlSeconds, resendAfter: SMS_LIMITS.resendSeconds };
  }

  /** Uses up the phone's live code for the purpose; 400 短信验证码错误或已过期 otherwise (and a wrong try counts). */
  async consume(phone: string, purpose: SmsPurpose, code: string): Promise<void> {
    const now = new Date(this.clock()).toISOString();
    const row = await this.repo.liveSmsCode(phone, purpose, now);
    if (!row) throw new AppError('VALIDATION', ACCOUNT_MESSAGES.smsWrong);
    if (row.codeHash !== codeHash(phone, purpose, code)) {
      await this.repo.failSmsCode(row.id, row.attempts + 1 >= SMS_LIMITS.maxAttempts ? now : null);
      throw new AppError('VALIDATION', ACCOUNT_MESSAGES.smsWrong);
    }
    if (!(await this.repo.consumeSmsCode(row.id, now)))
      throw new AppError('VALIDATION', ACCOUNT_MESSAGES.smsWrong);
  }
}
