import { useState } from 'react';
import { AGENT_PAIRING } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import type { PairingState } from '../stores/scan-session';

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString('zh-CN', { hour: '2-digit', minute: '2-digit', hour12: false });

/**
 * Pairing with the agent, step by step: start the agent → 连接 (the agent shows a 6-digit code) → type the code →
 * 确认配对. Every refusal of the agent is shown as it comes.
 */
export function PairingDialog({
  open,
  pairing,
  onClose,
  onRequest,
  onConfirm,
}: {
  open: boolean;
  pairing: PairingState;
  onClose: () => void;
  onRequest: () => void;
  onConfirm: (code: string) => void;
}) {
  const [code, setCode] = useState('');
  const steps = [s.pairing.step1, s.pairing.step2, s.pairing.step3];
  return (
    <Dialog open={open} onClose={onClose} title={s.pairing.title}>
      <p className="text-sm leading-6 text-slate-600">{s.pairing.intro}</p>
      <ol className="mt-3 space-y-2 text-sm text-slate-700">
        {steps.map((text, i) => (
          <li key={text} className="flex gap-2.5">
            <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-blue-50 text-xs font-semibold text-blue-700">
              {i + 1}
            </span>
            <span className="leading-5">{text}</span>
          </li>
        ))}
      </ol>

      {pairing.step === 'start' ? (
        <div className="mt-5 flex justify-end">
          <Button onClick={onRequest} loading={pairing.busy}>
            {s.pairing.connect}
          </Button>
        </div>
      ) : (
        <form
          className="mt-5 space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            onConfirm(code);
          }}
        >
          {pairing.expiresAt && (
            <p role="status" className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-800">
              {s.pairing.requested(timeOf(pairing.expiresAt))}
            </p>
          )}
          <TextField
            label={s.pairing.code}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, AGENT_PAIRING.codeDigits))}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder={s.pairing.codePlaceholder}
            maxLength={AGENT_PAIRING.codeDigits}
            autoFocus
          />
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Button variant="link" onClick={onRequest} disabled={pairing.busy}>
              {s.pairing.again}
            </Button>
            <Button type="submit" loading={pairing.busy}>
              {s.pairing.confirm}
            </Button>
          </div>
        </form>
      )}
      {pairing.error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {pairing.error}
        </p>
      )}
    </Dialog>
  );
}
