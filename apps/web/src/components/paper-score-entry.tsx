import { useState } from 'react';
import { zhCNHomework as th } from '../i18n/zh-CN';
import { Button } from './ui/button';

const T = th.paperMarking;

/**
 * A person decides a doubtful score box (纸上批阅, ADR 0065): types the score read from the crop, or sends the
 * question to on-screen marking. Used in the 纸上批阅 window and in /scan's exception queue.
 */
export function PaperScoreEntry({
  label,
  busy,
  onEnter,
  onMarkOnScreen,
}: {
  /** The input's accessible name (whose answer, which question). */
  label: string;
  busy: boolean;
  onEnter: (score: number) => void;
  onMarkOnScreen: () => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const enter = () => {
    const value = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(value) || value < 0) {
      setError(T.scoreInvalid);
      return;
    }
    setError('');
    onEnter(value);
  };
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2">
        <input
          type="text"
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && enter()}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          className="h-8 w-20 rounded-md border border-slate-300 px-2 text-sm"
        />
        <Button size="sm" disabled={busy} onClick={enter}>
          {T.enter}
        </Button>
      </div>
      {error && <p className="text-xs text-red-600">{error}</p>}
      <Button size="sm" variant="secondary" disabled={busy} onClick={onMarkOnScreen}>
        {T.markOnScreen}
      </Button>
    </div>
  );
}
