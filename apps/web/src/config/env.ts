import * as z from 'zod/mini';

/**
 * Deployment settings, read from `import.meta.env` (VITE_… variables at build time) and validated once.
 * Every value has a default so a plain `vite build` gives a working app. (zod/mini keeps this check out of the
 * way of the visitor page's bundle.)
 */
const text = (fallback: string) => z._default(z.string(), fallback);
const url = (fallback: string) => z._default(z.string().check(z.trim(), z.minLength(1)), fallback);

export const EnvSchema = z.object({
  /** Prefix of stored images (school logos, avatars, page scans). */
  VITE_BASE_IMAGE_URL: url('/files/'),
  /** Websocket of the scan agent on the teacher's PC. */
  VITE_AGENT_WS_URL: z._default(
    z.string().check(z.regex(/^wss?:\/\//, 'VITE_AGENT_WS_URL 必须以 ws:// 或 wss:// 开头')),
    'ws://127.0.0.1:17310/ws',
  ),
  /** Licence key of the scanner SDK / captcha site key ({key} in SPEC). */
  VITE_CAPTCHA_SITE_KEY: text(''),
  /** App id of the WeChat mini-program. */
  VITE_MINI_PROGRAM_APP_ID: text(''),
  /** An external exam site, linked from the footer when set (阅卷/考试 opens the product's own /correct). */
  VITE_EXAM_SITE_URL: text(''),
  /**
   * Where a mobile app is downloaded, when the school has one; the side bar's QR code then points there. Unset, the
   * QR code opens this very site on the phone (the web app works on a phone's browser).
   */
  VITE_APP_DOWNLOAD_URL: text(''),
  /** Footer texts. */
  VITE_COMPANY_NAME: text('智能作业'),
  VITE_COPYRIGHT: text(''),
  /** ICP filing number and support hotline: shown only when the deployment sets them (never a made-up number). */
  VITE_FILING_NUMBER: text(''),
  VITE_FILING_URL: text('https://beian.miit.gov.cn/'),
  VITE_SUPPORT_PHONE: text(''),
});

export type Env = z.infer<typeof EnvSchema>;

/** Parses raw variables; a bad value throws with the name of the variable. */
export function parseEnv(raw: Record<string, unknown>): Env {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const result = z.safeParse(EnvSchema, cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`配置有误：${lines.join('；')}`);
  }
  return result.data;
}

const parsed = parseEnv(import.meta.env);

/** The app's configuration, with friendly names. */
export const env = {
  baseImageUrl: parsed.VITE_BASE_IMAGE_URL,
  agentWsUrl: parsed.VITE_AGENT_WS_URL,
  captchaSiteKey: parsed.VITE_CAPTCHA_SITE_KEY,
  miniProgramAppId: parsed.VITE_MINI_PROGRAM_APP_ID,
  examSiteUrl: parsed.VITE_EXAM_SITE_URL,
  appDownloadUrl: parsed.VITE_APP_DOWNLOAD_URL,
  footer: {
    companyName: parsed.VITE_COMPANY_NAME,
    copyright: parsed.VITE_COPYRIGHT || `© ${new Date().getFullYear()} ${parsed.VITE_COMPANY_NAME} 版权所有`,
    filingNumber: parsed.VITE_FILING_NUMBER,
    filingUrl: parsed.VITE_FILING_URL,
    supportPhone: parsed.VITE_SUPPORT_PHONE,
  },
} as const;

/** Full URL of a stored image path (absolute URLs are kept). */
export function imageUrl(pathOrUrl: string | null | undefined): string | null {
  if (!pathOrUrl) return null;
  if (/^(https?:)?\/\//i.test(pathOrUrl) || pathOrUrl.startsWith('data:')) return pathOrUrl;
  return `${env.baseImageUrl.replace(/\/+$/, '')}/${pathOrUrl.replace(/^\/+/, '')}`;
}
