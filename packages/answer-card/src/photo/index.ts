/**
 * Node-only entry (`@zhzy/answer-card/photo`): phone photos of cards (issue #26, ADR 0060).
 * - `flattenPhoto(bytes, { sizes })` → a flat 200 dpi grey JPEG page for `recognisePage`, or a refusal with a
 *   `PhotoRefusalCode` and its Chinese message for a retake.
 * The browser-side anchor check is in `@zhzy/answer-card/photo/detect` (pure JS).
 */
export {
  flattenPhoto,
  PHOTO_LIMITS,
  PHOTO_PAGE_DPI,
  type FlattenedPhoto,
  type PhotoOptions,
  type PhotoQuality,
} from './flatten.js';
export { detectAnchorQuad, type AnchorQuad } from './detect.js';
export { paperLight, backgroundAt, type Background } from './light.js';
export { homographyFrom, applyHomography, tiltOf, type Homography, type Pt } from './homography.js';
