import sharp from 'sharp';
import type { CardLayout } from '@zhzy/contracts';
import { cropImages, LAZY_CROP_OPTIONS, loadZxing, recognisePage } from '@zhzy/answer-card/recognise';
import type { FromWorker, ToWorker } from './pool.js';

// A recognition worker process: one page at a time, layouts asked of the host process. Started by RecognitionPool.
// Pages are read without crop images (a large JPEG from a reduced decode); a page's crops are cut from its file
// when the host first needs them (a 'crops' task, ADR 0029).

sharp.concurrency(1);
sharp.cache(false);

const send = (m: FromWorker) => process.send?.(m);
const waiting = new Map<number, (layout: CardLayout | null) => void>();
const layouts = new Map<string, CardLayout | null>();
let nextReq = 1;

async function handle(m: Extract<ToWorker, { type: 'page' }>): Promise<void> {
  try {
    const { result, images } = await recognisePage(
      Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.length),
      {
        ...(m.dpi ? { dpi: m.dpi } : {}),
        ...(m.hint ? { hint: m.hint } : {}),
        crops: LAZY_CROP_OPTIONS,
        resolve: (cardId, version) => {
          const key = `${cardId}\u0000${version}`;
          if (layouts.has(key)) return layouts.get(key) ?? undefined;
          const reqId = nextReq++;
          return new Promise<CardLayout | undefined>((resolve) => {
            waiting.set(reqId, (layout) => {
              // Only known layouts are kept: an unknown card may become known (a homework published later).
              if (layout) layouts.set(key, layout);
              resolve(layout ?? undefined);
            });
            send({ type: 'resolve', id: m.id, reqId, cardId, version });
          });
        },
      },
    );
    send({ type: 'result', id: m.id, result, images: [...images], rss: process.memoryUsage.rss() });
  } catch (error) {
    send({ type: 'error', id: m.id, message: error instanceof Error ? error.message : String(error) });
  }
}

async function cut(m: Extract<ToWorker, { type: 'crops' }>): Promise<void> {
  try {
    const images = await cropImages(
      Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.length),
      m.result,
    );
    send({ type: 'result', id: m.id, result: m.result, images: [...images], rss: process.memoryUsage.rss() });
  } catch (error) {
    send({ type: 'error', id: m.id, message: error instanceof Error ? error.message : String(error) });
  }
}

process.on('message', (m: ToWorker) => {
  if (m.type === 'page') void handle(m);
  else if (m.type === 'crops') void cut(m);
  else if (m.type === 'layout') {
    const w = waiting.get(m.reqId);
    waiting.delete(m.reqId);
    w?.(m.layout);
  }
});
process.on('disconnect', () => process.exit(0));

await loadZxing();
send({ type: 'ready', rss: process.memoryUsage.rss() });
