// The tools the answer-card tests rasterise and read PDFs with (pdftoppm, pdfinfo, pdffonts, zbarimg), and the CJK
// font cards are printed in. Installed from Debian's packages when missing.
import fs from 'node:fs';
import { ensureAptPackages, hasCommand } from './system.mjs';

const COMMANDS = ['pdftoppm', 'pdfinfo', 'pdffonts', 'zbarimg'];
const NOTO_CJK = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
];

/** Makes sure poppler-utils, zbar-tools and fonts-noto-cjk are installed (nothing to do when all are present). */
export function ensureRasterTools() {
  if (COMMANDS.every((c) => hasCommand(c)) && NOTO_CJK.some((f) => fs.existsSync(f))) return;
  ensureAptPackages(['poppler-utils', 'zbar-tools', 'fonts-noto-cjk']);
}

/** Makes sure LibreOffice Writer and Math are installed: the Word export is rendered with them to check its equations. */
export function ensureOfficeTools() {
  if (hasCommand('soffice') && fs.existsSync('/usr/lib/libreoffice/program/libsmlo.so')) return;
  ensureAptPackages(['libreoffice-writer', 'libreoffice-math']);
}
