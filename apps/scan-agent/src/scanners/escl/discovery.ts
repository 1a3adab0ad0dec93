import mdns from 'multicast-dns';

/** An eSCL scanner announced on the local network. */
export interface EsclService {
  /** Base URL of its eSCL resources, e.g. `http://192.168.1.20:80/eSCL`. */
  baseUrl: string;
  name: string;
  uuid: string | null;
  duplex: boolean | null;
}

/** Finds eSCL scanners; the agent's tests use a fixed list, never multicast. */
export interface EsclDiscovery {
  browse(timeoutMs: number): Promise<EsclService[]>;
}

/** The scanners given by hand in the configuration. */
export class StaticDiscovery implements EsclDiscovery {
  constructor(private readonly services: readonly EsclService[]) {}
  browse(): Promise<EsclService[]> {
    return Promise.resolve([...this.services]);
  }
}

/** A DNS record as multicast-dns decodes it (the fields used here). */
export interface MdnsRecord {
  name: string;
  type: string;
  data?: unknown;
}

const SERVICE = '_uscan._tcp.local';

function txtMap(data: unknown): Map<string, string> {
  const map = new Map<string, string>();
  const items = Array.isArray(data) ? data : [data];
  for (const item of items) {
    const s = Buffer.isBuffer(item) ? item.toString('utf8') : typeof item === 'string' ? item : '';
    const eq = s.indexOf('=');
    if (eq > 0) map.set(s.slice(0, eq).toLowerCase(), s.slice(eq + 1));
  }
  return map;
}

/**
 * Turns the records of mDNS answers (PTR → SRV → TXT → A/AAAA) into eSCL services. Plain HTTP (`_uscan`) only:
 * `_uscans` devices use self-signed certificates, reached through sane-airscan instead.
 */
export function servicesFromRecords(records: readonly MdnsRecord[]): EsclService[] {
  const instances = new Set<string>();
  for (const r of records)
    if (r.type === 'PTR' && r.name === SERVICE && typeof r.data === 'string') instances.add(r.data);
  for (const r of records)
    if ((r.type === 'SRV' || r.type === 'TXT') && r.name.endsWith(`.${SERVICE}`)) instances.add(r.name);
  const services: EsclService[] = [];
  for (const instance of instances) {
    const srv = records.find((r) => r.type === 'SRV' && r.name === instance)?.data as
      { port?: number; target?: string } | undefined;
    if (!srv?.port || !srv.target) continue;
    const txt = txtMap(records.find((r) => r.type === 'TXT' && r.name === instance)?.data);
    const a = records.find((r) => r.type === 'A' && r.name === srv.target)?.data;
    const aaaa = records.find((r) => r.type === 'AAAA' && r.name === srv.target)?.data;
    const host =
      typeof a === 'string' ? a : typeof aaaa === 'string' ? `[${aaaa}]` : srv.target.replace(/\.$/, '');
    const rs = (txt.get('rs') ?? 'eSCL').replace(/^\/+|\/+$/g, '');
    services.push({
      baseUrl: `http://${host}:${srv.port}/${rs}`,
      name: txt.get('ty') ?? instance.slice(0, -SERVICE.length - 1),
      uuid: txt.get('uuid') ?? null,
      duplex: txt.has('duplex') ? txt.get('duplex')?.toUpperCase() === 'T' : null,
    });
  }
  const seen = new Set<string>();
  return services.filter((s) => !seen.has(s.baseUrl) && seen.add(s.baseUrl));
}

/** mDNS browsing of `_uscan._tcp` on the local link (used by the running agent only). */
export class MdnsDiscovery implements EsclDiscovery {
  browse(timeoutMs: number): Promise<EsclService[]> {
    return new Promise((resolve) => {
      const records: MdnsRecord[] = [];
      let socket: ReturnType<typeof mdns> | undefined;
      try {
        socket = mdns();
      } catch {
        resolve([]);
        return;
      }
      socket.on('response', (packet) => {
        for (const r of [...packet.answers, ...(packet.additionals ?? [])]) records.push(r);
      });
      socket.on('error', () => undefined);
      socket.query({ questions: [{ name: SERVICE, type: 'PTR' }] });
      setTimeout(() => {
        socket?.destroy();
        resolve(servicesFromRecords(records));
      }, timeoutMs).unref();
    });
  }
}
