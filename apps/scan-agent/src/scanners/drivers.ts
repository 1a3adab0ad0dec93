import type { AgentConfig } from '../config.js';
import { MdnsDiscovery, StaticDiscovery } from './escl/discovery.js';
import { EsclScanner } from './escl/escl-driver.js';
import { HotFolderScanner } from './hot-folder/hot-folder-driver.js';
import type { Scanner } from './port.js';
import { SaneScanner } from './sane/sane-driver.js';
import { VirtualScanner } from './virtual/virtual-driver.js';
import { Naps2TwainScanner } from './windows/naps2-driver.js';
import { WiaScanner } from './windows/wia-driver.js';

/** The drivers a configuration asks for, in its order (the virtual scanner last, when enabled). */
export function driversFromConfig(config: AgentConfig): Scanner[] {
  const scanners: Scanner[] = [];
  for (const name of config.AGENT_DRIVERS) {
    switch (name) {
      case 'sane':
        scanners.push(
          new SaneScanner({
            scanimage: config.AGENT_SCANIMAGE,
            ...(config.AGENT_SANE_CONFIG_DIR ? { configDir: config.AGENT_SANE_CONFIG_DIR } : {}),
          }),
        );
        break;
      case 'escl':
        scanners.push(
          new EsclScanner({
            discovery: config.AGENT_ESCL_DISCOVERY ? new MdnsDiscovery() : new StaticDiscovery([]),
            urls: config.AGENT_ESCL_URLS,
          }),
        );
        break;
      case 'wia':
        if (process.platform === 'win32') scanners.push(new WiaScanner());
        break;
      case 'twain':
        if (process.platform === 'win32')
          scanners.push(new Naps2TwainScanner({ console: config.AGENT_NAPS2 }));
        break;
      case 'hotfolder':
        if (config.AGENT_HOT_FOLDERS.length)
          scanners.push(new HotFolderScanner({ folders: config.AGENT_HOT_FOLDERS }));
        break;
      default:
        break;
    }
  }
  if (config.AGENT_VIRTUAL_SCANNER) scanners.push(new VirtualScanner());
  return scanners;
}
