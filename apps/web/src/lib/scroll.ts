import { SCROLL_DURATION_MS } from '@zhzy/contracts/constants';

const easeInOut = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

/** Smoothly scrolls the window to `top` over `duration` ms (default 500); resolves when done. */
export function animateScrollTo(top: number, duration: number = SCROLL_DURATION_MS): Promise<void> {
  const start = window.scrollY;
  const distance = top - start;
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  if (distance === 0 || duration <= 0 || reduce) {
    window.scrollTo(0, top);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const began = performance.now();
    const step = (now: number) => {
      const t = Math.min(1, (now - began) / duration);
      window.scrollTo(0, start + distance * easeInOut(t));
      if (t < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}
