import { XMLParser } from 'fast-xml-parser';
import type { ColorMode, ScanEventKind, ScannerCapabilities, ScanPaperSource } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) =>
    ['ColorMode', 'DiscreteResolution', 'SettingProfile', 'DocumentFormat', 'AdfOption', 'JobInfo'].includes(
      name,
    ),
});

type Node = Record<string, unknown>;
const obj = (v: unknown): Node => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const text = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
const num = (v: unknown): number | null => {
  const n = Number(text(v));
  return Number.isFinite(n) && text(v) !== '' ? n : null;
};

/** eSCL lengths are in 1/300 inch. */
export const esclToMm = (v: number) => Math.round((v / 300) * 25.4 * 10) / 10;
export const mmToEscl = (mm: number) => Math.round((mm / 25.4) * 300);

export interface EsclInputCaps {
  maxWidth: number | null;
  maxHeight: number | null;
  colorModes: string[];
  resolutions: number[];
}

export interface EsclCapabilities {
  makeAndModel: string;
  uuid: string | null;
  platen: EsclInputCaps | null;
  adfSimplex: EsclInputCaps | null;
  adfDuplex: EsclInputCaps | null;
}

function inputCaps(node: unknown): EsclInputCaps | null {
  const n = obj(node);
  if (Object.keys(n).length === 0) return null;
  const profiles = arr(obj(n.SettingProfiles).SettingProfile).map(obj);
  const colorModes = new Set<string>();
  const resolutions = new Set<number>();
  for (const p of profiles) {
    for (const c of arr(obj(p.ColorModes).ColorMode)) colorModes.add(text(c));
    const supported = obj(p.SupportedResolutions);
    for (const d of arr(obj(supported.DiscreteResolutions).DiscreteResolution)) {
      const x = num(obj(d).XResolution);
      if (x) resolutions.add(x);
    }
    const range = obj(supported.ResolutionRange);
    const xr = obj(range.XResolutionRange);
    const min = num(xr.Min);
    const max = num(xr.Max);
    if (min && max) for (const r of [150, 200, 300, 600]) if (r >= min && r <= max) resolutions.add(r);
  }
  return {
    maxWidth: num(n.MaxWidth),
    maxHeight: num(n.MaxHeight),
    colorModes: [...colorModes].filter(Boolean),
    resolutions: [...resolutions].sort((a, b) => a - b),
  };
}

/** Parses `GET /eSCL/ScannerCapabilities`. */
export function parseEsclCapabilities(xml: string): EsclCapabilities {
  const root = obj(obj(parser.parse(xml)).ScannerCapabilities);
  const adf = obj(root.Adf);
  return {
    makeAndModel: text(root.MakeAndModel) || 'eSCL 扫描仪',
    uuid: text(root.UUID) || null,
    platen: inputCaps(obj(root.Platen).PlatenInputCaps),
    adfSimplex: inputCaps(adf.AdfSimplexInputCaps),
    adfDuplex: inputCaps(adf.AdfDuplexInputCaps),
  };
}

const COLOR_OF: Record<string, ColorMode> = {
  RGB24: 'color',
  RGB48: 'color',
  Grayscale8: 'grey',
  Grayscale16: 'grey',
  BlackAndWhite1: 'lineart',
};
export const ESCL_COLOR: Record<ColorMode, string> = {
  color: 'RGB24',
  grey: 'Grayscale8',
  lineart: 'BlackAndWhite1',
};

/** The capabilities the web app is told. */
export function esclCapabilitiesOf(caps: EsclCapabilities): ScannerCapabilities {
  const sources: ScanPaperSource[] = [];
  if (caps.platen) sources.push('flatbed');
  if (caps.adfSimplex) sources.push('feeder');
  if (caps.adfDuplex) sources.push('feederDuplex');
  const all = [caps.platen, caps.adfSimplex, caps.adfDuplex].filter((c): c is EsclInputCaps => c !== null);
  const modes = new Set<ColorMode>();
  const resolutions = new Set<number>();
  for (const c of all) {
    for (const m of c.colorModes) if (COLOR_OF[m]) modes.add(COLOR_OF[m]);
    for (const r of c.resolutions) resolutions.add(r);
  }
  const widths = all.map((c) => c.maxWidth).filter((v): v is number => v !== null);
  const heights = all.map((c) => c.maxHeight).filter((v): v is number => v !== null);
  return {
    sources,
    colorModes: (['color', 'grey', 'lineart'] as const).filter((m) => modes.has(m)),
    resolutions: [...resolutions].sort((a, b) => a - b),
    maxWidthMm: widths.length ? esclToMm(Math.max(...widths)) : null,
    maxHeightMm: heights.length ? esclToMm(Math.max(...heights)) : null,
  };
}

export interface EsclStatus {
  state: string;
  adfState: string | null;
}

/** Parses `GET /eSCL/ScannerStatus`. */
export function parseEsclStatus(xml: string): EsclStatus {
  const root = obj(obj(parser.parse(xml)).ScannerStatus);
  return { state: text(root.State) || 'Unknown', adfState: text(root.AdfState) || null };
}

/** What an AdfState means for the teacher (null: nothing wrong). */
export function adfNotice(adfState: string | null): { kind: ScanEventKind; message: string } | null {
  switch (adfState) {
    case 'ScannerAdfJam':
      return { kind: 'jam', message: T.jam };
    case 'ScannerAdfMultipickDetected':
      return { kind: 'doubleFeed', message: T.doubleFeed };
    case 'ScannerAdfHatchOpen':
      return { kind: 'coverOpen', message: T.coverOpen };
    case 'ScannerAdfEmpty':
      return { kind: 'feederEmpty', message: T.feederEmpty };
    default:
      return null;
  }
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The `scan:ScanSettings` body of `POST /eSCL/ScanJobs`. */
export function buildEsclScanSettings(input: {
  source: ScanPaperSource;
  colorMode: ColorMode;
  resolution: number;
  region: { widthMm: number; heightMm: number } | null;
  version?: string;
}): string {
  const region = input.region
    ? `<pwg:ScanRegions pwg:MustHonor="false"><pwg:ScanRegion>` +
      `<pwg:ContentRegionUnits>escl:ThreeHundredthsOfInches</pwg:ContentRegionUnits>` +
      `<pwg:XOffset>0</pwg:XOffset><pwg:YOffset>0</pwg:YOffset>` +
      `<pwg:Width>${mmToEscl(input.region.widthMm)}</pwg:Width><pwg:Height>${mmToEscl(input.region.heightMm)}</pwg:Height>` +
      `</pwg:ScanRegion></pwg:ScanRegions>`
    : '';
  const feeder = input.source !== 'flatbed';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm">',
    `<pwg:Version>${xmlEscape(input.version ?? '2.63')}</pwg:Version>`,
    '<scan:Intent>TextAndGraphic</scan:Intent>',
    region,
    `<pwg:InputSource>${feeder ? 'Feeder' : 'Platen'}</pwg:InputSource>`,
    feeder ? `<scan:Duplex>${input.source === 'feederDuplex' ? 'true' : 'false'}</scan:Duplex>` : '',
    `<scan:ColorMode>${ESCL_COLOR[input.colorMode]}</scan:ColorMode>`,
    `<scan:XResolution>${input.resolution}</scan:XResolution>`,
    `<scan:YResolution>${input.resolution}</scan:YResolution>`,
    '<pwg:DocumentFormat>image/jpeg</pwg:DocumentFormat>',
    '<scan:DocumentFormatExt>image/jpeg</scan:DocumentFormatExt>',
    '</scan:ScanSettings>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** Reads the settings back (the fake server in tests uses this). */
export function parseEsclScanSettings(xml: string): {
  inputSource: string;
  duplex: boolean;
  colorMode: string;
  resolution: number | null;
} {
  const root = obj(obj(parser.parse(xml)).ScanSettings);
  return {
    inputSource: text(root.InputSource),
    duplex: text(root.Duplex) === 'true',
    colorMode: text(arr(root.ColorMode)[0]),
    resolution: num(root.XResolution),
  };
}
