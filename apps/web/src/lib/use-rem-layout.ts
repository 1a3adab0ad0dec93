import { useEffect } from 'react';
import { MOBILE_LAYOUT } from '@zhzy/contracts/constants';

/** Root font size of the mobile rem layout: min(width, 540) / 10 px (SPEC §9). */
export function remFontSize(width: number): number {
  return Math.min(width, MOBILE_LAYOUT.maxWidth) / MOBILE_LAYOUT.rootFontDivisor;
}

/** CSS variable the app's own chrome (side bar, toasts) multiplies its size by to stay at its usual size. */
export const REM_LAYOUT_ZOOM = '--rem-layout-zoom';

/** Style for chrome that must keep its usual size on a rem-layout page (Tailwind sizes are in rem). */
export const keepChromeSize = { zoom: `var(${REM_LAYOUT_ZOOM}, 1)` } as const;

/**
 * Mobile rem layout for the pages that need it: sets the root font size from the window width and keeps
 * it in step with resizes (debounced 300 ms); restores the previous size on unmount. The app's chrome that
 * stays on such a page (the side bar, toasts) is zoomed back by `--rem-layout-zoom` (previous ÷ new size).
 */
export function useRemLayout(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const root = document.documentElement;
    const previous = root.style.fontSize;
    const base = parseFloat(getComputedStyle(root).fontSize) || 16;
    const apply = () => {
      const size = remFontSize(root.clientWidth || window.innerWidth);
      root.style.fontSize = `${size}px`;
      root.style.setProperty(REM_LAYOUT_ZOOM, String(base / size));
    };
    apply();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(apply, MOBILE_LAYOUT.resizeDebounceMs);
    };
    window.addEventListener('resize', onResize);
    window.addEventListener('orientationchange', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
      window.removeEventListener('orientationchange', onResize);
      root.style.fontSize = previous;
      root.style.removeProperty(REM_LAYOUT_ZOOM);
    };
  }, [enabled]);
}
