import fs from 'node:fs';

/** A font file on this machine and the face to use inside it (a .ttc holds several). */
export interface FontFace {
  path: string;
  /** PostScript name of the face inside a collection, e.g. 'NotoSansCJKsc-Regular'. */
  family?: string;
}

export interface CardFonts {
  regular: FontFace;
  /** Headings; falls back to the regular face. */
  bold?: FontFace;
}

// Only fonts already on the machine: cards are never printed with a font fetched at run time.
const REGULAR_CANDIDATES: FontFace[] = [
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: 'C:\\Windows\\Fonts\\msyh.ttc', family: 'MicrosoftYaHei' },
  { path: '/System/Library/Fonts/PingFang.ttc', family: 'PingFangSC-Regular' },
  { path: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', family: 'WenQuanYiMicroHei' },
];
const BOLD_CANDIDATES: FontFace[] = [
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc', family: 'NotoSansCJKsc-Bold' },
  { path: '/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc', family: 'NotoSansCJKsc-Bold' },
  { path: '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Bold.ttc', family: 'NotoSansCJKsc-Bold' },
  { path: 'C:\\Windows\\Fonts\\msyhbd.ttc', family: 'MicrosoftYaHei-Bold' },
  { path: '/System/Library/Fonts/PingFang.ttc', family: 'PingFangSC-Semibold' },
];

/** Thrown when no CJK font is found; its message is for the teacher or administrator. */
export class CardFontMissingError extends Error {
  constructor(tried: string[]) {
    super(
      `找不到可用于答题卡的中文字体。请安装 fonts-noto-cjk（Debian/Ubuntu：apt-get install fonts-noto-cjk），` +
        `或设置环境变量 ZHZY_CJK_FONT 指向字体文件（如 C:\\Windows\\Fonts\\msyh.ttc）。已查找：${tried.join('；')}`,
    );
    this.name = 'CardFontMissingError';
  }
}

/**
 * The CJK fonts for cards: the given ones, else ZHZY_CJK_FONT / ZHZY_CJK_FONT_FAMILY (and ZHZY_CJK_FONT_BOLD /
 * ZHZY_CJK_FONT_BOLD_FAMILY), else the first known system font that exists.
 */
export function resolveCardFonts(given?: CardFonts, env: NodeJS.ProcessEnv = process.env): CardFonts {
  if (given) return given;
  const fromEnv = env.ZHZY_CJK_FONT;
  const regular = fromEnv
    ? { path: fromEnv, ...(env.ZHZY_CJK_FONT_FAMILY ? { family: env.ZHZY_CJK_FONT_FAMILY } : {}) }
    : REGULAR_CANDIDATES.find((f) => fs.existsSync(f.path));
  if (!regular || !fs.existsSync(regular.path)) {
    throw new CardFontMissingError(fromEnv ? [fromEnv] : REGULAR_CANDIDATES.map((f) => f.path));
  }
  const boldEnv = env.ZHZY_CJK_FONT_BOLD;
  const bold = boldEnv
    ? { path: boldEnv, ...(env.ZHZY_CJK_FONT_BOLD_FAMILY ? { family: env.ZHZY_CJK_FONT_BOLD_FAMILY } : {}) }
    : fromEnv
      ? undefined
      : BOLD_CANDIDATES.find((f) => fs.existsSync(f.path));
  return bold && fs.existsSync(bold.path) ? { regular, bold } : { regular };
}

const cache = new Map<string, Buffer>();

/** The font file's bytes, read once per process (a CJK collection is ~20 MB). */
export function fontBytes(path: string): Buffer {
  let bytes = cache.get(path);
  if (!bytes) {
    bytes = fs.readFileSync(path);
    cache.set(path, bytes);
  }
  return bytes;
}
