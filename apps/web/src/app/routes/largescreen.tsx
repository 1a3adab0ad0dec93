import { BigDataScreen } from '../../features/big-data/components/big-data-screen';

/** /largescreen: the school's activity on a wall display, refreshing itself (no nav, SPEC §2; rem layout, SPEC §9). */
export function Component() {
  return <BigDataScreen variant="display" />;
}
