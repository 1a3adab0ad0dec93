import useSWR, { useSWRConfig, type MutatorOptions, type SWRConfiguration, type SWRResponse } from 'swr';
import { isApiError } from '@zhzy/api-client';
import { useSession } from './session';

/**
 * The app's data-fetching policy in one place (SWR is kept out of the visitor page's bundle, so there is no
 * SWRConfig provider): no refetch on window focus, and no retry of a 4xx — the client already showed its
 * message (SPEC §8), and a 401 has already signed the user out.
 */
export const SWR_DEFAULTS: SWRConfiguration = {
  revalidateOnFocus: false,
  dedupingInterval: 4000,
  errorRetryCount: 2,
  shouldRetryOnError: (error: unknown) => !(isApiError(error) && error.status !== null && error.status < 500),
};

export type ApiKey = readonly (string | number | null)[];

/** Cache keys carry the signed-in user, so one teacher never sees another's cached answers. */
function scopedKey(userId: string | undefined, key: ApiKey): ApiKey {
  return [userId ?? 'visitor', ...key];
}

/** `useSWR` with the app's policy; `key` null fetches nothing. The fetcher closes over its parameters. */
export function useApi<T>(
  key: ApiKey | null,
  fetcher: () => Promise<T>,
  options?: SWRConfiguration<T>,
): SWRResponse<T> {
  const { user } = useSession();
  return useSWR<T>(key ? scopedKey(user?.id, key) : null, fetcher, {
    ...SWR_DEFAULTS,
    ...options,
  } as SWRConfiguration<T>);
}

/** Revalidates a key (no data) or replaces its data, in the signed-in user's scope. */
export function useApiMutate() {
  const { mutate } = useSWRConfig();
  const { user } = useSession();
  return <T>(key: ApiKey, ...rest: [] | [data: T, options?: MutatorOptions<T>]) =>
    rest.length === 0 ? mutate(scopedKey(user?.id, key)) : mutate(scopedKey(user?.id, key), rest[0], rest[1]);
}

/** Revalidates every cached key of a feature (keys `[prefix, …]`), in the signed-in user's scope. */
export function useApiRevalidate() {
  const { mutate } = useSWRConfig();
  const { user } = useSession();
  const scope = user?.id ?? 'visitor';
  return (prefix: string, part?: string) =>
    mutate(
      (key: unknown) =>
        Array.isArray(key) &&
        key[0] === scope &&
        key[1] === prefix &&
        (part === undefined || key[2] === part),
    );
}
