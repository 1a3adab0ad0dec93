import type sharpType from 'sharp';
import { T } from '../i18n/zh-CN.js';

let loading: Promise<typeof sharpType> | undefined;

/**
 * sharp (libvips, ~30 MB of native code) loaded on first use, not at start: an agent that sits idle in the tray, or
 * answers /health, /update and pairing, never maps it (ADR 0055, "Lazy start"). Under Wine 8, where sharp's
 * Windows binaries do not load, this is what lets the agent start and update itself.
 */
export function loadSharp(): Promise<typeof sharpType> {
  loading ??= import('sharp').then(
    (m) => m.default,
    (err: unknown) => {
      loading = undefined;
      // Said in full (the scan's notice and the log carry it): e.g. under Wine 8, libvips-42.dll's missing import.
      throw new Error(T.sharpUnavailable(err instanceof Error ? err.message : String(err)), { cause: err });
    },
  );
  return loading;
}
