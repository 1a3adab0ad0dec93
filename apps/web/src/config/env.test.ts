import { describe, expect, it } from 'vitest';
import { env, imageUrl, parseEnv } from './env';

describe('configuration', () => {
  it('has defaults for every value (the scan agent on 127.0.0.1:17310)', () => {
    const e = parseEnv({});
    expect(e.VITE_AGENT_WS_URL).toBe('ws://127.0.0.1:17310/ws');
    expect(e.VITE_BASE_IMAGE_URL).toBe('/files/');
    expect(env.footer.copyright).toContain('版权所有');
  });
  it('makes up no hotline, filing number or app address: they are empty until the deployment sets them', () => {
    const e = parseEnv({});
    expect(e.VITE_SUPPORT_PHONE).toBe('');
    expect(e.VITE_FILING_NUMBER).toBe('');
    expect(e.VITE_APP_DOWNLOAD_URL).toBe('');
    expect(parseEnv({ VITE_SUPPORT_PHONE: '0571-8888 6666' }).VITE_SUPPORT_PHONE).toBe('0571-8888 6666');
  });
  it('names the variable that is wrong', () => {
    expect(() => parseEnv({ VITE_AGENT_WS_URL: 'http://x' })).toThrow(/VITE_AGENT_WS_URL/);
  });
  it('builds image URLs under the base image URL and keeps absolute ones', () => {
    expect(imageUrl('logo/a.png')).toBe('/files/logo/a.png');
    expect(imageUrl('https://cdn.x/a.png')).toBe('https://cdn.x/a.png');
    expect(imageUrl(null)).toBeNull();
  });
});
