import { useCallback, useState } from 'react';
import type { Captcha } from '@zhzy/contracts';
import { fetchCaptcha } from '../api/auth';

/** The image captcha: load or refresh it, and whether it failed to load. */
export function useCaptcha() {
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [failed, setFailed] = useState(false);
  const refresh = useCallback(async () => {
    try {
      setCaptcha(await fetchCaptcha());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  return { captcha, failed, refresh, reset: () => setCaptcha(null) };
}
