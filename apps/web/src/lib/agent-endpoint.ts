import { env } from '../config/env';
import { storage } from './session';

/**
 * Where the scan agent is. The websocket URL comes from the shared configuration (SPEC §7); IT and the browser
 * tests may point a browser at an agent on another port with a localStorage override. Only loopback addresses are
 * accepted: the agent never listens anywhere else, and a paired token must never be sent off the machine.
 */
export const AGENT_URL_OVERRIDE_KEY = 'scanAgentWsUrl';
const TOKEN_KEY_PREFIX = 'scanAgentToken:';

const LOOPBACK_WS = /^wss?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?(\/[^\s?#]*)?$/i;

export interface AgentEndpoint {
  /** `ws://127.0.0.1:17310/ws`. */
  wsUrl: string;
  /** The REST base of the same agent, `http://127.0.0.1:17310`. */
  baseUrl: string;
  /** localStorage key of the pairing token (one per agent). */
  tokenKey: string;
}

/** The REST base URL of an agent websocket URL. */
export function restBaseOf(wsUrl: string): string {
  const url = new URL(wsUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  return url.origin;
}

/** The agent this browser talks to: the override when it is a loopback websocket URL, else the configuration. */
export function agentEndpoint(configured: string = env.agentWsUrl): AgentEndpoint {
  const override = storage.get(AGENT_URL_OVERRIDE_KEY);
  const wsUrl =
    typeof override === 'string' && LOOPBACK_WS.test(override.trim()) ? override.trim() : configured;
  const baseUrl = restBaseOf(wsUrl);
  return { wsUrl, baseUrl, tokenKey: `${TOKEN_KEY_PREFIX}${baseUrl}` };
}

/** The pairing token of an agent, kept in localStorage (kept through sign-out: a setting of the device, see isDeviceSetting). */
export const agentTokens = {
  get(endpoint: AgentEndpoint): string | null {
    const value = storage.get(endpoint.tokenKey);
    return typeof value === 'string' && value.length > 0 ? value : null;
  },
  set(endpoint: AgentEndpoint, token: string): void {
    storage.set(endpoint.tokenKey, token);
  },
  clear(endpoint: AgentEndpoint): void {
    storage.remove(endpoint.tokenKey);
  },
};
