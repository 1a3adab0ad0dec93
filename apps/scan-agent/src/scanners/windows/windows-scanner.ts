import type { ScannerCapabilities } from '@zhzy/contracts';
import { systemRunner, type ProcessRunner } from '../process.js';

/** What the Windows drivers (WIA through PowerShell, TWAIN through NAPS2) share: the program they run, and how. */
export abstract class WindowsScanner {
  protected readonly runner: ProcessRunner;

  constructor(
    protected readonly exe: string,
    runner: ProcessRunner | undefined,
  ) {
    this.runner = runner ?? systemRunner;
  }

  /**
   * WIA and TWAIN expose their limits per item only after connecting: the common set is offered and the driver
   * clamps it.
   */
  capabilities(): Promise<ScannerCapabilities> {
    return Promise.resolve({
      sources: ['flatbed', 'feeder', 'feederDuplex'],
      colorModes: ['color', 'grey', 'lineart'],
      resolutions: [150, 200, 300, 600],
      maxWidthMm: null,
      maxHeightMm: null,
    });
  }

  /** Runs the program once to look for devices (bounded by `timeoutMs`, cancelled with `signal`). */
  protected listRun(args: string[], timeoutMs: number, signal?: AbortSignal) {
    return this.runner.run(this.exe, args, { timeoutMs, ...(signal ? { signal } : {}) });
  }
}
