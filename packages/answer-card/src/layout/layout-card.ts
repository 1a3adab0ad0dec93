import {
  CARD_COLUMNS,
  CARD_LAYOUT_VERSION,
  CARD_PAGE_MM,
  CardPaperSchema,
  CardSettingsSchema,
  type CardElement,
  type CardLayout,
  type CardLayoutWarning,
  type CardPage,
  type CardPaper,
  type CardPaperInput,
  type CardSettingsInput,
} from '@zhzy/contracts';
import { firstPageHeader, laterPageBand, qrRect, rect } from './header.js';
import { objectiveTile, sectionItems, type FlowItem, type ItemContext, type SectionTile } from './items.js';
import { M, r2 } from './metrics.js';

export interface LayoutOptions {
  /** The card's id in its QR codes; defaults to the paper's id. */
  cardId?: string;
  /** The card's own version; defaults to 1. */
  version?: number;
}

interface PageGeometry {
  width: number;
  height: number;
  columns: number;
  columnW: number;
  columnX: (c: number) => number;
  bottom: number;
}

function geometry(size: keyof typeof CARD_PAGE_MM, columns: number): PageGeometry {
  const { width, height } = CARD_PAGE_MM[size];
  const inner = width - M.contentInsetX * 2;
  const columnW = (inner - M.columnGap * (columns - 1)) / columns;
  return {
    width,
    height,
    columns,
    columnW,
    columnX: (c) => M.contentInsetX + c * (columnW + M.columnGap),
    bottom: height - M.contentBottomInset,
  };
}

/** The four anchors, the QR, the sealing line and the footer every page carries. */
function pageFurniture(
  g: PageGeometry,
  page: number,
  pageCount: number,
  title: string,
  qr: { cardId: string; version: number },
  sealingLine: boolean,
): CardElement[] {
  const a = M.anchorSize;
  const i = M.anchorInset;
  const anchors: CardElement[] = (
    [
      ['tl', i, i],
      ['tr', g.width - i - a, i],
      ['bl', i, g.height - i - a],
      ['br', g.width - i - a, g.height - i - a],
    ] as const
  ).map(([corner, x, y]) => ({
    id: `p${page}-anchor-${corner}`,
    type: 'anchor',
    corner,
    rect: rect(x, y, a, a),
  }));
  const elements: CardElement[] = [
    ...anchors,
    {
      id: `p${page}-qr`,
      type: 'qr',
      rect: qrRect(g.columnX(0), g.columnW),
      payload: { cardId: qr.cardId, version: qr.version, page },
      quietZoneMm: M.qrQuiet,
    },
  ];
  if (sealingLine) {
    // The binding side: left on the front of a sheet, right on its back.
    const x = page % 2 === 1 ? i : g.width - i - a;
    elements.push({
      id: `p${page}-sealing`,
      type: 'sealingLine',
      rect: rect(x, i + a + 12, a, g.height - 2 * (i + a + 12)),
      text: '密封线内不要答题',
    });
  }
  elements.push({
    id: `p${page}-footer`,
    type: 'footer',
    rect: rect(
      M.contentInsetX,
      g.height - M.footerBottomInset - M.footerHeight,
      g.width - M.contentInsetX * 2,
      M.footerHeight,
    ),
    page,
    pageCount,
    text: `${title}\u3000第${page}页（共${pageCount}页）`,
  });
  return elements;
}

/** Gap between section tiles that share a row. */
const TILE_GAP = 8;

/**
 * The flow of a paper's sections: consecutive sections of objective questions only stand side by side as tiles when
 * they fit across the column (one row of tiles is one item); every other section flows as its header and items.
 */
function flowItems(sections: CardPaper['sections'], ctx: ItemContext): FlowItem[] {
  const items: FlowItem[] = [];
  let row: { tile: SectionTile; index: number }[] = [];
  let used = 0;
  const flush = () => {
    if (row.length === 1) items.push(...sectionItems(sections[row[0]!.index]!, row[0]!.index, ctx));
    if (row.length > 1) {
      const tiles = row;
      items.push({
        height: Math.max(...tiles.map((t) => t.tile.h)),
        place: (x, y) => {
          let cx = x;
          return tiles.flatMap(({ tile }) => {
            const els = tile.place(cx, y);
            cx += tile.w + TILE_GAP;
            return els;
          });
        },
      });
    }
    row = [];
    used = 0;
  };
  sections.forEach((section, index) => {
    const tile = objectiveTile(section, index, ctx);
    if (!tile) {
      flush();
      items.push(...sectionItems(section, index, ctx));
      return;
    }
    if (row.length > 0 && used + TILE_GAP + tile.w > ctx.columnW) flush();
    used += (row.length > 0 ? TILE_GAP : 0) + tile.w;
    row.push({ tile, index });
  });
  flush();
  return items;
}

/**
 * Lays a paper out as an answer card: pages of elements in millimetres. Pure and deterministic; the same layout serves
 * every student of a card version (personal details and the student's QR are printed over it at render time).
 */
export function layoutCard(
  paperInput: CardPaperInput,
  settingsInput: CardSettingsInput = {},
  options: LayoutOptions = {},
): CardLayout {
  const paper = CardPaperSchema.parse(paperInput);
  const settings = CardSettingsSchema.parse(settingsInput);
  const columns = settings.columns ?? CARD_COLUMNS[settings.size][0]!;
  const g = geometry(settings.size, columns);
  const cardId = options.cardId ?? paper.id;
  const version = options.version ?? 1;
  const warnings: CardLayoutWarning[] = [];

  const header = firstPageHeader(g.columnX(0), g.columnW, {
    title: paper.title,
    subtitle: paper.subtitle,
    identity: settings.identity,
    digits: settings.studentNumberDigits,
  });
  const laterTop = M.contentTop + M.bandHeight + 3;
  const columnTop = (page: number, column: number) =>
    column > 0 ? M.contentTop : page === 0 ? header.bottom + 4 : laterTop;

  // The tallest column that has no page header: a box taller than that can never be placed whole.
  const maxBoxH = g.bottom - (g.columns > 1 ? M.contentTop : laterTop);

  /** The pages' elements (without the furniture) with boxes at `scale`; `cap` lowers the bottom of one page. */
  const attempt = (scale: number, cap?: { page: number; bottom: number }) => {
    const warnings: CardLayoutWarning[] = [];
    const ctx = { settings, columnW: g.columnW, maxBoxH, scale, warnings };
    const items = flowItems(paper.sections, ctx);
    const bottomOf = (p: number) => (cap && p === cap.page ? Math.min(cap.bottom, g.bottom) : g.bottom);
    const pages: CardElement[][] = [[...header.elements]];
    let page = 0;
    let column = 0;
    let y = columnTop(0, 0);
    const advance = () => {
      column++;
      if (column === g.columns) {
        column = 0;
        page++;
        pages.push([laterPageBand(page + 1, g.columnX(0), g.columnW)]);
      }
      y = columnTop(page, column);
    };
    for (let k = 0; k < items.length; k++) {
      const item = items[k]!;
      const next = item.keepWithNext ? items[k + 1] : undefined;
      const need = item.height + (next ? M.itemGap + next.height : 0);
      // Move on while the item (with the one it keeps with) does not fit, unless the column is still empty.
      while (y + need > bottomOf(page) && y > columnTop(page, column)) advance();
      for (let tries = 0; y + item.height > bottomOf(page); tries++) {
        if (tries > g.columns) throw new Error(`layout: an item of ${item.height} mm fits in no column`);
        advance();
      }
      pages[page]!.push(...item.place(g.columnX(column), y, g.columnW));
      y += item.height + M.itemGap;
    }
    return { pages, warnings };
  };

  // Score-sized boxes get their preferred lines, unless shrinking them towards their least saves a page: then the
  // largest scale (in sixteenths) that still needs no more pages than the least boxes do.
  const STEPS = 16;
  let scale = 1;
  let laid = attempt(1);
  const target = attempt(0).pages.length;
  if (target < laid.pages.length) {
    let lo = 0;
    let hi = STEPS - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (attempt(mid / STEPS).pages.length <= target) lo = mid;
      else hi = mid - 1;
    }
    scale = lo / STEPS;
    laid = attempt(scale);
  }
  // With more than one column, the last page's columns end level: the lowest bottom (in half millimetres) that keeps
  // the page count, so a short card uses every column rather than filling the first and leaving the rest blank.
  if (g.columns > 1) {
    const last = laid.pages.length - 1;
    let lo = Math.ceil(columnTop(last, 0) * 2);
    let hi = Math.floor(g.bottom * 2);
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (attempt(scale, { page: last, bottom: mid / 2 }).pages.length === laid.pages.length) hi = mid;
      else lo = mid + 1;
    }
    if (hi < Math.floor(g.bottom * 2)) laid = attempt(scale, { page: last, bottom: hi / 2 });
  }
  const { pages } = laid;
  warnings.push(...laid.warnings);

  const pageCount = pages.length;
  if (pageCount > settings.maxPages) {
    warnings.push({
      code: 'pageOverflow',
      message: `答题卡共 ${pageCount} 页，超过设定的 ${settings.maxPages} 页；可减小作答区高度、增加分栏或换用更大的纸张`,
    });
  }
  const cardPages: CardPage[] = pages.map((elements, index) => ({
    index,
    widthMm: g.width,
    heightMm: g.height,
    elements: [
      ...pageFurniture(g, index + 1, pageCount, paper.title, { cardId, version }, settings.sealingLine),
      ...elements,
    ],
  }));
  return {
    layoutVersion: CARD_LAYOUT_VERSION,
    cardId,
    version,
    title: paper.title,
    size: settings.size,
    columns: r2(columns),
    identity: settings.identity,
    pages: cardPages,
    warnings,
  };
}
