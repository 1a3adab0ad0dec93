import mammoth from 'mammoth';
import sanitizeHtml from 'sanitize-html';
import { assertZipWithinLimits } from '../../lib/zip-guard.js';
import { MATERIAL_TEXT } from '../../i18n/messages.js';

// A Word document shown in the browser: mammoth turns the .docx into semantic HTML (headings, paragraphs, lists,
// tables, images as data URLs), then an allow-list keeps only those elements — no scripts, styles, event handlers,
// links to elsewhere or remote images — so the page can insert it safely (the web sanitises it again).

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sup',
    'sub',
    'ul',
    'ol',
    'li',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'img',
    'blockquote',
  ],
  allowedAttributes: { img: ['src', 'alt'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
  allowedSchemes: [],
  allowedSchemesByTag: { img: ['data'] },
  // Only raster data URLs (an SVG data URL could carry script).
  exclusiveFilter: (frame) =>
    frame.tag === 'img' && !/^data:image\/(png|jpe?g|gif|bmp|webp);base64,/i.test(frame.attribs.src ?? ''),
  disallowedTagsMode: 'discard',
};

/** A Word document as the browser shows it. */
export interface WordPreview {
  html: string;
  notes: string[];
}

/** Sanitised HTML of a .docx and the notes worth telling the reader (run in the document sandbox). */
export async function wordToHtml(bytes: Uint8Array): Promise<WordPreview> {
  // The zip guard runs in the sandbox too: a stored file is measured again before mammoth reads it.
  assertZipWithinLimits(bytes);
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const result = await mammoth.convertToHtml({ buffer: data });
  const html = sanitizeHtml(result.value, ALLOWED);
  const notes: string[] = [];
  if (result.messages.some((m) => m.type === 'warning')) {
    notes.push(MATERIAL_TEXT.previewLosesFormats);
  }
  if (!html.trim()) notes.push(MATERIAL_TEXT.previewEmpty);
  return { html, notes };
}
