import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useBusy, useBusyKey } from './use-busy';

/** A promise the test settles by hand. */
function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('busy keys', () => {
  it("marks the running row's key busy until its call succeeds, and answers true", async () => {
    const { result } = renderHook(() => useBusyKey());
    const call = deferred();
    let outcome!: Promise<boolean>;
    act(() => {
      outcome = result.current[1]('row-2', () => call.promise);
    });
    expect(result.current[0]).toBe('row-2');
    await act(async () => {
      call.resolve();
      expect(await outcome).toBe(true);
    });
    expect(result.current[0]).toBeNull();
  });

  it('swallows a failed call (the api client showed its message), answers false and frees the key', async () => {
    const { result } = renderHook(() => useBusyKey());
    const call = deferred();
    let outcome!: Promise<boolean>;
    act(() => {
      outcome = result.current[1]('row-1', () => call.promise);
    });
    await act(async () => {
      call.reject(new Error('已被他人删除'));
      expect(await outcome).toBe(false);
    });
    expect(result.current[0]).toBeNull();
  });

  it('gives a single button a busy flag', async () => {
    const { result } = renderHook(() => useBusy());
    const call = deferred();
    let outcome!: Promise<boolean>;
    act(() => {
      outcome = result.current[1](() => call.promise);
    });
    expect(result.current[0]).toBe(true);
    await act(async () => {
      call.resolve();
      expect(await outcome).toBe(true);
    });
    expect(result.current[0]).toBe(false);
  });
});
