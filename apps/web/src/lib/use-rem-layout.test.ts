import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { remFontSize, useRemLayout } from './use-rem-layout';

const setWidth = (w: number) =>
  Object.defineProperty(document.documentElement, 'clientWidth', { value: w, configurable: true });

afterEach(() => {
  vi.useRealTimers();
  document.documentElement.style.fontSize = '';
});

describe('mobile rem layout', () => {
  it('uses a tenth of the width, capped at 540', () => {
    expect(remFontSize(390)).toBe(39);
    expect(remFontSize(540)).toBe(54);
    expect(remFontSize(1440)).toBe(54);
  });

  it('sets the root font size, follows resizes debounced by 300 ms, and restores on unmount', () => {
    vi.useFakeTimers();
    document.documentElement.style.fontSize = '16px';
    setWidth(375);
    const { unmount } = renderHook(() => useRemLayout());
    expect(document.documentElement.style.fontSize).toBe('37.5px');
    // The app's chrome is zoomed back to its usual size.
    expect(document.documentElement.style.getPropertyValue('--rem-layout-zoom')).toBe(String(16 / 37.5));
    setWidth(414);
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(299);
    expect(document.documentElement.style.fontSize).toBe('37.5px');
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(299);
    expect(document.documentElement.style.fontSize).toBe('37.5px');
    vi.advanceTimersByTime(1);
    expect(document.documentElement.style.fontSize).toBe('41.4px');
    unmount();
    expect(document.documentElement.style.fontSize).toBe('16px');
    expect(document.documentElement.style.getPropertyValue('--rem-layout-zoom')).toBe('');
  });
});
