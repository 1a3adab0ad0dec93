import { PassThrough, Writable, type Readable } from 'node:stream';
import { HOMEWORK_MESSAGES, type CardLayout } from '@zhzy/contracts';
import {
  CardFontMissingError,
  renderCardPdf,
  resolveCardFonts,
  type CardFonts,
  type CardStudent,
} from '@zhzy/answer-card/render';
import { AppError } from '../../lib/errors.js';
import { HOMEWORK_TEXT } from '../../i18n/messages.js';

// The one adapter of the PDF renderer (packages/answer-card): fonts, streaming, and a client that goes away.

/** The CJK fonts cards are printed with; a missing font is the administrator's to fix, so it is a 500 with a hint. */
export function cardFonts(): CardFonts {
  try {
    return resolveCardFonts();
  } catch (error) {
    if (error instanceof CardFontMissingError) {
      throw new AppError('INTERNAL', HOMEWORK_MESSAGES.fontMissing, {
        detail: `answer-card font missing — install fonts-noto-cjk (apt-get install fonts-noto-cjk) or set ZHZY_CJK_FONT: ${error.message}`,
      });
    }
    throw error;
  }
}

export interface CardPdfJob {
  layout: CardLayout;
  /** One copy per student, in order; none: one anonymous copy. */
  students?: readonly CardStudent[];
  fonts: CardFonts;
}

export interface CardPdfStream {
  /** The PDF bytes, to be sent as the response body. */
  stream: Readable;
  /** Settles when rendering has finished (pages written, or discarded after the reader left). */
  done: Promise<{ pages: number; aborted: boolean }>;
}

/**
 * A writable that forwards into `body` with its backpressure, and swallows everything once `body` is gone (the reader
 * left): whoever writes into it is never left waiting on a stream that will not drain again.
 */
export function forwardingSink(body: PassThrough): { sink: Writable; aborted: () => boolean } {
  let aborted = false;
  let waiting: (() => void) | null = null;
  const release = () => {
    const next = waiting;
    waiting = null;
    next?.();
  };
  body.on('close', () => {
    if (!body.writableFinished) aborted = true;
    release();
  });
  body.on('drain', release);
  const sink = new Writable({
    highWaterMark: 1 << 20,
    write(chunk: Buffer, _encoding, callback) {
      if (aborted || body.destroyed) {
        aborted = true;
        callback();
        return;
      }
      if (body.write(chunk)) callback();
      else waiting = () => callback();
    },
    final(callback) {
      if (!aborted && !body.destroyed) body.end();
      callback();
    },
  });
  return { sink, aborted: () => aborted };
}

/**
 * Renders a card PDF into a readable stream with backpressure. When the reader goes away before the end (the teacher
 * cancels the download), rendering stops.
 */
export function streamCardPdf(job: CardPdfJob): CardPdfStream {
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  const { sink, aborted } = forwardingSink(body);
  // A teacher who cancels the download stops the rendering too, instead of it drawing the rest for nobody.
  const cancel = new AbortController();
  body.on('close', () => {
    if (!body.writableFinished) cancel.abort(new Error('download cancelled'));
  });
  const done = renderCardPdf(job.layout, {
    output: sink,
    fonts: job.fonts,
    signal: cancel.signal,
    ...(job.students && job.students.length > 0 ? { students: job.students } : {}),
  }).then(
    (result) => ({ pages: result.pages, aborted: aborted() }),
    (error: unknown) => {
      if (cancel.signal.aborted) return { pages: 0, aborted: true };
      // Headers are gone already: the only way left to tell the client is to break the response.
      body.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    },
  );
  return { stream: body, done };
}

// RFC 5987 attr-char: letters, digits and !#$&+-.^_`|~ ; everything else is percent-encoded.
const encodeRfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Content-Disposition of a download with a Chinese file name (and an ASCII fallback for old clients). */
export function attachmentHeader(filename: string, fallback = 'answer-cards.pdf'): string {
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

/** A file name without characters that file systems refuse. */
export function safeFilename(name: string): string {
  const printable = [...name].map((c) => (c.charCodeAt(0) < 0x20 ? '_' : c)).join('');
  return printable.replace(/[\\/:*?"<>|]+/g, '_').trim() || HOMEWORK_TEXT.cardFallbackName;
}
