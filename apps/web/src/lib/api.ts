import { createApiClient, type ApiClient, type JsonStorage } from '@zhzy/api-client';
import { setBusy } from './progress';
import { sessionEvents, signedOutEvents, storage } from './session';
import { toast } from './toast';

export { sessionChanged } from './session';

/**
 * The app's API client over the shared JSON local storage: SPEC §8's errors as toasts (5000 ms, closable),
 * a 401 or "refresh token无效" clears the session and sends the app to / (see app/provider.tsx), and every
 * request drives the top progress bar.
 */
export function createAppApi(store: JsonStorage = storage, fetchImpl?: typeof fetch): ApiClient {
  return createApiClient({
    baseUrl: '',
    storage: store,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    notify: (message, kind) => {
      toast(message, kind === 'error' ? 'error' : 'success');
    },
    onSignedOut: () => {
      sessionEvents.emit();
      signedOutEvents.emit();
    },
    onProgress: (active) => setBusy(active),
  });
}

export const api: ApiClient = createAppApi();
