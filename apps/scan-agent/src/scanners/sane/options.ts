import type { ColorMode, ScannerCapabilities, ScanPaperSource } from '@zhzy/contracts';
import { stepsWithin } from '../port.js';

/** One option as `scanimage -A` prints it. */
export interface SaneOption {
  name: string;
  kind: 'bool' | 'list' | 'range' | 'free';
  values: string[];
  range?: { min: number; max: number; unit: string };
  unit: string;
  defaultValue: string;
  inactive: boolean;
}

// `    --source Flatbed|Automatic Document Feeder [Flatbed]`, `    -x 0..215.9mm [215.9]`,
// `    --hand-scanner[=(yes|no)] [no]`, `    --resolution 75|150|300|600dpi [300]`.
const OPTION_LINE = /^\s{2,}(-{1,2}[A-Za-z0-9][\w-]*)(\[=\(([^)]*)\)\])?(?:\s+(.*?))?\s+\[([^\]]*)\]\s*$/;

/** Parses the option list of `scanimage -d DEV -A`; lines that are descriptions are skipped. */
export function parseSaneOptions(text: string): Map<string, SaneOption> {
  const options = new Map<string, SaneOption>();
  for (const line of text.split(/\r?\n/)) {
    const m = OPTION_LINE.exec(line);
    if (!m) continue;
    const name = m[1]!.replace(/^-+/, '');
    const boolValues = m[3];
    let constraint = (m[4] ?? '').replace(/\s*\(in steps of [^)]*\)\s*/, ' ').trim();
    const defaultValue = m[5]!.trim();
    const inactive = defaultValue === 'inactive';
    if (boolValues !== undefined) {
      options.set(name, {
        name,
        kind: 'bool',
        values: boolValues.split('|'),
        unit: '',
        defaultValue,
        inactive,
      });
      continue;
    }
    const range = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)([a-z%]*)/i.exec(constraint);
    if (range) {
      const unit = range[3] ?? '';
      options.set(name, {
        name,
        kind: 'range',
        values: [],
        range: { min: Number(range[1]), max: Number(range[2]), unit },
        unit,
        defaultValue,
        inactive,
      });
      continue;
    }
    if (constraint.includes('|')) {
      const unitMatch = /(\d)(dpi|mm|%|us)$/.exec(constraint);
      const unit = unitMatch?.[2] ?? '';
      if (unit) constraint = constraint.slice(0, -unit.length);
      options.set(name, { name, kind: 'list', values: constraint.split('|'), unit, defaultValue, inactive });
      continue;
    }
    options.set(name, {
      name,
      kind: 'free',
      values: constraint ? [constraint] : [],
      unit: '',
      defaultValue,
      inactive,
    });
  }
  return options;
}

/** How the agent's wishes map onto one device's literal option values (found by meaning, never assumed). */
export interface SaneMapping {
  sources: Partial<Record<ScanPaperSource, { source?: string; extra: string[] }>>;
  modes: Partial<Record<ColorMode, string[]>>;
  resolutions: number[];
  resolutionOption: string | null;
  geometry: { x: number; y: number } | null;
  pageSizeOptions: boolean;
}

const FEEDER = /adf|feeder|document feeder|automatic document/i;
const DUPLEX = /duplex/i;
const BACK_ONLY = /\bback\b/i;
const FLATBED = /flatbed|platen|glass|normal|document table/i;
const COLOR = /colou?r|rgb/i;
const GREY = /gr[ae]y/i;
const LINEART = /lineart|line art|binary|black\s*&?\s*white|halftone|monochrome/i;

/** Maps a device's options to sources, modes and resolutions by what their values mean. */
export function mapSaneOptions(options: Map<string, SaneOption>): SaneMapping {
  const sources: SaneMapping['sources'] = {};
  const source = options.get('source');
  if (source && source.kind === 'list' && !source.inactive) {
    const feederValues = source.values.filter((v) => FEEDER.test(v));
    const simplex = feederValues.find((v) => !DUPLEX.test(v) && !BACK_ONLY.test(v));
    const duplex = feederValues.find((v) => DUPLEX.test(v));
    const flatbed = source.values.find((v) => FLATBED.test(v));
    if (flatbed) sources.flatbed = { source: flatbed, extra: [] };
    if (simplex) sources.feeder = { source: simplex, extra: [] };
    if (duplex) sources.feederDuplex = { source: duplex, extra: [] };
    // Some backends (epson2, epsonds) keep duplex in a separate option next to the ADF source.
    const adfMode = options.get('adf-mode');
    if (!duplex && simplex && adfMode?.kind === 'list') {
      const d = adfMode.values.find((v) => DUPLEX.test(v));
      const s = adfMode.values.find((v) => /simplex/i.test(v));
      if (d) sources.feederDuplex = { source: simplex, extra: [`--adf-mode=${d}`] };
      if (s) sources.feeder = { source: simplex, extra: [`--adf-mode=${s}`] };
    }
    const duplexFlag = options.get('duplex');
    if (!sources.feederDuplex && simplex && duplexFlag?.kind === 'bool') {
      sources.feederDuplex = { source: simplex, extra: ['--duplex=yes'] };
    }
    if (!flatbed && !simplex && source.values[0]) sources.flatbed = { source: source.values[0], extra: [] };
  } else {
    sources.flatbed = { extra: [] };
  }

  const modes: SaneMapping['modes'] = {};
  const mode = options.get('mode');
  const depth = options.get('depth');
  const depthValues = depth?.kind === 'list' ? depth.values : [];
  if (mode?.kind === 'list') {
    const color = mode.values.find((v) => COLOR.test(v));
    const grey = mode.values.find((v) => GREY.test(v));
    const lineart = mode.values.find((v) => LINEART.test(v));
    const eight = depthValues.includes('8') ? ['--depth', '8'] : [];
    if (color) modes.color = ['--mode', color, ...eight];
    if (grey) modes.grey = ['--mode', grey, ...eight];
    if (lineart) modes.lineart = ['--mode', lineart];
    else if (grey && depthValues.includes('1')) modes.lineart = ['--mode', grey, '--depth', '1'];
  }

  const resolutionOption = options.has('resolution')
    ? 'resolution'
    : options.has('x-resolution')
      ? 'x-resolution'
      : null;
  const res = resolutionOption ? options.get(resolutionOption) : undefined;
  let resolutions: number[] = [];
  if (res?.kind === 'list') resolutions = res.values.map(Number).filter((n) => Number.isFinite(n) && n > 0);
  else if (res?.kind === 'range' && res.range) resolutions = stepsWithin(res.range.min, res.range.max);

  const x = options.get('x');
  const y = options.get('y');
  const geometry = x?.range && y?.range ? { x: x.range.max, y: y.range.max } : null;
  return {
    sources,
    modes,
    resolutions,
    resolutionOption,
    geometry,
    pageSizeOptions: options.has('page-width') && options.has('page-height'),
  };
}

/** The capabilities the web app is told, from a mapping. */
export function capabilitiesOf(mapping: SaneMapping): ScannerCapabilities {
  return {
    sources: (['flatbed', 'feeder', 'feederDuplex'] as const).filter((s) => mapping.sources[s]),
    colorModes: (['color', 'grey', 'lineart'] as const).filter((m) => mapping.modes[m]),
    resolutions: mapping.resolutions,
    maxWidthMm: mapping.geometry?.x ?? null,
    maxHeightMm: mapping.geometry?.y ?? null,
  };
}
