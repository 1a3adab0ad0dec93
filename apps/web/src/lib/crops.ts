import { api } from './api';

/**
 * An answer's crop as an object URL. Crops sit behind the bearer check, which an <img src> cannot send, so the
 * image is fetched with the session's token; the caller revokes the URL.
 */
export async function fetchCrop(cropUrl: string, signal?: AbortSignal): Promise<string> {
  const token = api.session.accessToken;
  const res = await fetch(cropUrl, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(signal ? { signal } : {}),
  });
  if (res.status !== 200) throw new Error(String(res.status));
  return URL.createObjectURL(await res.blob());
}
