import { BigDataScreen } from '../../features/big-data/components/big-data-screen';

/** /bigData: the school's data overview (no nav, SPEC §2; rem layout, SPEC §9). */
export function Component() {
  return <BigDataScreen variant="overview" />;
}
