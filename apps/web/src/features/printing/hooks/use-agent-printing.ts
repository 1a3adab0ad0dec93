import { useCallback, useEffect, useRef, useState } from 'react';
import type { PrintFromHostInput, PrintJob, Printer } from '@zhzy/contracts';
import {
  agentReadiness,
  cancelPrintJob,
  listPrinters,
  printFromHost,
  printJob,
  type AgentPrintReadiness,
} from '../api/agent-print';

/**
 * Direct printing through the scan agent on the teacher's PC: whether it is there and paired, its printers, and print
 * jobs followed to the end (the agent downloads the PDF from the host and prints it unscaled). When the agent is not
 * there the print dialogs offer the PDF download and the browser's printing instead.
 */
export type AgentPrinting =
  | { status: 'checking' }
  | { status: 'unavailable'; reason: Extract<AgentPrintReadiness, { ok: false }>['reason'] }
  | {
      status: 'ready';
      printers: Printer[];
      refreshing: boolean;
      refresh: () => void;
      /** Starts a job; `onJob` sees every state until it is done, failed or cancelled. */
      print: (input: PrintFromHostInput, onJob: (job: PrintJob) => void) => Promise<PrintJob>;
      cancel: (id: string) => Promise<PrintJob>;
    };

const FINAL = new Set<PrintJob['state']>(['done', 'failed', 'cancelled']);
/** How often a running job is asked for (the agent also pushes it on its websocket, which /scan uses). */
export const JOB_POLL_MS = 700;

export function useAgentPrinting(): AgentPrinting {
  const [readiness, setReadiness] = useState<AgentPrintReadiness | null>(null);
  const [printers, setPrinters] = useState<Printer[]>([]);
  const [refreshing, setRefreshing] = useState(false);
  const alive = useRef(true);

  const load = useCallback(async (refresh: boolean) => {
    const ready = await agentReadiness();
    if (!alive.current) return;
    if (ready.ok) {
      setRefreshing(true);
      try {
        const list = await listPrinters(refresh);
        if (alive.current) setPrinters(list);
      } catch {
        if (alive.current) setPrinters([]);
      } finally {
        if (alive.current) setRefreshing(false);
      }
    }
    setReadiness(ready);
  }, []);

  useEffect(() => {
    alive.current = true;
    void load(false);
    return () => {
      alive.current = false;
    };
  }, [load]);

  const print = useCallback(async (input: PrintFromHostInput, onJob: (job: PrintJob) => void) => {
    let job = await printFromHost(input);
    onJob(job);
    while (!FINAL.has(job.state) && alive.current) {
      await new Promise((r) => setTimeout(r, JOB_POLL_MS));
      job = await printJob(job.id);
      onJob(job);
    }
    return job;
  }, []);

  if (!readiness) return { status: 'checking' };
  if (!readiness.ok) return { status: 'unavailable', reason: readiness.reason };
  return {
    status: 'ready',
    printers,
    refreshing,
    refresh: () => void load(true),
    print,
    cancel: cancelPrintJob,
  };
}
