import { useEffect } from 'react';
import { MOBILE_LAYOUT } from '@zhzy/contracts/constants';

/** Root font size of the mobile rem layout: min(width, 540) / 10 px (SPEC §9). */
export function remFontSize(width: number): number {
  return Math.min(width, MOBILE_LAYOUT.maxWidth) / MOBILE_LAYOUT.rootFontDivisor;
}

/**
 * Mobile rem layout for the pages that need it: sets the root font size from the window width and keeps
 * it in step with resizes (debounced 300 ms); restores the previous size on unmount.
 */
export function useRemLayout(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const root = document.documentElement;
    const previous = root.style.fontSize;
    const apply = () => {
      root.style.fontSize = `${remFontSize(root.clientWidth || window.innerWidth)}px`;
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
    };
  }, [enabled]);
}
