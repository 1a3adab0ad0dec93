import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { AGENT_DEFAULT_PORT } from '@zhzy/contracts';
import { bundleDir } from './runtime.js';

const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Per-user folder of the agent's state (token, pairings, spool): it never needs administrator rights. */
export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  if (process.platform === 'win32') {
    return path.join(env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'), 'zhzy-scan-agent');
  }
  if (process.platform === 'darwin') {
    return path.join(os.homedir(), 'Library', 'Application Support', 'zhzy-scan-agent');
  }
  return path.join(env.XDG_STATE_HOME ?? path.join(os.homedir(), '.local', 'state'), 'zhzy-scan-agent');
}

/** Settings of the agent, validated at start. It listens on the loopback interface only. */
export const AgentConfigSchema = z.object({
  AGENT_PORT: z.coerce.number().int().min(0).max(65_535).default(AGENT_DEFAULT_PORT),
  /** Web origins allowed to talk to the agent, comma-separated. */
  AGENT_ALLOWED_ORIGINS: list('http://localhost:3000,http://127.0.0.1:3000'),
  /** Hosts the agent may upload to besides the allowed origins (the web app is normally served by its host). */
  AGENT_HOST_URLS: list(''),
  /** Token, pairings and the page spool live here. */
  AGENT_DATA_DIR: z.string().optional(),
  /** Drivers to use, comma-separated; the virtual scanner is always last in the list. */
  AGENT_DRIVERS: list(
    process.platform === 'win32' ? 'wia,twain,escl,hotfolder,virtual' : 'sane,escl,hotfolder,virtual',
  ),
  /** `scanimage` to run (a full path, or found on PATH). */
  AGENT_SCANIMAGE: z.string().default('scanimage'),
  /** SANE_CONFIG_DIR for scanimage (e.g. a folder that enables only the test backend). */
  AGENT_SANE_CONFIG_DIR: z.string().optional(),
  /** NAPS2.Console.exe for TWAIN on Windows. */
  AGENT_NAPS2: z.string().default('C:\\Program Files\\NAPS2\\NAPS2.Console.exe'),
  /** eSCL scanners given by hand (base URLs ending in /eSCL), besides those found by mDNS. */
  AGENT_ESCL_URLS: list(''),
  /** Look for eSCL scanners on the local network with mDNS (_uscan._tcp). */
  AGENT_ESCL_DISCOVERY: flag.default(true),
  /** Scan-to-folder devices: folders the agent watches (never a path from the browser). */
  AGENT_HOT_FOLDERS: list(''),
  /** Offer the virtual scanner (demo answer cards). */
  AGENT_VIRTUAL_SCANNER: flag.default(true),
  /** Print systems to use, comma-separated (cups on Linux and macOS, windows on Windows, ipp for AGENT_IPP_PRINTERS). */
  AGENT_PRINTERS: list(process.platform === 'win32' ? 'windows,ipp' : 'cups,ipp'),
  /** `host:port` of the CUPS scheduler to print through (CUPS_SERVER); the system's own when empty. */
  AGENT_CUPS_SERVER: z.string().optional(),
  /** Network printers reached over IPP, comma-separated URLs (`ipp://192.168.1.20/ipp/print`). */
  AGENT_IPP_PRINTERS: list(''),
  /** SumatraPDF.exe that prints PDFs on Windows (the one bundled with the agent by default). */
  AGENT_SUMATRA: z.string().default('SumatraPDF.exe'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/** Settings a config file may hold: the agent's own, nothing else of the environment. */
const isSetting = (key: string) => key.startsWith('AGENT_') || key === 'LOG_LEVEL';

/**
 * Reads `KEY=value` lines (`#` comments, blank lines ignored) — the file the installer writes from IT's command
 * line or from the `agent.conf` next to the installer. A missing file is no settings.
 */
export function readConfigFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (isSetting(key)) out[key] = line.slice(eq + 1).trim();
  }
  return out;
}

/** The config file: `AGENT_CONFIG_FILE`, else `agent.conf` in the installation folder (beside `app/`). */
export function configFileOf(env: Record<string, string | undefined>): string | null {
  if (env.AGENT_CONFIG_FILE) return env.AGENT_CONFIG_FILE;
  const app = bundleDir();
  return app ? path.join(app, '..', 'agent.conf') : null;
}

/** Defaults of an installed agent: no demo scanner unless asked for, the SumatraPDF shipped beside it. */
function installedDefaults(): Record<string, string> {
  const app = bundleDir();
  if (!app) return {};
  return {
    AGENT_VIRTUAL_SCANNER: 'false',
    ...(process.platform === 'win32' ? { AGENT_SUMATRA: path.join(app, '..', 'SumatraPDF.exe') } : {}),
  };
}

/** Settings from the installed defaults, then the config file, then the environment (which wins). */
export function loadAgentConfig(env: Record<string, string | undefined> = process.env): AgentConfig {
  const file = configFileOf(env);
  const fromFile = file ? readConfigFile(file) : {};
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const merged = { ...installedDefaults(), ...fromFile, ...cleaned };
  // AGENT_DEMO=true is the installer's /DEMO switch: the virtual scanner that fills demo answer cards.
  if (merged.AGENT_DEMO && !cleaned.AGENT_VIRTUAL_SCANNER) merged.AGENT_VIRTUAL_SCANNER = merged.AGENT_DEMO;
  delete merged.AGENT_DEMO;
  delete merged.AGENT_CONFIG_FILE;
  return AgentConfigSchema.parse(merged);
}

/** The data folder of a configuration. */
export const dataDirOf = (config: AgentConfig): string => config.AGENT_DATA_DIR ?? defaultDataDir();
