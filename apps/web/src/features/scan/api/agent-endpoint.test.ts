import { describe, expect, it } from 'vitest';
import { AGENT_URL_OVERRIDE_KEY, agentEndpoint, agentTokens, restBaseOf } from './agent-endpoint';

describe('where the scan agent is', () => {
  it('comes from the configured websocket URL, with its REST base beside it', () => {
    expect(agentEndpoint('ws://127.0.0.1:17310/ws')).toEqual({
      wsUrl: 'ws://127.0.0.1:17310/ws',
      baseUrl: 'http://127.0.0.1:17310',
      tokenKey: 'scanAgentToken:http://127.0.0.1:17310',
    });
    expect(restBaseOf('wss://localhost:17311/ws')).toBe('https://localhost:17311');
  });

  it('takes a loopback override from localStorage, and nothing else', () => {
    localStorage.setItem(AGENT_URL_OVERRIDE_KEY, JSON.stringify('ws://127.0.0.1:41234/ws'));
    expect(agentEndpoint('ws://127.0.0.1:17310/ws').baseUrl).toBe('http://127.0.0.1:41234');
    for (const foreign of [
      'ws://evil.example:17310/ws',
      'ws://192.168.1.5:17310/ws',
      'http://127.0.0.1:1/ws',
    ]) {
      localStorage.setItem(AGENT_URL_OVERRIDE_KEY, JSON.stringify(foreign));
      expect(agentEndpoint('ws://127.0.0.1:17310/ws').wsUrl).toBe('ws://127.0.0.1:17310/ws');
    }
  });

  it('keeps one pairing token per agent', () => {
    const a = agentEndpoint('ws://127.0.0.1:17310/ws');
    const b = agentEndpoint('ws://127.0.0.1:17311/ws');
    agentTokens.set(a, 'token-a');
    expect(agentTokens.get(a)).toBe('token-a');
    expect(agentTokens.get(b)).toBeNull();
    agentTokens.clear(a);
    expect(agentTokens.get(a)).toBeNull();
  });
});
