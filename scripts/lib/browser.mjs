// The browser the web app's end-to-end tests drive: Debian's Chromium (Playwright never downloads one here),
// with the CJK fonts so Chinese renders in the screenshots.
import fs from 'node:fs';
import { ensureAptPackages } from './system.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Installs Debian's `chromium` and `fonts-noto-cjk` when either is missing. */
export function ensureBrowser() {
  ensureAptPackages(['chromium', 'fonts-noto-cjk']);
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`chromium is installed but ${CHROMIUM_PATH} is missing`);
  }
}
