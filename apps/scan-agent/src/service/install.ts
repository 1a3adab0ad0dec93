import path from 'node:path';
import { SUPERVISOR_ENV } from './update.js';

/** What an autostart entry runs. */
export interface ServiceContext {
  home: string;
  /** The node executable. */
  nodePath: string;
  /** `src/cli.ts` of the agent, or the installed bundle `app/agent.mjs`. */
  cliPath: string;
  /** Arguments before the script: `--import tsx` from source, none for the bundle. */
  nodeArgs?: string[];
  /** The agent's folder (tsx is resolved from here). */
  appDir: string;
  /** Settings to keep (AGENT_* variables in force when installing). */
  env: Record<string, string>;
  /** XDG_CONFIG_HOME, when set. */
  configHome?: string;
}

export type ServiceMode = 'systemd' | 'xdg' | 'winsw';

export const SERVICE_ID = 'zhzy-scan-agent';
const TITLE = '智能作业 扫描助手';
const DESCRIPTION = '智能作业的本机扫描助手：连接扫描仪，把答题卡扫描并上传（只监听 127.0.0.1）';

/** systemd quoting: a word in double quotes with `\` and `"` escaped, `%` doubled (specifier). */
const sq = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
/** Desktop-entry Exec quoting (reserved characters in double quotes, `%` doubled). */
const dq = (s: string) => `"${s.replace(/([\\"`$])/g, '\\$1').replace(/%/g, '%%')}"`;

const nodeArgsOf = (ctx: ServiceContext) => ctx.nodeArgs ?? ['--import', 'tsx'];
const configHome = (ctx: ServiceContext) => ctx.configHome ?? path.join(ctx.home, '.config');

/** A systemd --user unit: starts at login, restarts on failure, runs as the user (never root). */
export function systemdUnit(ctx: ServiceContext): string {
  return [
    '[Unit]',
    `Description=${TITLE}`,
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `WorkingDirectory=${sq(ctx.appDir)}`,
    `ExecStart=${[ctx.nodePath, ...nodeArgsOf(ctx), ctx.cliPath, 'start'].map(sq).join(' ')}`,
    ...Object.entries(ctx.env).map(([k, v]) => `Environment=${sq(`${k}=${v}`)}`),
    // The self-update's finisher then runs outside this unit's cgroup (systemd-run) and restarts the unit (ADR 0055).
    `Environment=${SUPERVISOR_ENV}=systemd`,
    'Restart=on-failure',
    'RestartSec=5',
    'NoNewPrivileges=true',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

/** An XDG autostart entry for desktops without a systemd user session. */
export function xdgDesktop(ctx: ServiceContext): string {
  const env = Object.entries(ctx.env).map(([k, v]) => dq(`${k}=${v}`));
  const exec = ['env', ...env, ...[ctx.nodePath, ...nodeArgsOf(ctx), ctx.cliPath, 'start'].map(dq)].join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${TITLE}`,
    `Comment=${DESCRIPTION}`,
    `Path=${ctx.appDir}`,
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * WinSW service definition for IT. Service mode runs under the account IT names: a LocalSystem service cannot show
 * TWAIN dialogs or see per-user printers, so the teacher's own autostart stays the default.
 */
export function winswXml(ctx: ServiceContext): string {
  return [
    '<service>',
    `  <id>${SERVICE_ID}</id>`,
    `  <name>${xml(TITLE)}</name>`,
    `  <description>${xml(DESCRIPTION)}</description>`,
    `  <executable>${xml(ctx.nodePath)}</executable>`,
    `  <arguments>${nodeArgsOf(ctx)
      .map((a) => `${xml(a)} `)
      .join('')}"${xml(ctx.cliPath)}" start</arguments>`,
    `  <workingdirectory>${xml(ctx.appDir)}</workingdirectory>`,
    ...Object.entries(ctx.env).map(([k, v]) => `  <env name="${xml(k)}" value="${xml(v)}"/>`),
    '  <startmode>Automatic</startmode>',
    '  <delayedAutoStart>true</delayedAutoStart>',
    '  <onfailure action="restart" delay="10 sec"/>',
    '  <onfailure action="restart" delay="60 sec"/>',
    '  <resetfailure>1 hour</resetfailure>',
    '  <log mode="roll-by-size">',
    '    <sizeThreshold>10240</sizeThreshold>',
    '    <keepFiles>8</keepFiles>',
    '  </log>',
    '  <!-- 以教师本人的账户运行（不要用 LocalSystem）：<serviceaccount><username>.\\teacher</username><allowservicelogon>true</allowservicelogon></serviceaccount> -->',
    '</service>',
    '',
  ].join('\n');
}

/** The file a mode writes and its content. */
export function serviceFile(mode: ServiceMode, ctx: ServiceContext): { file: string; content: string } {
  switch (mode) {
    case 'systemd':
      return {
        file: path.join(configHome(ctx), 'systemd', 'user', `${SERVICE_ID}.service`),
        content: systemdUnit(ctx),
      };
    case 'xdg':
      return {
        file: path.join(configHome(ctx), 'autostart', `${SERVICE_ID}.desktop`),
        content: xdgDesktop(ctx),
      };
    case 'winsw':
      return { file: path.join(ctx.appDir, `${SERVICE_ID}.xml`), content: winswXml(ctx) };
  }
}

/** What to run after writing the file (printed, not run). */
export function nextSteps(mode: ServiceMode): string[] {
  switch (mode) {
    case 'systemd':
      return ['systemctl --user daemon-reload', `systemctl --user enable --now ${SERVICE_ID}`];
    case 'xdg':
      return ['下次登录桌面时自动启动；现在可运行 scan-agent start'];
    case 'winsw':
      return [
        `把 WinSW.exe 复制为 ${SERVICE_ID}.exe 放在该 XML 旁边，然后以管理员身份运行：${SERVICE_ID}.exe install`,
      ];
  }
}
