#!/bin/sh
# Installs 智能作业 扫描助手 for the current user (no root): ~/.local/share/zhzy-scan-agent, a systemd user unit
# (or an XDG autostart entry), ~/.local/bin/zhzy-scan-agent. An upgrade keeps agent.conf, the spool and pairings.
#   ./install.sh [--host https://zy.school.cn] [--demo] [--no-start]
set -eu
src=$(dirname "$(readlink -f "$0")")
dest=${ZHZY_AGENT_PREFIX:-${XDG_DATA_HOME:-$HOME/.local/share}/zhzy-scan-agent}
host="" demo="" start=1
while [ $# -gt 0 ]; do
  case "$1" in
    --host) host=$2; shift 2 ;;
    --demo) demo=1; shift ;;
    --no-start) start=""; shift ;;
    *) echo "未知选项：$1" >&2; exit 2 ;;
  esac
done
if [ -x "$dest/zhzy-scan-agent" ]; then "$dest/zhzy-scan-agent" stop >/dev/null 2>&1 || true; fi
mkdir -p "$dest"
rm -rf "$dest/app.new"
cp -R "$src/app" "$dest/app.new"
cp "$src/node" "$dest/node.new" && mv -f "$dest/node.new" "$dest/node"
rm -rf "$dest/app" && mv "$dest/app.new" "$dest/app"
cp "$src/zhzy-scan-agent" "$src/agent.conf.example" "$dest/"
[ -f "$src/agent.conf" ] && cp "$src/agent.conf" "$dest/agent.conf"
if [ -n "$host" ] || [ -n "$demo" ]; then
  {
    echo "# 由 install.sh 写入"
    [ -n "$host" ] && printf 'AGENT_HOST_URLS=%s\nAGENT_ALLOWED_ORIGINS=%s\n' "$host" "$host"
    [ -n "$demo" ] && echo "AGENT_DEMO=true"
  } > "$dest/agent.conf"
fi
mkdir -p "$HOME/.local/bin"
ln -sf "$dest/zhzy-scan-agent" "$HOME/.local/bin/zhzy-scan-agent"
if command -v systemctl >/dev/null 2>&1 && systemctl --user show-environment >/dev/null 2>&1; then
  "$dest/zhzy-scan-agent" install-service --mode systemd
  systemctl --user daemon-reload
  if [ -n "$start" ]; then systemctl --user enable --now zhzy-scan-agent.service; systemctl --user restart zhzy-scan-agent.service; fi
else
  "$dest/zhzy-scan-agent" install-service --mode xdg
  if [ -n "$start" ]; then "$dest/zhzy-scan-agent" launch; fi
fi
echo "扫描助手已安装到 $dest。配对码：运行 zhzy-scan-agent open，或在浏览器打开 http://127.0.0.1:17310/pair"
