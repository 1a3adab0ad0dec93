import { useEffect, useState, useSyncExternalStore } from 'react';
import { toast } from '../../../lib/toast';
import { pageOrigin } from '../../../lib/utils';
import { agentEndpoint, agentTokens } from '../api/agent-endpoint';
import { createHostBatch, virtualFeed } from '../api/host-scan';
import { ScanSession, type ScanSessionState } from '../stores/scan-session';

/** The session with the real agent, the host and the app's toasts. */
export function createScanSession(): ScanSession {
  const endpoint = agentEndpoint();
  return new ScanSession({
    endpoint,
    origin: pageOrigin(),
    tokens: {
      get: () => agentTokens.get(endpoint),
      set: (token) => agentTokens.set(endpoint, token),
      clear: () => agentTokens.clear(endpoint),
    },
    host: { createBatch: createHostBatch, virtualFeed },
    notify: { error: toast.error, success: toast.success, info: (m) => toast(m, 'info') },
  });
}

/** One session per mounted screen (a given one in tests); active while the screen is shown. */
export function useScanSession(given?: ScanSession): [ScanSession, ScanSessionState] {
  const [session] = useState(() => given ?? createScanSession());
  useEffect(() => {
    session.activate();
    return () => session.deactivate();
  }, [session]);
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  return [session, state];
}
