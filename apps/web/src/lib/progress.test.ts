import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook, act } from '@testing-library/react';
import { setBusy, trickleAmount, useProgress } from './progress';

afterEach(() => vi.useRealTimers());

describe('top progress bar', () => {
  it('starts at 0.08, trickles every 800 ms, completes when all work ends, then hides', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useProgress());
    expect(result.current.value).toBeNull();
    act(() => {
      setBusy(true);
    });
    expect(result.current.value).toBe(0.08);
    act(() => {
      setBusy(true);
    });
    act(() => {
      vi.advanceTimersByTime(799);
    });
    expect(result.current.value).toBe(0.08);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current.value).toBeCloseTo(0.18);
    act(() => {
      setBusy(false);
    });
    expect(result.current.value).toBeLessThan(1);
    act(() => {
      setBusy(false);
    });
    expect(result.current.value).toBe(1);
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(result.current.value).toBeNull();
  });

  it('trickles less as it nears the end and never reaches 1', () => {
    expect(trickleAmount(0.1)).toBeGreaterThan(trickleAmount(0.6));
    expect(trickleAmount(0.995)).toBe(0);
  });
});
