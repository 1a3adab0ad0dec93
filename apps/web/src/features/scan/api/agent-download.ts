import {
  AGENT_PLATFORMS,
  AgentPackagesManifestSchema,
  envelope,
  type AgentPackagesManifest,
  type AgentPlatform,
} from '@zhzy/contracts';
import { useEffect, useState } from 'react';
import { zhCNScan } from '../../../i18n/zh-CN';

/** The installers the host serves (`GET /agent/download/manifest`); undefined while loading, null when none. */
export function useAgentPackages(): AgentPackagesManifest | null | undefined {
  const [manifest, setManifest] = useState<AgentPackagesManifest | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void fetch('/agent/download/manifest')
      .then(async (r) => (r.ok ? envelope(AgentPackagesManifestSchema).parse(await r.json()).data : null))
      .catch(() => null)
      .then((m) => {
        if (live) setManifest(m);
      });
    return () => {
      live = false;
    };
  }, []);
  return manifest;
}

export const PLATFORM_NAMES: Record<AgentPlatform, string> = zhCNScan.download.platforms;

/** The teacher's OS as a package platform (Windows unless the browser says otherwise). */
export function detectPlatform(
  nav: { userAgent: string; userAgentData?: { platform?: string } } = navigator,
): AgentPlatform {
  const text = `${nav.userAgentData?.platform ?? ''} ${nav.userAgent}`.toLowerCase();
  if (text.includes('mac')) return 'darwin-x64';
  if (text.includes('linux') && !text.includes('android')) return 'linux-x64';
  return 'win32-x64';
}

export type LocalNetworkAccess = 'granted' | 'prompt' | 'denied' | 'unknown';

/** Chrome's Local Network Access permission for this site (142+); 'unknown' where the browser has none. */
export function useLocalNetworkAccess(): LocalNetworkAccess {
  const [state, setState] = useState<LocalNetworkAccess>('unknown');
  useEffect(() => {
    let status: PermissionStatus | null = null;
    const update = () => status && setState(status.state);
    navigator.permissions
      ?.query({ name: 'local-network-access' as PermissionName })
      .then((s) => {
        status = s;
        update();
        s.addEventListener('change', update);
      })
      .catch(() => setState('unknown'));
    return () => status?.removeEventListener('change', update);
  }, []);
  return state;
}

export { AGENT_PLATFORMS };
