import { BarcodePage } from '../../../features/printing/components/barcode-page';

/** /printBarcode: CODE128, EAN-13, pharmacode and other barcodes, checked against their rules. */
export function Component() {
  return <BarcodePage />;
}
