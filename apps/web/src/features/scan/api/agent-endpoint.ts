// Where the scan agent is and its pairing token: shared with the print pages' direct printing (lib/agent-endpoint).
export * from '../../../lib/agent-endpoint';
