export { layoutCard, type LayoutOptions } from './layout-card.js';
export { estimateTextWidthMm, wrapText } from './text.js';
export { formatScore } from './items.js';
export { M as CARD_METRICS, FONT as CARD_FONT_SIZES } from './metrics.js';
