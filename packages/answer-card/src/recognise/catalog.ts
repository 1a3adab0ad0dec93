import {
  CARD_COLUMNS,
  CARD_SIZES,
  type CardLayout,
  type CardPage,
  type CardSize,
  type Rect,
} from '@zhzy/contracts';
import { layoutCard } from '../layout/index.js';
import type { Point } from './affine.js';

/** Page corners as the layout names its anchors. */
export type PageCorner = 'tl' | 'tr' | 'bl' | 'br';

/** What the recogniser needs of a page's frame before it knows which card it holds. */
export interface PageFrame {
  size: CardSize;
  columns: number;
  widthMm: number;
  heightMm: number;
  anchorMm: number;
  /** Anchor centres, millimetres. */
  anchors: Record<PageCorner, Point>;
  /** The QR code's rect (without its quiet zone). */
  qr: Rect;
}

/** The frame of one laid-out page: anchors and QR as the layout placed them. */
export function frameOf(layout: Pick<CardLayout, 'size' | 'columns'>, page: CardPage): PageFrame | undefined {
  const anchors: Partial<Record<PageCorner, Point>> = {};
  let anchorMm = 0;
  let qr: Rect | undefined;
  for (const e of page.elements) {
    if (e.type === 'anchor') {
      anchors[e.corner] = { x: e.rect.x + e.rect.w / 2, y: e.rect.y + e.rect.h / 2 };
      anchorMm = (e.rect.w + e.rect.h) / 2;
    }
    if (e.type === 'qr') qr = e.rect;
  }
  const { tl, tr, bl, br } = anchors;
  if (!tl || !tr || !bl || !br || !qr) return undefined;
  return {
    size: layout.size,
    columns: layout.columns,
    widthMm: page.widthMm,
    heightMm: page.heightMm,
    anchorMm,
    anchors: { tl, tr, bl, br },
    qr,
  };
}

let frames: PageFrame[] | undefined;

/**
 * Every page frame the layout model can produce (each size and column count), taken from `layoutCard` itself so the
 * recogniser never recomputes geometry: used to look for the QR before the card is known.
 */
export function knownFrames(): PageFrame[] {
  if (frames) return frames;
  frames = [];
  for (const size of CARD_SIZES) {
    for (const columns of CARD_COLUMNS[size]) {
      const layout = layoutCard(
        {
          id: 'frame',
          title: 'frame',
          sections: [{ title: 'frame', questions: [{ id: 'q1', number: '1', kind: 'single', score: 1 }] }],
        },
        { size, columns },
      );
      const frame = frameOf(layout, layout.pages[0]!);
      if (frame) frames.push(frame);
    }
  }
  return frames;
}
