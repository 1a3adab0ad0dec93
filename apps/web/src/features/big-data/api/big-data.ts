import { calls } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** Asked again before the host's `refreshSeconds` is known. */
const FIRST_REFRESH_MS = 60_000;

/**
 * The school's activity for /bigData and /largescreen, asked again every `refreshSeconds` the host gives (the
 * screens stay open on a wall all day, so they refresh themselves, in the background too).
 */
export function useBigData() {
  return useApi(['teacher/big-data/overview'], async () => (await api.call(calls.bigData)).data, {
    refreshInterval: (latest) => (latest ? latest.refreshSeconds * 1000 : FIRST_REFRESH_MS),
    refreshWhenHidden: true,
    keepPreviousData: true,
  });
}
