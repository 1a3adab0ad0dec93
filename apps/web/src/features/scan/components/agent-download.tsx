import { isNewerVersion, type AgentHealth, type AgentPlatform } from '@zhzy/contracts';
import { Button, Spinner } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/icons';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import {
  AGENT_PLATFORMS,
  PLATFORM_NAMES,
  detectPlatform,
  useAgentPackages,
  useLocalNetworkAccess,
} from '../api/agent-download';
import type { ScanSessionState } from '../stores/scan-session';

const href = (p: AgentPlatform) => `/agent/download/${p}`;

/** 「下载扫描助手」 for the teacher's OS, three numbered steps, and Chrome's Local Network Access explained. */
export function AgentDownload({ platform = detectPlatform() }: { platform?: AgentPlatform }) {
  const manifest = useAgentPackages();
  const lna = useLocalNetworkAccess();
  const mine = manifest?.packages[platform];
  const others = AGENT_PLATFORMS.filter((p) => p !== platform && manifest?.packages[p]);
  return (
    <div className="mt-3 rounded-lg bg-slate-50 p-4 text-sm text-slate-700">
      <h3 className="font-medium text-slate-900">{s.agent.helpTitle}</h3>
      {lna === 'denied' && (
        <p className="mt-2 flex gap-2 rounded-md bg-red-50 p-3 text-red-800" role="alert">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {s.download.lnaDenied}
        </p>
      )}
      {mine ? (
        <p className="mt-3 flex flex-wrap items-center gap-3">
          <a
            href={href(platform)}
            download={mine.file}
            className="inline-flex items-center rounded-md bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
          >
            {s.download.button(PLATFORM_NAMES[platform])}
          </a>
          <span className="text-xs text-slate-500">
            {s.download.facts(mine.version, (mine.size / 1e6).toFixed(1))}
          </span>
          {others.length > 0 && (
            <span className="text-xs text-slate-500">
              {s.download.otherOs}
              {others.map((p) => (
                <a key={p} href={href(p)} className="ml-2 text-blue-700 underline">
                  {PLATFORM_NAMES[p]}
                </a>
              ))}
            </span>
          )}
        </p>
      ) : (
        manifest === null && <p className="mt-2 text-slate-500">{s.download.none}</p>
      )}
      <ol className="mt-3 list-decimal space-y-1.5 pl-5 leading-6">
        {s.download.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="mt-3 font-medium text-slate-900">{s.download.lnaTitle}</p>
      <p className="mt-1 leading-6">{s.download.lnaText}</p>
      <p className="mt-3 text-xs leading-5 text-slate-500">{s.download.it}</p>
    </div>
  );
}

/** The package platform of a connected agent: what it says it was installed from, else the browser's OS. */
const platformOf = (agent: AgentHealth): AgentPlatform =>
  AGENT_PLATFORMS.find((p) => p === agent.packagePlatform) ?? detectPlatform();

/**
 * Shown beside a connected agent when the host serves a newer one: 「更新」 when the agent can update itself (an
 * installed package; ADR 0055), else the new installer to download.
 */
export function AgentUpdateNotice({
  agent,
  update,
  onUpdate,
}: {
  agent: AgentHealth;
  update: ScanSessionState['agentUpdate'];
  onUpdate: (version: string) => void;
}) {
  const manifest = useAgentPackages();
  const platform = platformOf(agent);
  const latest = manifest?.packages[platform];
  if (!latest || !isNewerVersion(latest.version, agent.version)) return null;
  return (
    <div
      className="flex w-full flex-wrap items-center gap-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
      role="status"
      data-testid="agent-update"
    >
      <p className="min-w-0 flex-1">
        <span className="font-medium">{s.download.updateAvailable(agent.version, latest.version)}</span>{' '}
        {update?.phase === 'updating'
          ? s.download.updating
          : agent.canUpdate
            ? s.download.selfUpdateHint
            : s.download.updateHint}
      </p>
      {agent.canUpdate ? (
        <Button size="sm" onClick={() => onUpdate(latest.version)} disabled={update?.phase === 'updating'}>
          {update?.phase === 'updating' && <Spinner />}
          {s.download.selfUpdateButton}
        </Button>
      ) : (
        <a href={href(platform)} download={latest.file} className="font-medium underline">
          {s.download.updateButton}
        </a>
      )}
      {update?.phase === 'failed' && update.message && (
        <p className="flex w-full items-start gap-2 text-red-700" role="alert">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {update.message}
        </p>
      )}
    </div>
  );
}
