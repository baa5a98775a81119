; Inno Setup 6.3+ script for LexMem: a per-user install that needs no administrator rights.
;
; Built by the Windows workflow after `python packaging/build.py`:
;   iscc /DAppVersion=0.1.0 packaging\windows\lexmem.iss
; AppVersion comes from desktop_app.__version__ (the workflow reads it; never edit it here).
; Paths are relative to this file (Inno Setup resolves Source= against SourceDir, which
; defaults to the script's folder).

#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=x.y.z lexmem.iss
#endif
#ifndef BundleDir
  #define BundleDir "..\..\dist\lexmem"
#endif
#if Ver < EncodeVer(6, 3, 0)
  #error Inno Setup 6.3 or newer is required (x64compatible architecture identifier)
#endif

#define AppName "LexMem"
#define AppExe "lexmem.exe"

[Setup]
; Fixed forever: the same AppId makes a newer installer upgrade the existing install in
; place (same folder, same uninstall entry) instead of installing a second copy.
AppId={{BF357F60-2801-47D7-A3F0-149E30058728}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=LexMem
VersionInfoVersion={#AppVersion}
; per-user, no UAC prompt: Setup runs with the user's own rights and writes only to the
; user's profile and HKCU
PrivilegesRequired=lowest
DefaultDirName={localappdata}\Programs\{#AppName}
DisableProgramGroupPage=yes
DefaultGroupName={#AppName}
; an upgrade reuses the folder chosen the first time
UsePreviousAppDir=yes
DisableDirPage=auto
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=LexMem-{#AppVersion}-setup
SetupIconFile=..\..\resources\icons\lexmem.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName} {#AppVersion}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; the Restart Manager closes a running LexMem before files are replaced on upgrade
CloseApplications=yes
RestartApplications=no
MinVersion=10.0

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; an upgrade must not leave libraries of the previous version next to the new ones
; (PyInstaller would happily load a stale .pyd/.dll); the data folder is elsewhere
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
; {autoprograms}/{autodesktop} resolve to the user's Start menu / desktop in a per-user install
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; __pycache__ or logs a user may have produced inside the program folder
Type: filesandordirs; Name: "{app}\_internal"
; the per-user cache: rebuilt from the program, nothing of the user's (cache_dir in
; desktop_app/core/paths.py: platformdirs user_cache_dir("LexMem", appauthor=False))
Type: filesandordirs; Name: "{localappdata}\LexMem\Cache"
Type: dirifempty; Name: "{localappdata}\LexMem"

[Code]
// The data folder (cases, notes, settings, backups) is %APPDATA%\LexMem: platformdirs
// user_data_dir("LexMem", appauthor=False, roaming=True), see desktop_app/core/paths.py.
// Uninstall keeps it unless the user explicitly says yes; a silent uninstall always keeps it.
function DataDir(): String;
begin
  Result := ExpandConstant('{userappdata}\LexMem');
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  Dir: String;
begin
  if CurUninstallStep = usPostUninstall then
  begin
    Dir := DataDir();
    if DirExists(Dir) and not UninstallSilent() then
    begin
      if MsgBox('Also delete your LexMem data (cases, notes, conversations, settings, backups)?' + #13#10#13#10 +
                Dir + #13#10#13#10 +
                'Choose No to keep it for a later reinstall. This cannot be undone.',
                mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES then
      begin
        if not DelTree(Dir, True, True, True) then
          MsgBox('Some files in ' + Dir + ' could not be deleted. Delete the folder by hand.',
                 mbError, MB_OK);
      end;
    end;
  end;
end;
