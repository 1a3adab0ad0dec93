import type { AgentConfig } from '../config.js';
import type { Scanner } from './port.js';

/**
 * The drivers a configuration asks for, in its order (the virtual scanner last, when enabled). Each driver's module
 * is imported only when the configuration names it, so an agent without eSCL or the demo scanner never loads mDNS,
 * the XML parser or the card rendering (ADR 0055, "Lazy start").
 */
export async function driversFromConfig(config: AgentConfig): Promise<Scanner[]> {
  const scanners: Scanner[] = [];
  for (const name of config.AGENT_DRIVERS) {
    const scanner = await driverOf(name, config);
    if (scanner) scanners.push(scanner);
  }
  if (config.AGENT_VIRTUAL_SCANNER) {
    const { VirtualScanner } = await import('./virtual/virtual-driver.js');
    scanners.push(new VirtualScanner());
  }
  return scanners;
}

async function driverOf(name: string, config: AgentConfig): Promise<Scanner | null> {
  switch (name) {
    case 'sane': {
      const { SaneScanner } = await import('./sane/sane-driver.js');
      return new SaneScanner({
        scanimage: config.AGENT_SCANIMAGE,
        ...(config.AGENT_SANE_CONFIG_DIR ? { configDir: config.AGENT_SANE_CONFIG_DIR } : {}),
      });
    }
    case 'escl': {
      const [{ MdnsDiscovery, StaticDiscovery }, { EsclScanner }] = await Promise.all([
        import('./escl/discovery.js'),
        import('./escl/escl-driver.js'),
      ]);
      return new EsclScanner({
        discovery: config.AGENT_ESCL_DISCOVERY ? new MdnsDiscovery() : new StaticDiscovery([]),
        urls: config.AGENT_ESCL_URLS,
      });
    }
    case 'wia':
      if (process.platform !== 'win32') return null;
      return new (await import('./windows/wia-driver.js')).WiaScanner();
    case 'twain':
      if (process.platform !== 'win32') return null;
      return new (await import('./windows/naps2-driver.js')).Naps2TwainScanner({
        console: config.AGENT_NAPS2,
      });
    case 'hotfolder':
      if (!config.AGENT_HOT_FOLDERS.length) return null;
      return new (await import('./hot-folder/hot-folder-driver.js')).HotFolderScanner({
        folders: config.AGENT_HOT_FOLDERS,
      });
    default:
      return null;
  }
}
