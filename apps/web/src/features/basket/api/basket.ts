import {
  BasketSchema,
  EMPTY_BASKET,
  MESSAGES,
  TOAST_ADD_SUCCESS_MS,
  calls,
  type Basket,
} from '@zhzy/contracts';
import { keys } from '../../../api/keys';
import { api } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useApi, useApiMutate } from '../../../lib/swr';
import { toast } from '../../../lib/toast';

/** One shared copy of the basket for the side bar, the popover and the question cards. */
const BASKET_KEY = keys.basket();

export async function fetchBasket(): Promise<Basket> {
  const answer = await api.call(calls.getQuestionBasket);
  return answer.data ?? EMPTY_BASKET;
}

/** The basket of the signed-in teacher (nothing is fetched for a visitor). */
export function useBasket() {
  const { signedIn } = useSession();
  return useApi(signedIn ? BASKET_KEY : null, fetchBasket, { keepPreviousData: true });
}

/** A basket found in an answer field, or null (SPEC §7: clear answers it in `message`, delete in `data`). */
export function basketIn(value: unknown): Basket | null {
  const parsed = BasketSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The basket calls; each keeps the shared copy up to date as SPEC §4 says. */
export function useBasketActions() {
  const mutate = useApiMutate();
  const replace = (basket: Basket | null) =>
    basket ? mutate(BASKET_KEY, basket, { revalidate: false }) : Promise.resolve(undefined);
  return {
    /** Adds questions, shows 添加成功 for 3000 ms, then reloads the basket. */
    async add(questionIds: string[]): Promise<void> {
      await api.call(calls.addBasket, { body: { questionIds } });
      toast.success(MESSAGES.addSuccess, TOAST_ADD_SUCCESS_MS);
      await mutate(BASKET_KEY);
    },
    /** Removes questions; the answer is the new basket. */
    async remove(questionIds: string[]): Promise<void> {
      const answer = await api.call(calls.removeBasket, { body: { questionIds } });
      await replace(basketIn(answer.data));
    },
    /** Clears one basket paper; the basket comes back in `message`. */
    async clear(paperId: string): Promise<void> {
      const answer = await api.call(calls.clearBasket, { params: { id: paperId } });
      await replace(basketIn(answer.message));
    },
    /** Deletes one question-type row; when `data` holds a basket it becomes the basket. */
    async deleteType(rowId: string): Promise<void> {
      const answer = await api.call(calls.delQuestionType, { params: { id: rowId } });
      await replace(basketIn(answer.data));
    },
  };
}
