// Makes sure CUPS (cupsd, lp, lpstat, lpadmin) and the cups-pdf virtual printer are installed: the scan agent's
// printing test starts its own cupsd with a PDF queue and really prints an answer card through it.
import fs from 'node:fs';
import { ensureAptPackages, hasCommand } from './system.mjs';

export const CUPSD_PATH = '/usr/sbin/cupsd';
export const CUPS_PDF_BACKEND = '/usr/lib/cups/backend/cups-pdf';

/** Installs cups, cups-client, cups-bsd and printer-driver-cups-pdf when any of their programs is missing. */
export function ensurePrinterTools() {
  if (process.platform !== 'linux') return;
  const ready =
    fs.existsSync(CUPSD_PATH) && fs.existsSync(CUPS_PDF_BACKEND) && hasCommand('lp') && hasCommand('lpstat');
  if (ready) return;
  ensureAptPackages(['cups', 'cups-client', 'cups-bsd', 'printer-driver-cups-pdf']);
  if (!fs.existsSync(CUPSD_PATH) || !fs.existsSync(CUPS_PDF_BACKEND)) {
    throw new Error(
      'cupsd or the cups-pdf backend is still missing after installing cups and printer-driver-cups-pdf',
    );
  }
}
