' 智能作业 扫描助手: starts the agent without a console window (sign-in autostart, Start menu).
' "launch" (default) starts it in the background; "open" also shows the pairing page in the browser.
Set fso = CreateObject("Scripting.FileSystemObject")
dir = fso.GetParentFolderName(WScript.ScriptFullName)
cmd = "launch"
If WScript.Arguments.Count > 0 Then cmd = WScript.Arguments(0)
If cmd <> "open" Then cmd = "launch"
' --max-semi-space-size=1: the agent's V8 flags (AGENT_NODE_FLAGS in src/runtime.ts, ADR 0055, "Lazy start").
Set sh = CreateObject("WScript.Shell")
sh.Run """" & dir & "\node.exe"" --max-semi-space-size=1 """ & dir & "\app\agent.mjs"" " & cmd, 0, False
