import { randomUUID } from 'node:crypto';
import http from 'node:http';
import sharp from 'sharp';
import { parseEsclScanSettings } from '../src/scanners/escl/escl-xml.js';

/** How the fake device behaves. */
export interface FakeEsclScript {
  /** Sheets in the feeder. */
  sheets: number;
  /** 503 answers before each page. */
  retriesPerPage?: number;
  /** The feeder jams (or double-feeds) after this many pages. */
  jamAfter?: number;
  doubleFeedAfter?: number;
  /** AdfState before any job (e.g. ScannerAdfEmpty, ScannerAdfHatchOpen). */
  adfState?: string;
  state?: 'Idle' | 'Processing';
}

const CAPS = `<?xml version="1.0" encoding="UTF-8"?>
<scan:ScannerCapabilities xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm">
  <pwg:Version>2.63</pwg:Version>
  <pwg:MakeAndModel>Fake DocuScan 5000</pwg:MakeAndModel>
  <scan:UUID>4509a320-00a0-008f-00b6-002507510eca</scan:UUID>
  <scan:Platen><scan:PlatenInputCaps>
    <scan:MinWidth>16</scan:MinWidth><scan:MaxWidth>2550</scan:MaxWidth><scan:MinHeight>16</scan:MinHeight><scan:MaxHeight>3508</scan:MaxHeight>
    <scan:SettingProfiles><scan:SettingProfile>
      <scan:ColorModes><scan:ColorMode>BlackAndWhite1</scan:ColorMode><scan:ColorMode>Grayscale8</scan:ColorMode><scan:ColorMode>RGB24</scan:ColorMode></scan:ColorModes>
      <scan:DocumentFormats><pwg:DocumentFormat>image/jpeg</pwg:DocumentFormat><pwg:DocumentFormat>application/pdf</pwg:DocumentFormat></scan:DocumentFormats>
      <scan:SupportedResolutions><scan:DiscreteResolutions>
        <scan:DiscreteResolution><scan:XResolution>150</scan:XResolution><scan:YResolution>150</scan:YResolution></scan:DiscreteResolution>
        <scan:DiscreteResolution><scan:XResolution>300</scan:XResolution><scan:YResolution>300</scan:YResolution></scan:DiscreteResolution>
        <scan:DiscreteResolution><scan:XResolution>600</scan:XResolution><scan:YResolution>600</scan:YResolution></scan:DiscreteResolution>
      </scan:DiscreteResolutions></scan:SupportedResolutions>
    </scan:SettingProfile></scan:SettingProfiles>
  </scan:PlatenInputCaps></scan:Platen>
  <scan:Adf>
    <scan:AdfSimplexInputCaps>
      <scan:MaxWidth>2550</scan:MaxWidth><scan:MaxHeight>4200</scan:MaxHeight>
      <scan:SettingProfiles><scan:SettingProfile>
        <scan:ColorModes><scan:ColorMode>Grayscale8</scan:ColorMode><scan:ColorMode>RGB24</scan:ColorMode></scan:ColorModes>
        <scan:SupportedResolutions><scan:DiscreteResolutions>
          <scan:DiscreteResolution><scan:XResolution>200</scan:XResolution><scan:YResolution>200</scan:YResolution></scan:DiscreteResolution>
          <scan:DiscreteResolution><scan:XResolution>300</scan:XResolution><scan:YResolution>300</scan:YResolution></scan:DiscreteResolution>
        </scan:DiscreteResolutions></scan:SupportedResolutions>
      </scan:SettingProfile></scan:SettingProfiles>
    </scan:AdfSimplexInputCaps>
    <scan:AdfDuplexInputCaps>
      <scan:MaxWidth>2550</scan:MaxWidth><scan:MaxHeight>4200</scan:MaxHeight>
      <scan:SettingProfiles><scan:SettingProfile>
        <scan:ColorModes><scan:ColorMode>Grayscale8</scan:ColorMode><scan:ColorMode>RGB24</scan:ColorMode></scan:ColorModes>
        <scan:SupportedResolutions><scan:DiscreteResolutions>
          <scan:DiscreteResolution><scan:XResolution>300</scan:XResolution><scan:YResolution>300</scan:YResolution></scan:DiscreteResolution>
        </scan:DiscreteResolutions></scan:SupportedResolutions>
      </scan:SettingProfile></scan:SettingProfiles>
    </scan:AdfDuplexInputCaps>
    <scan:FeederCapacity>50</scan:FeederCapacity>
    <scan:AdfOptions><scan:AdfOption>DetectPaperLoaded</scan:AdfOption><scan:AdfOption>Duplex</scan:AdfOption></scan:AdfOptions>
  </scan:Adf>
</scan:ScannerCapabilities>`;

const status = (state: string, adf: string) => `<?xml version="1.0" encoding="UTF-8"?>
<scan:ScannerStatus xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm">
  <pwg:Version>2.63</pwg:Version><pwg:State>${state}</pwg:State><scan:AdfState>${adf}</scan:AdfState>
</scan:ScannerStatus>`;

interface Job {
  pages: Buffer[];
  next: number;
  retries: number;
  cancelled: boolean;
}

/** A small page image with its number drawn on it. */
async function pageImage(n: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="420"><rect width="300" height="420" fill="#fafafa"/><text x="40" y="120" font-size="90" font-family="sans-serif">${n}</text><rect x="30" y="200" width="${40 + n * 10}" height="20" fill="#111"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A fake eSCL scanner on 127.0.0.1 whose behaviour a test scripts. */
export async function startFakeEscl(initial: FakeEsclScript) {
  let script = initial;
  let adfState = script.adfState ?? 'ScannerAdfLoaded';
  const jobs = new Map<string, Job>();
  const log: { method: string; url: string; status: number }[] = [];
  const settings: ReturnType<typeof parseEsclScanSettings>[] = [];
  const server = http.createServer((req, res) => {
    const send = (code: number, body = '', headers: Record<string, string> = {}) => {
      log.push({ method: req.method ?? '', url: req.url ?? '', status: code });
      res.writeHead(code, headers);
      res.end(body);
    };
    const url = req.url ?? '';
    void (async () => {
      if (req.method === 'GET' && url === '/eSCL/ScannerCapabilities')
        return send(200, CAPS, { 'content-type': 'text/xml' });
      if (req.method === 'GET' && url === '/eSCL/ScannerStatus')
        return send(200, status(script.state ?? 'Idle', adfState), { 'content-type': 'text/xml' });
      if (req.method === 'POST' && url === '/eSCL/ScanJobs') {
        let body = '';
        for await (const chunk of req) body += String(chunk);
        const s = parseEsclScanSettings(body);
        settings.push(s);
        if (script.state === 'Processing') return send(503);
        const perSheet = s.inputSource === 'Feeder' && s.duplex ? 2 : 1;
        const count = s.inputSource === 'Feeder' ? script.sheets * perSheet : 1;
        const pages = await Promise.all(Array.from({ length: count }, (_, i) => pageImage(i + 1)));
        const id = randomUUID();
        jobs.set(id, { pages, next: 0, retries: 0, cancelled: false });
        adfState = 'ScannerAdfProcessing';
        return send(201, '', { location: `/eSCL/ScanJobs/${id}` });
      }
      const m = /^\/eSCL\/ScanJobs\/([\w-]+)(\/NextDocument)?$/.exec(url);
      const job = m ? jobs.get(m[1]!) : undefined;
      if (!m || !job) return send(404);
      if (req.method === 'DELETE' && !m[2]) {
        job.cancelled = true;
        return send(200);
      }
      if (req.method !== 'GET' || !m[2]) return send(405);
      if (job.cancelled) return send(410);
      const stopAt = Math.min(script.jamAfter ?? Infinity, script.doubleFeedAfter ?? Infinity);
      if (job.next >= job.pages.length || job.next >= stopAt) {
        adfState =
          job.next >= (script.jamAfter ?? Infinity)
            ? 'ScannerAdfJam'
            : job.next >= (script.doubleFeedAfter ?? Infinity)
              ? 'ScannerAdfMultipickDetected'
              : 'ScannerAdfEmpty';
        return send(404);
      }
      if (job.retries < (script.retriesPerPage ?? 0)) {
        job.retries++;
        return send(503);
      }
      job.retries = 0;
      const page = job.pages[job.next++]!;
      return send(200, page as unknown as string, {
        'content-type': 'image/jpeg',
        'content-length': String(page.length),
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/eSCL`,
    log,
    settings,
    setScript(next: FakeEsclScript) {
      script = next;
      adfState = next.adfState ?? 'ScannerAdfLoaded';
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
