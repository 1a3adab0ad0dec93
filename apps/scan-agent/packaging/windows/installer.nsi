; 智能作业 扫描助手 — Windows installer (built by scripts/package.mjs with makensis; ADR 0043).
; Per-user by default (no administrator; starts at sign-in). For IT:
;   zhzy-scan-agent-setup-<v>.exe /S /HOST=https://zy.school.cn [/ORIGINS=…] [/DRIVERS=wia,twain,escl] [/PORT=17310]
;   … /S /ALLUSERS   installs for every user as a Windows service (WinSW; needs administrator)
;   agent.conf next to the installer is copied as the settings instead of the switches.
;   /DEMO turns on the demo virtual scanner; /NOSTART leaves the agent stopped after installing.
Unicode true
Target amd64-unicode
!include "FileFunc.nsh"
!include "LogicLib.nsh"

!ifdef FAST
SetCompressor zlib
!else
SetCompressor /SOLID lzma
SetCompressorDictSize 32
!endif

!define APP "zhzy-scan-agent"
!define TITLE "智能作业 扫描助手"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${APP}"
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"

Name "${TITLE}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${APP}"
ShowInstDetails nevershow
ShowUninstDetails nevershow
BrandingText "${TITLE} ${VERSION}"
VIProductVersion "${VERSION_NUMERIC}"
VIAddVersionKey "ProductName" "${TITLE}"
VIAddVersionKey "FileDescription" "${TITLE} 安装程序"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "CompanyName" "智能作业"
VIAddVersionKey "LegalCopyright" "智能作业"

Page instfiles
UninstPage instfiles

Var AllUsers
Var Params
Var Conf
Var ArgKey
Var ArgVal
Var ArgI
Var ArgC

; The value of "/KEY=value" (or /KEY="value with spaces") in $Params: FileFunc's GetOptions cuts URLs at their "/".
; $ArgKey in, $ArgVal out; the error flag is set when the switch is absent.
Function GetArg
  StrCpy $ArgI 0
  StrCpy $ArgVal ""
  StrLen $ArgC $ArgKey
  find:
    StrCpy $0 $Params $ArgC $ArgI
    StrCmp $0 "" absent
    StrCmp $0 $ArgKey found
    IntOp $ArgI $ArgI + 1
    Goto find
  found:
    IntOp $ArgI $ArgI + $ArgC
    StrCpy $0 $Params 1 $ArgI
    StrCmp $0 '"' 0 plain
    IntOp $ArgI $ArgI + 1
  quoted:
    StrCpy $0 $Params 1 $ArgI
    StrCmp $0 "" done
    StrCmp $0 '"' done
    StrCpy $ArgVal "$ArgVal$0"
    IntOp $ArgI $ArgI + 1
    Goto quoted
  plain:
    StrCpy $0 $Params 1 $ArgI
    StrCmp $0 "" done
    StrCmp $0 " " done
    StrCpy $ArgVal "$ArgVal$0"
    IntOp $ArgI $ArgI + 1
    Goto plain
  absent:
    SetErrors
  done:
FunctionEnd

Function .onInit
  ${GetParameters} $Params
  StrCpy $AllUsers 0
  ClearErrors
  ${GetOptions} $Params "/ALLUSERS" $0
  ${IfNot} ${Errors}
    StrCpy $AllUsers 1
    UserInfo::GetAccountType
    Pop $0
    ${If} $0 != "admin"
      MessageBox MB_ICONSTOP "为所有用户安装（Windows 服务）需要管理员权限。请以管理员身份运行安装程序。" /SD IDOK
      SetErrorLevel 740
      Quit
    ${EndIf}
    SetShellVarContext all
    StrCpy $INSTDIR "$PROGRAMFILES64\${APP}"
  ${EndIf}
  ; An upgrade goes where the installed version is.
  ReadRegStr $0 SHCTX "${UNINST_KEY}" "InstallLocation"
  ${If} $0 != ""
    StrCpy $INSTDIR $0
  ${EndIf}
FunctionEnd

; agent.conf from IT: the file next to the installer, else the switches; nothing given keeps the installed one.
Function WriteConfig
  IfFileExists "$EXEDIR\agent.conf" 0 switches
    CopyFiles /SILENT "$EXEDIR\agent.conf" "$INSTDIR\agent.conf"
    Return
  switches:
  StrCpy $Conf ""
  ClearErrors
  StrCpy $ArgKey "/HOST="
  Call GetArg
  StrCpy $0 $ArgVal
  ${IfNot} ${Errors}
    StrCpy $Conf "$ConfAGENT_HOST_URLS=$0$\r$\nAGENT_ALLOWED_ORIGINS=$0$\r$\n"
  ${EndIf}
  ClearErrors
  StrCpy $ArgKey "/ORIGINS="
  Call GetArg
  StrCpy $0 $ArgVal
  ${IfNot} ${Errors}
    StrCpy $Conf "$ConfAGENT_ALLOWED_ORIGINS=$0$\r$\n"
  ${EndIf}
  ClearErrors
  StrCpy $ArgKey "/DRIVERS="
  Call GetArg
  StrCpy $0 $ArgVal
  ${IfNot} ${Errors}
    StrCpy $Conf "$ConfAGENT_DRIVERS=$0$\r$\n"
  ${EndIf}
  ClearErrors
  StrCpy $ArgKey "/PORT="
  Call GetArg
  StrCpy $0 $ArgVal
  ${IfNot} ${Errors}
    StrCpy $Conf "$ConfAGENT_PORT=$0$\r$\n"
  ${EndIf}
  ClearErrors
  ${GetOptions} $Params "/DEMO" $0
  ${IfNot} ${Errors}
    StrCpy $Conf "$ConfAGENT_DEMO=true$\r$\n"
  ${EndIf}
  ${If} $AllUsers == 1
    StrCpy $Conf "$ConfAGENT_DATA_DIR=$APPDATA\${APP}$\r$\n"
  ${EndIf}
  ${If} $Conf != ""
    FileOpen $1 "$INSTDIR\agent.conf" w
    FileWrite $1 "# zhzy-scan-agent settings, written by the installer (environment variables override)$\r$\n$Conf"
    FileClose $1
  ${EndIf}
FunctionEnd

Section "install"
  SetOutPath "$INSTDIR"
  ; An upgrade: stop the running agent first. Its spool and pairings live in the data folder, never in here.
  IfFileExists "$INSTDIR\${APP}.xml" 0 +4
    nsExec::Exec '"$INSTDIR\${APP}.exe" stop'
    Pop $0
    Sleep 1000
  IfFileExists "$INSTDIR\node.exe" 0 +3
    nsExec::Exec '"$INSTDIR\node.exe" "$INSTDIR\app\agent.mjs" stop'
    Pop $0
  RMDir /r "$INSTDIR\app"
  File "${STAGE}\node.exe"
  File "${STAGE}\SumatraPDF.exe"
  File "${STAGE}\start-hidden.vbs"
  File /r "${STAGE}\app"
  Call WriteConfig
  WriteUninstaller "$INSTDIR\uninstall.exe"

  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayName" "${TITLE}"
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr SHCTX "${UNINST_KEY}" "Publisher" "智能作业"
  WriteRegStr SHCTX "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\node.exe"
  WriteRegStr SHCTX "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr SHCTX "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD SHCTX "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD SHCTX "${UNINST_KEY}" "NoRepair" 1

  CreateDirectory "$SMPROGRAMS\${TITLE}"
  CreateShortcut "$SMPROGRAMS\${TITLE}\扫描助手配对码.lnk" "$SYSDIR\wscript.exe" '"$INSTDIR\start-hidden.vbs" open' "$INSTDIR\node.exe" 0 SW_SHOWNORMAL "" "打开扫描助手的配对页（显示 6 位配对码）"
  CreateShortcut "$SMPROGRAMS\${TITLE}\卸载扫描助手.lnk" "$INSTDIR\uninstall.exe"

  ClearErrors
  ${GetOptions} $Params "/NOSTART" $0
  ${If} $AllUsers == 1
    ; Service for IT: WinSW runs node.exe with the bundle, restarting it on failure.
    File /oname=${APP}.exe "${STAGE}\${APP}-service.exe"
    nsExec::Exec '"$INSTDIR\node.exe" "$INSTDIR\app\agent.mjs" install-service --mode winsw --write'
    Pop $0
    nsExec::Exec '"$INSTDIR\${APP}.exe" install'
    Pop $0
    ${If} ${Errors}
      nsExec::Exec '"$INSTDIR\${APP}.exe" start'
      Pop $0
    ${EndIf}
  ${Else}
    WriteRegStr HKCU "${RUN_KEY}" "${APP}" '"$SYSDIR\wscript.exe" "$INSTDIR\start-hidden.vbs"'
    ${If} ${Errors}
      ${If} ${Silent}
        Exec '"$SYSDIR\wscript.exe" "$INSTDIR\start-hidden.vbs"'
      ${Else}
        ; After a teacher's own install: the pairing page with the code in large digits.
        Exec '"$SYSDIR\wscript.exe" "$INSTDIR\start-hidden.vbs" open'
      ${EndIf}
    ${EndIf}
  ${EndIf}
SectionEnd

Function un.onInit
  IfFileExists "$INSTDIR\${APP}.xml" 0 +2
    SetShellVarContext all
FunctionEnd

Section "Uninstall"
  IfFileExists "$INSTDIR\${APP}.xml" 0 +5
    nsExec::Exec '"$INSTDIR\${APP}.exe" stop'
    Pop $0
    nsExec::Exec '"$INSTDIR\${APP}.exe" uninstall'
    Pop $0
  nsExec::Exec '"$INSTDIR\node.exe" "$INSTDIR\app\agent.mjs" stop'
  Pop $0
  DeleteRegValue HKCU "${RUN_KEY}" "${APP}"
  RMDir /r "$SMPROGRAMS\${TITLE}"
  RMDir /r "$INSTDIR\app"
  Delete "$INSTDIR\node.exe"
  Delete "$INSTDIR\SumatraPDF.exe"
  Delete "$INSTDIR\start-hidden.vbs"
  Delete "$INSTDIR\${APP}.exe"
  Delete "$INSTDIR\${APP}.xml"
  Delete "$INSTDIR\agent.conf"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey SHCTX "${UNINST_KEY}"
  ; The data folder (pairings, unsent pages) stays: a page not yet uploaded is never deleted by an uninstall.
SectionEnd
