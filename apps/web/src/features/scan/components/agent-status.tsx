import { AGENT_PROTOCOL_VERSION } from '@zhzy/contracts';
import { AlertIcon, CheckIcon } from '../../../components/icons';
import { Button, Spinner } from '../../../components/ui/button';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import type { ScanSessionState } from '../stores/scan-session';
import { AgentDownload, AgentUpdateNotice } from './agent-download';

/** How to install and start the agent (shown when it cannot be reached): the download and its three steps. */
export function AgentHelp() {
  return <AgentDownload />;
}

/** The state of the connection to the scan agent, with what the teacher can do about it. */
export function AgentStatus({
  state,
  onConnect,
  onRecheck,
  onPair,
  onUnpair,
  onUpdate,
}: {
  state: ScanSessionState;
  onConnect: () => void;
  onRecheck: () => void;
  onPair: () => void;
  onUnpair: () => void;
  onUpdate: (version: string) => void;
}) {
  const { status } = state;
  let tone = 'border-slate-200 bg-white';
  let body: React.ReactNode;
  switch (status) {
    case 'idle':
      body = (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600">{s.agent.idle}</p>
          <Button variant="secondary" size="sm" onClick={onConnect}>
            {s.agent.connect}
          </Button>
        </div>
      );
      break;
    case 'checking':
    case 'connecting':
      body = (
        <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
          <Spinner className="text-blue-600" />
          {state.reconnecting ? s.agent.reconnecting : s.agent.checking}
        </p>
      );
      break;
    case 'ready':
      tone = 'border-emerald-200 bg-emerald-50/60';
      body = (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-center gap-2 text-sm text-emerald-800" role="status">
            <CheckIcon className="size-4" />
            {s.agent.ready(state.agent?.version ?? '')}
          </p>
          <Button variant="ghost" size="sm" onClick={onUnpair}>
            {s.agent.unpair}
          </Button>
          {state.agent && (
            <AgentUpdateNotice agent={state.agent} update={state.agentUpdate} onUpdate={onUpdate} />
          )}
        </div>
      );
      break;
    case 'unpaired':
      body = (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600">{s.pairing.intro}</p>
          <Button size="sm" onClick={onPair}>
            {s.pairing.title}
          </Button>
        </div>
      );
      break;
    case 'outdated':
      tone = 'border-amber-200 bg-amber-50';
      body = (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-start gap-2 text-sm text-amber-800" role="alert">
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            {s.agent.outdated(state.outdatedVersion ?? 0, AGENT_PROTOCOL_VERSION)}
          </p>
          <Button variant="secondary" size="sm" onClick={onRecheck}>
            {s.agent.recheck}
          </Button>
        </div>
      );
      break;
    case 'unreachable':
      tone = 'border-amber-200 bg-amber-50/60';
      body = (
        <div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <p className="flex items-center gap-2 text-sm font-medium text-amber-900" role="alert">
                <AlertIcon className="size-4" />
                {state.reconnecting ? s.agent.reconnecting : s.agent.unreachable}
              </p>
              <p className="mt-1 text-sm leading-6 text-slate-600">{s.agent.unreachableText}</p>
            </div>
            <Button variant="secondary" size="sm" onClick={onRecheck}>
              {s.agent.recheck}
            </Button>
          </div>
          <AgentHelp />
          <p className="mt-3 text-sm text-slate-600">{s.agent.noAgentUpload}</p>
        </div>
      );
      break;
  }
  return (
    <section
      aria-label={s.agent.title}
      className={`rounded-xl border px-4 py-3 ${tone}`}
      data-testid="agent-status"
    >
      {body}
    </section>
  );
}
