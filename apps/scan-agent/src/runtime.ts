import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What the package build stamps into the bundle (`scripts/package.mjs` banner); absent when run from source. */
export interface BundleFacts {
  version: string;
  /** `win32-x64`, `linux-x64`, `darwin-x64` … the platform the package was built for. */
  platform: string;
}

declare global {
  var __zhzyAgentBundle: BundleFacts | undefined;
}

/** The bundle's facts when this code runs from an installed package, else null (a checkout with tsx). */
export const bundleFacts = (): BundleFacts | null => globalThis.__zhzyAgentBundle ?? null;

/** The folder of the running bundle (`app/` of an installation), or null when run from source. */
export function bundleDir(): string | null {
  if (!bundleFacts() || !process.argv[1]) return null;
  return path.dirname(process.argv[1]);
}

/**
 * Whether `moduleUrl` is the script node was started with (`argv1`). Works with Windows paths
 * (`C:\Program Files\…`, case-insensitive), symlinks and relative paths, unlike comparing with `file://${argv1}`.
 */
export function isMainModule(
  moduleUrl: string,
  argv1: string | undefined,
  options: { windows?: boolean; realpath?: (p: string) => string } = {},
): boolean {
  if (!argv1) return false;
  const windows = options.windows ?? process.platform === 'win32';
  const realpath = options.realpath ?? ((p: string) => fs.realpathSync(p));
  const real = (p: string) => {
    try {
      return realpath(p);
    } catch {
      return p;
    }
  };
  const modulePath = real(fileURLToPath(moduleUrl, { windows }));
  const started = real(windows ? path.win32.resolve(argv1) : path.resolve(argv1));
  const a = pathToFileURL(modulePath, { windows }).href;
  const b = pathToFileURL(started, { windows }).href;
  return windows ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * V8 flags every start of the installed agent passes to its bundled Node (ADR 0055, "Lazy start"): a 1 MB semi-space keeps the
 * young generation of an agent that mostly waits small (about 14 MB less idle memory; a scan's allocations are
 * large buffers outside it). The same flags are written in `packaging/unix/zhzy-scan-agent` and
 * `packaging/windows/start-hidden.vbs`.
 */
export const AGENT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/** The Node arguments before the bundle when starting another agent process: the flags, once. */
export const agentNodeArgs = (execArgv: readonly string[] = process.execArgv): string[] =>
  bundleFacts() ? [...new Set([...AGENT_NODE_FLAGS, ...execArgv])] : [...execArgv];
