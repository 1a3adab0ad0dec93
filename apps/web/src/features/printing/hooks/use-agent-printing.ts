/**
 * Direct printing through the scan agent on the teacher's PC (printer list, copies, duplex, always unscaled) is a later
 * step of issue 5: the agent has no print API yet. Until it has, this hook answers `available: false` and the print
 * dialogs offer what works today — the PDF download and the browser's own printing. When the agent learns to print,
 * this is the one place to connect it (list printers, then send the PDF with `print-scaling=none`), and the dialogs
 * show a printer choice only when `available` is true.
 */

export interface AgentPrintJob {
  pdf: Blob;
  printerId: string;
  copies: number;
  duplex: boolean;
}

export interface AgentPrinter {
  id: string;
  name: string;
}

export type AgentPrinting =
  | { available: false }
  | {
      available: true;
      printers: AgentPrinter[];
      print: (job: AgentPrintJob) => Promise<void>;
    };

const UNAVAILABLE: AgentPrinting = { available: false };

/** Whether the local agent can print directly (not yet: see above). */
export function useAgentPrinting(): AgentPrinting {
  return UNAVAILABLE;
}
