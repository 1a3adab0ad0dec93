import { AverageScoreScreen } from '../../../features/data-center/components/data-center';

/** Data centre screen (grade directors only: the route guard and the host's 403). */
export function Component() {
  return <AverageScoreScreen />;
}
