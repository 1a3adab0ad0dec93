import { useMemo, useState } from 'react';
import { useBasket, useBasketActions } from '../../../features/basket/api/basket';
import { QuestionBank } from '../../../features/questions/components/question-bank';
import type { BasketControls } from '../../../features/questions/components/question-card';

/** 选题组卷: the question bank wired to the shared basket. */
export function Component() {
  const { data: basket } = useBasket();
  const inBasket = useMemo(() => new Set(basket?.questionIds ?? []), [basket]);
  const actions = useBasketActions();
  const [busy, setBusy] = useState<Set<string>>(new Set());

  const mark = (id: string, on: boolean) =>
    setBusy((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const controls: BasketControls = {
    has: (id) => inBasket.has(id),
    busy: (id) => busy.has(id),
    toggle: (id) => {
      mark(id, true);
      (inBasket.has(id) ? actions.remove([id]) : actions.add([id]))
        // The client already showed the error.
        .catch(() => undefined)
        .finally(() => mark(id, false));
    },
  };

  return (
    <QuestionBank
      basket={controls}
      onAddMany={async (ids) => {
        if (ids.length === 0) return;
        await actions.add(ids).catch(() => undefined);
      }}
    />
  );
}
