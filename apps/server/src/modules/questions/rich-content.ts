import sanitizeHtml from 'sanitize-html';
import { RICH_TEXT_TAGS } from '@zhzy/contracts';

// Question content (stem, options, answer, analysis) is a small HTML subset with LaTeX formulas kept as text
// inside \( \) or \[ \]. Everything is sanitised here on every write, whoever sends it; the web app
// sanitises again before rendering.

const TAGS = [...RICH_TEXT_TAGS, 'span'];

/** Our own stored files, or an inline picture in one of four raster formats (never SVG: it can script). */
const FILE_SRC = /^\/files\/[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const DATA_SRC = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
const SIZE = /^\d{1,4}(%|px)?$/;

/** Whether an image source is allowed: `/files/…` of this host or a base64 PNG, JPEG, GIF or WebP. */
export function isAllowedImageSource(src: string): boolean {
  const value = src.trim();
  if (value.includes('..')) return false;
  return FILE_SRC.test(value) || DATA_SRC.test(value.replace(/\s+/g, ''));
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: {
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  // No scheme at all except data: on images, which the filter below narrows to four raster types.
  allowedSchemes: [],
  allowedSchemesByTag: { img: ['data'] },
  allowedSchemesAppliedToAttributes: ['src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'xmp', 'iframe', 'object'],
  transformTags: {
    img: (tagName, attribs) => {
      const out: Record<string, string> = {};
      const src = attribs.src?.trim().replace(/^data:[^,]*,.*$/s, (m) => m.replace(/\s+/g, ''));
      if (src && isAllowedImageSource(src)) out.src = src;
      if (attribs.alt) out.alt = attribs.alt;
      for (const key of ['width', 'height'] as const) {
        const v = attribs[key]?.trim();
        if (v && SIZE.test(v)) out[key] = v;
      }
      return { tagName, attribs: out };
    },
    td: cellSpans,
    th: cellSpans,
  },
  // An image whose source was not allowed is dropped whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

function cellSpans(tagName: string, attribs: sanitizeHtml.Attributes) {
  const out: Record<string, string> = {};
  for (const key of ['colspan', 'rowspan'] as const) {
    const v = attribs[key]?.trim();
    if (v && /^\d{1,2}$/.test(v) && Number(v) >= 1) out[key] = v;
  }
  return { tagName, attribs: out };
}

/**
 * Inside \( … \) and \[ … \] a `<` or `>` is mathematics, not markup: escape it before parsing, so
 * `\(a<b\)` stays a formula (and `\(<script>…\)` stays inert text).
 */
function escapeFormulas(html: string): string {
  return html.replace(/\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]/g, (match: string) =>
    match.replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  );
}

/** Sanitises question content to the allowed HTML subset; scripts, handlers, styles and foreign URLs go. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(escapeFormulas(html), OPTIONS).trim();
}

/** The visible text of sanitised content (tags dropped, entities decoded), e.g. to tell an empty stem. */
export function richTextToPlain(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, ' '))
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim();
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the entities sanitize-html writes (named ones and numeric character references). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, code: string) => {
    if (code[0] === '#') {
      const n =
        code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
    }
    return NAMED[code.toLowerCase()] ?? m;
  });
}

/** Blanks of a 填空题 as written in the stem: runs of full-width underscores (＿＿) or of 3+ underscores. */
export function countBlanks(stem: string): number {
  return (stem.match(/＿{2,}|_{3,}/g) ?? []).length;
}
