import type { AgentConfig } from '../config.js';
import { CupsDriver } from './cups/cups-driver.js';
import { IppDriver } from './ipp/ipp-driver.js';
import type { PrinterDriverPort } from './port.js';
import { SumatraDriver } from './windows/sumatra-driver.js';

/** The print drivers the configuration asks for. */
export function printersFromConfig(config: AgentConfig): PrinterDriverPort[] {
  const drivers: PrinterDriverPort[] = [];
  for (const name of config.AGENT_PRINTERS) {
    if (name === 'cups')
      drivers.push(new CupsDriver(config.AGENT_CUPS_SERVER ? { server: config.AGENT_CUPS_SERVER } : {}));
    if (name === 'ipp' && config.AGENT_IPP_PRINTERS.length)
      drivers.push(new IppDriver({ urls: config.AGENT_IPP_PRINTERS }));
    if (name === 'windows') drivers.push(new SumatraDriver({ sumatra: config.AGENT_SUMATRA }));
  }
  return drivers;
}
