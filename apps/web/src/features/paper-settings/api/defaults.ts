import { PaperSettingsSchema, calls, type PaperSettingDefaults, type PaperSettings } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi, useApiMutate } from '../../../lib/swr';

/**
 * The teacher's own default paper settings (/cloudResources/paperSetting), kept by the host so they follow the
 * teacher to every browser; the host gives every new paper these settings when it is made.
 */
export const STANDARD_SETTINGS: PaperSettings = PaperSettingsSchema.parse({});

const KEY = ['paperSettingDefaults'] as const;

export function useTeacherDefaults() {
  return useApi<PaperSettingDefaults>(KEY, async () => (await api.call(calls.paperSettingDefaults)).data);
}

/** Saving and resetting, each refreshing what `useTeacherDefaults` shows. */
export function useTeacherDefaultsActions() {
  const mutate = useApiMutate();
  return {
    async save(settings: PaperSettings): Promise<PaperSettingDefaults> {
      const saved = (await api.call(calls.savePaperSettingDefaults, { body: settings })).data;
      await mutate(KEY, saved);
      return saved;
    },
    async reset(): Promise<PaperSettingDefaults> {
      const reset = (await api.call(calls.resetPaperSettingDefaults)).data;
      await mutate(KEY, reset);
      return reset;
    },
  };
}
