import { useCallback, useMemo, useState } from 'react';
import { layoutCard } from '@zhzy/answer-card';
import type { CardLayout, CardPaper, CardSettings } from '@zhzy/contracts';
import { clampHeight, settingsKey, withSize } from '../utils/settings';

export interface CardDesign {
  settings: CardSettings;
  /** The layout of the current settings, run in the browser on every change. */
  layout: CardLayout;
  /** The layout could not be made (an item that fits in no column); the last good layout is shown. */
  failed: boolean;
  dirty: boolean;
  update: (patch: Partial<CardSettings>) => void;
  setBoxHeight: (key: string, mm: number) => void;
  resetHeights: () => void;
  /** Marks the current settings as saved (after a successful save). */
  markSaved: (saved: CardSettings) => void;
}

/**
 * The designer's state: the settings being edited and their layout by the same pure `layoutCard` the host and the
 * renderer use, so the preview is the card that will be printed and read.
 */
export function useCardDesign(
  paper: CardPaper,
  initial: CardSettings,
  options: { cardId: string; version: number },
): CardDesign {
  const [settings, setSettings] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [lastGood, setLastGood] = useState<CardLayout | null>(null);

  const attempt = useMemo(() => {
    try {
      return { layout: layoutCard(paper, settings, options), failed: false };
    } catch {
      return { layout: null, failed: true };
    }
  }, [paper, settings, options.cardId, options.version]);
  if (attempt.layout && attempt.layout !== lastGood) setLastGood(attempt.layout);
  const layout = attempt.layout ?? lastGood ?? layoutCard(paper, initial, options);

  const update = useCallback((patch: Partial<CardSettings>) => {
    setSettings((s) => {
      const next = { ...s, ...patch };
      return patch.size ? withSize(next, patch.size) : next;
    });
  }, []);
  const setBoxHeight = useCallback((key: string, mm: number) => {
    setSettings((s) => {
      const h = clampHeight(mm);
      if (s.writtenHeights[key] === h) return s;
      return { ...s, writtenHeights: { ...s.writtenHeights, [key]: h } };
    });
  }, []);
  const resetHeights = useCallback(() => setSettings((s) => ({ ...s, writtenHeights: {} })), []);
  const markSaved = useCallback((next: CardSettings) => {
    setSaved(next);
    setSettings(next);
  }, []);

  return {
    settings,
    layout,
    failed: attempt.failed,
    dirty: settingsKey(settings) !== settingsKey(saved),
    update,
    setBoxHeight,
    resetHeights,
    markSaved,
  };
}
