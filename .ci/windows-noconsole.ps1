# windows-noconsole: on a real Windows (windows.yml), the station run by the
# GUI face (buildstationw.exe, what the logon task and links start) runs
# git (worktrees, evidence) and a project's gate through cmd.exe, and none
# of those children opens a console window: every top-level window of
# class ConsoleWindowClass is listed before and while the task runs, and
# any new one fails the step. Without CREATE_NO_WINDOW each git call and
# the gate's cmd.exe would get one (a black window that flashes).
#
#   pwsh .ci/windows-noconsole.ps1 bin\buildstationw.exe bin\buildstation.exe
param([string]$Gui, [string]$Cli)
$ErrorActionPreference = 'Stop'
$Gui = (Resolve-Path $Gui).Path
$Cli = (Resolve-Path $Cli).Path
Add-Type @"
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
public static class ConsoleWindows {
    delegate bool EnumProc(IntPtr h, IntPtr l);
    [DllImport("user32.dll")] static extern bool EnumWindows(EnumProc f, IntPtr l);
    [DllImport("user32.dll", CharSet = CharSet.Unicode)] static extern int GetClassName(IntPtr h, StringBuilder s, int n);
    [DllImport("user32.dll")] static extern uint GetWindowThreadProcessId(IntPtr h, out uint pid);
    public static List<string> List() {
        var found = new List<string>();
        EnumWindows((h, l) => {
            var s = new StringBuilder(256);
            GetClassName(h, s, 256);
            if (s.ToString() == "ConsoleWindowClass") {
                uint pid; GetWindowThreadProcessId(h, out pid);
                found.Add(h.ToString() + " pid " + pid);
            }
            return true;
        }, IntPtr.Zero);
        return found;
    }
}
"@
$root = Join-Path $env:RUNNER_TEMP 'bs-noconsole'
Remove-Item -Recurse -Force $root -ErrorAction SilentlyContinue
$home_ = Join-Path $root 'home'; $project = Join-Path $root 'project'
New-Item -ItemType Directory -Force $home_, $project | Out-Null
git -C $project init -q -b main
git -C $project -c user.email=ci@example.com -c user.name=ci commit -q --allow-empty -m init
@'
@echo off
git -c user.email=ci@example.com -c user.name=ci commit -q --allow-empty -m "agent work"
"%BUILDSTATION_BIN%" agent complete --summary "committed"
'@ | Set-Content -Encoding ascii (Join-Path $project 'agent.cmd')
@"
max_sessions = 1

[[projects]]
name = "noconsole"
path = '$project'
command = ['$project\agent.cmd']
gate = "git rev-parse HEAD && ver"
"@ | Set-Content -Encoding utf8 (Join-Path $home_ 'config.toml')

$before = [ConsoleWindows]::List()
Write-Host "console windows before: $($before.Count)"
$station = Start-Process -FilePath $Gui -ArgumentList '--home', $home_, 'daemon' -PassThru
try {
    for ($i = 0; $i -lt 120 -and -not (Test-Path (Join-Path $home_ 'station.json'))); $i++) { Start-Sleep -Milliseconds 500 }
    $id = (& $Cli --home $home_ task add --project noconsole --title 'no console' --body 'commit and complete').Trim()
    Write-Host "task $id"
    $new = @{}
    $state = ''
    for ($i = 0; $i -lt 1200; $i++) {
        foreach ($w in [ConsoleWindows]::List()) { if ($before -notcontains $w) { $new[$w] = $true } }
        if ($i % 20 -eq 0) {
            $state = ((& $Cli --home $home_ task show $id --json) | ConvertFrom-Json).state
            if ($state -in 'review', 'done', 'blocked') { break }
        }
        Start-Sleep -Milliseconds 50
    }
    & $Cli --home $home_ task show $id
    if ($state -notin 'review', 'done') { throw "FAIL: the task is $state, not past its gate: the gate and git did not run to the end" }
    if ($new.Count -gt 0) { throw "FAIL: $($new.Count) console window(s) appeared while git and the gate ran: $($new.Keys -join ', ')" }
    Write-Host "PASS: git and the gate ran from buildstationw.exe's station ($state) and no console window appeared"
} finally {
    Stop-Process -Id $station.Id -Force -ErrorAction SilentlyContinue
}
