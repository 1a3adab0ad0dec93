export {
  renderCardPdf,
  pageQrText,
  type CardStudent,
  type RenderCardOptions,
  type RenderCardResult,
} from './render-card-pdf.js';
export { resolveCardFonts, CardFontMissingError, type CardFonts, type FontFace } from './fonts.js';
