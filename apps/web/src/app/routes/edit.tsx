import { useCallback, useRef } from 'react';
import { fetchBasket, useBasket, useBasketActions } from '../../features/basket/api/basket';
import { ComposeScreen } from '../../features/compose/components/compose-screen';

/**
 * 组卷中心: composition from the basket (type=2) or of a saved paper (new papers get the teacher's defaults on the host).
 * Once a paper composed from the basket is saved, that basket paper is cleared (its questions are in the paper now),
 * and the basket badge follows.
 */
export function Component() {
  const { data: basket } = useBasket();
  const basketRef = useRef(basket);
  basketRef.current = basket;
  const actions = useBasketActions();
  const actionsRef = useRef(actions);
  actionsRef.current = actions;
  const cleared = useRef(new Set<string>());
  const onSavedFromBasket = useCallback(async (basketPaperId: string) => {
    // Only while the basket still holds that paper (cleared already, or by hand, there is nothing to do).
    const current = basketRef.current ?? (await fetchBasket().catch(() => null));
    if (cleared.current.has(basketPaperId) || !current?.paperInfo.some((p) => p.id === basketPaperId)) return;
    cleared.current.add(basketPaperId);
    await actionsRef.current.clear(basketPaperId).catch(() => cleared.current.delete(basketPaperId));
  }, []);
  return <ComposeScreen onSavedFromBasket={onSavedFromBasket} />;
}
