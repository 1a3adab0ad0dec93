/** Business constants and limits of SPEC §9 (and the few of §3/§5 that are numbers). */

/** Request timeout for ordinary calls. */
export const REQUEST_TIMEOUT_MS = 100_000;
/** Timeout for uploads and downloads. */
export const TRANSFER_TIMEOUT_MS = 420_000;
/** Refresh the access token when it expires within this window. */
export const TOKEN_REFRESH_THRESHOLD_MS = 300_000;
/** Default toast duration; every toast is closable. */
export const TOAST_DURATION_MS = 5_000;
/** The basket add-success toast is shorter. */
export const TOAST_ADD_SUCCESS_MS = 3_000;
/** Settings that persist in cookies keep this many days. */
export const COOKIE_PERSIST_DAYS = 360;
/** Default scroll animation. */
export const SCROLL_DURATION_MS = 500;
/** Width of the question-basket popover in CSS pixels. */
export const BASKET_POPOVER_WIDTH = 368;
/** The only HTTP status the client treats as success. */
export const HTTP_SUCCESS_STATUS = 200;

/** Mobile rem layout: max width, root font size = width / divisor, resize debounce. */
export const MOBILE_LAYOUT = { maxWidth: 540, rootFontDivisor: 10, resizeDebounceMs: 300 } as const;

/** Top progress bar. */
export const PROGRESS_BAR = { minimum: 0.08, speedMs: 200, trickleMs: 800 } as const;

/** Dialog width breakpoints: 80 % under 550 px, 30 % under 1400 px, else 25 %. */
export const DIALOG_BREAKPOINTS = { small: 550, medium: 1400 } as const;
export const DIALOG_WIDTHS = { small: '80%', medium: '30%', large: '25%' } as const;

/** Scanning defaults (SPEC §9, §4). */
export const SCAN_DEFAULTS = {
  resolution: 300,
  pixelType: 'RGB',
  feeder: true,
  autoScan: true,
  autoDeskew: true,
  duplex: true,
  adaptive: false,
  subjectTeacher: false,
} as const;

/** The scan viewer's size. */
export const SCAN_VIEWER = { width: '100%', heightPx: 400 } as const;

/** Paper-size codes of the scanner settings (SPEC §3). */
export const PAPER_SIZE_CODES = { A4: 1, A3: 11, B5: 2, B4: 6, '16k': 0 } as const;
export type PaperSizeName = keyof typeof PAPER_SIZE_CODES;

/** Pixel sizes a page is resized to when adaptive is off (SPEC §5); A3 and B4 are not resized. */
export const PAPER_PIXEL_SIZES = {
  A4: { width: 2480, height: 3507 },
  '16k': { width: 2184, height: 3072 },
  B5: { width: 2079, height: 2954 },
} as const;

/** Barcode rendering defaults. */
export const BARCODE_DEFAULTS = { width: 2, height: 100, fontSize: 20, margin: 10 } as const;
/** Pharmacode accepts integers in this range. */
export const PHARMACODE_RANGE = { min: 3, max: 131_070 } as const;

/** Defaults of other local state (SPEC §3). */
export const LOCAL_STATE_DEFAULTS = {
  pageSize: 1,
  cardStatus: 1,
  paperType: -1,
  radioType: 1,
  chapterType: 'booknode',
} as const;

/** The 36 areas offered for area choice: nationwide, the 34 provincial-level divisions, and other. */
export const AREAS = [
  '全国',
  '北京',
  '天津',
  '河北',
  '山西',
  '内蒙古',
  '辽宁',
  '吉林',
  '黑龙江',
  '上海',
  '江苏',
  '浙江',
  '安徽',
  '福建',
  '江西',
  '山东',
  '河南',
  '湖北',
  '湖南',
  '广东',
  '广西',
  '海南',
  '重庆',
  '四川',
  '贵州',
  '云南',
  '西藏',
  '陕西',
  '甘肃',
  '青海',
  '宁夏',
  '新疆',
  '台湾',
  '香港',
  '澳门',
  '其他',
] as const;

/** The question-type demo grid of the home page (SPEC §3). */
export const QUESTION_TYPE_DEMO = [
  { name: '单选题', count: 6 },
  { name: '多选题', count: 3 },
  { name: '应用题', count: 2 },
  { name: '解答题', count: 5 },
] as const;

/** Access tokens live this long unless configured otherwise. */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 7_200;
/** Refresh tokens live this long unless configured otherwise. */
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3_600;

/**
 * The HTML subset question content holds: paragraphs, emphasis, sub- and superscripts, tables, lists and pictures.
 * The host sanitises every write to it (plus `span`, which imports carry); the web editor keeps to it.
 */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'u',
  'sub',
  'sup',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'ul',
  'ol',
  'li',
  'img',
] as const;
