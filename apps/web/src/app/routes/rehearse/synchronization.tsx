import { useBasketActions } from '../../../features/basket/api/basket';
import { SyncClassScreen } from '../../../features/sync-class/components/sync-class-screen';

/** 同步课堂: ready sets by textbook chapter, into the basket or straight into a paper. */
export function Component() {
  const actions = useBasketActions();
  return <SyncClassScreen onAddToBasket={(ids) => actions.add(ids)} />;
}
