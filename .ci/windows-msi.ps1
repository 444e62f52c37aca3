# windows-msi: the MSI as a Windows user meets it, asserted step by step
# (every msiexec exit code, every version, every key), on a real Windows:
# the release workflow's windows-install job and windows.yml's msi job.
#
#   pwsh -File .ci/windows-msi.ps1 -Msi NEW.msi -Want 0.2.1 [-Old OLD.msi]
#
# 1. With -Old: OLD installed per-user, `service install` (the logon task,
#    the Run value, the link handler), a station started by the logon task
#    (schtasks /run); then NEW installed over it: one Build Station product,
#    the three exes print NEW's version and no stale file is left, the
#    logon task, the Run value and the link handler are still there, and a station answers again (the
#    installer's `service pause` stopped it before the files were replaced
#    and `service resume` started it from the new program).
#    An OLD whose own uninstall still removes the autostart on an upgrade
#    (its RemoveAutostart lacks NOT UPGRADINGPRODUCTCODE: releases before
#    the fix) is said and its kept-autostart checks are skipped.
# 2. Without -Old: NEW installed on a clean account.
# Then: the Start-menu shortcut carries the AUMID dev.buildstation.app,
# the handler's command is "…\buildstationw.exe" open "%1", the three exes
# (buildstation.exe, buildstation-app.exe, buildstationw.exe) print -Want
# and no other file is installed; NEW uninstalled: exit 0, no program
# folder, no handler key, no Run value, no logon task (the home is the
# user's and stays).
param([Parameter(Mandatory)][string]$Msi, [Parameter(Mandatory)][string]$Want, [string]$Old)
$ErrorActionPreference = 'Stop'
$Want = $Want -replace '^v', ''
$dir = Join-Path $env:LOCALAPPDATA 'Programs\Build Station'
$runKey = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'
$handlerKey = 'HKCU:\Software\Classes\buildstation\shell\open\command'
$lnk = Join-Path $env:APPDATA 'Microsoft\Windows\Start Menu\Programs\Build Station.lnk'
$tmp = $env:RUNNER_TEMP
if (-not $tmp) { $tmp = $env:TEMP }

function Pass([string]$what) { Write-Host "PASS: $what" }
# The light command line, the whole program's console and GUI faces.
$exes = @('buildstation-app.exe', 'buildstation.exe', 'buildstationw.exe')
function Msiexec([string]$op, [string]$file, [string]$log) {
    $p = Start-Process msiexec -ArgumentList "$op `"$file`" /qn /l*v `"$log`"" -Wait -PassThru
    if ($p.ExitCode -ne 0) {
        Get-Content $log -Tail 60 -ErrorAction SilentlyContinue
        throw "FAIL: msiexec $op $(Split-Path -Leaf $file) exited $($p.ExitCode)"
    }
    Pass "msiexec $op $(Split-Path -Leaf $file): exit 0"
}
function Run([string]$exe, [string[]]$argv) {
    $out = Join-Path $tmp 'msi-out.txt'; $err = Join-Path $tmp 'msi-err.txt'
    $p = Start-Process $exe -ArgumentList $argv -Wait -PassThru -NoNewWindow -RedirectStandardOutput $out -RedirectStandardError $err
    $text = ((Get-Content -Raw $out) + (Get-Content -Raw $err))
    if ($null -eq $text) { $text = '' }
    [pscustomobject]@{ Code = $p.ExitCode; Text = $text.Trim() }
}
function Versions([string]$when) {
    foreach ($exe in $exes) {
        $r = Run (Join-Path $dir $exe) @('--version')
        if ($r.Code -ne 0 -or $r.Text -ne "buildstation $Want") { throw "FAIL: $when $exe --version said '$($r.Text)' (exit $($r.Code)), want 'buildstation $Want'" }
        Pass "$when $exe --version: $($r.Text)"
    }
    # The three and no other file: nothing stale from an older release.
    $have = @(Get-ChildItem -File -Recurse $dir | ForEach-Object { $_.Name })
    if (Compare-Object $have $exes) { throw "FAIL: $when the install folder holds '$($have -join ' ')', want '$($exes -join ' ')'" }
    Pass "$when the install folder holds the three exes and nothing else"
}
# Products: the product codes Windows Installer has registered under this
# MSI's UpgradeCode (per user and per machine), which is what an upgrade
# replaces and what Apps & features lists.
function Products {
    $wi = New-Object -ComObject WindowsInstaller.Installer
    $list = $wi.GetType().InvokeMember('RelatedProducts', 'GetProperty', $null, $wi, @($script:UpgradeCode))
    $n = $list.GetType().InvokeMember('Count', 'GetProperty', $null, $list, $null)
    @(for ($i = 0; $i -lt $n; $i++) { $list.GetType().InvokeMember('Item', 'GetProperty', $null, $list, @($i)) })
}
function Handler { (Get-ItemProperty $handlerKey -ErrorAction SilentlyContinue).'(default)' }
function RunValue { (Get-ItemProperty $runKey -ErrorAction SilentlyContinue).BuildStation }
function Task { schtasks /query /fo csv /nh 2>$null | Select-String -SimpleMatch '\BuildStation' }
function StationAnswers {
    for ($i = 0; $i -lt 60; $i++) {
        if ((Run (Join-Path $dir 'buildstation.exe') @('status')).Code -eq 0) { return $true }
        Start-Sleep -Seconds 1 # the station starts on its own time
    }
    $false
}
# MsiQuery: the first column of the first row a query of an MSI's tables gives.
function MsiQuery([string]$file, [string]$sql) {
    $wi = New-Object -ComObject WindowsInstaller.Installer
    $db = $wi.GetType().InvokeMember('OpenDatabase', 'InvokeMethod', $null, $wi, @($file, 0))
    $view = $db.GetType().InvokeMember('OpenView', 'InvokeMethod', $null, $db, @($sql))
    $view.GetType().InvokeMember('Execute', 'InvokeMethod', $null, $view, $null) | Out-Null
    $rec = $view.GetType().InvokeMember('Fetch', 'InvokeMethod', $null, $view, $null)
    if ($null -eq $rec) { return '' }
    $rec.GetType().InvokeMember('StringData', 'GetProperty', $null, $rec, 1)
}
function MsiCondition([string]$file, [string]$action) { MsiQuery $file "SELECT Condition FROM InstallExecuteSequence WHERE Action='$action'" }
$script:UpgradeCode = MsiQuery $Msi "SELECT Value FROM Property WHERE Property='UpgradeCode'"
if (-not $script:UpgradeCode) { throw "FAIL: $Msi has no UpgradeCode" }

$keeps = $false
if ($Old) {
    Msiexec '/i' $Old (Join-Path $tmp 'old-install.log')
    $r = Run (Join-Path $dir 'buildstation.exe') @('service', 'install')
    Write-Host $r.Text
    if ($r.Code -ne 0) { throw "FAIL: the old program's service install exited $($r.Code)" }
    Pass 'old: service install'
    if (-not (Task)) { throw 'FAIL: no logon task after service install' }
    $taskName = ((Task).Line -split '","')[0].Trim('"').TrimStart('\')
    schtasks /run /tn $taskName | Out-Null
    if (-not (StationAnswers)) { throw 'FAIL: the logon task started no station' }
    Pass "old: the logon task $taskName runs a station"
    $runBefore = RunValue
    $cond = MsiCondition $Old 'RemoveAutostart'
    $keeps = $cond -match 'UPGRADINGPRODUCTCODE'
    if (-not $keeps) { Write-Host "::warning::the old MSI's uninstall removes the autostart on an upgrade too (RemoveAutostart: $cond); fixed from the next release on, so the kept-autostart checks are skipped" }
    Msiexec '/i' $Msi (Join-Path $tmp 'upgrade.log')
    $n = (Products).Count
    if ($n -ne 1) { throw "FAIL: $n Build Station products after the upgrade ($((Products) -join ', ')), want 1" }
    Pass 'one Build Station product after the upgrade'
    Versions 'after the upgrade'
    if ($keeps) {
        if (-not (Task)) { throw 'FAIL: the upgrade removed the logon task' }
        Pass 'the upgrade kept the logon task'
        if ((RunValue) -ne $runBefore) { throw "FAIL: the upgrade changed the Run value: '$(RunValue)', was '$runBefore'" }
        Pass "the upgrade kept the Run value ($runBefore)"
        if (-not (StationAnswers)) { throw 'FAIL: no station answers after the upgrade (service resume)' }
        Pass 'a station answers after the upgrade (paused, then resumed from the new program)'
    }
} else {
    Msiexec '/i' $Msi (Join-Path $tmp 'install.log')
    Versions 'installed'
}

$want = "`"$dir\buildstationw.exe`" open `"%1`""
if ((Handler) -ne $want) { throw "FAIL: the handler's command is '$(Handler)', want '$want'" }
Pass "buildstation:// handler: $want"
if (-not (Test-Path $lnk)) { throw 'FAIL: no Start-menu shortcut' }
$shell = New-Object -ComObject Shell.Application
$item = $shell.Namespace((Split-Path $lnk)).ParseName((Split-Path -Leaf $lnk))
$aumid = $item.ExtendedProperty('System.AppUserModel.ID')
if ($aumid -ne 'dev.buildstation.app') { throw "FAIL: the shortcut's AUMID is '$aumid', want dev.buildstation.app" }
Pass "the Start-menu shortcut's AUMID: $aumid"
$r = Run (Join-Path $dir 'buildstation.exe') @('service', 'install', '--dry-run')
if ($r.Code -ne 0 -or $r.Text -notmatch 'buildstationw\.exe') { throw "FAIL: service install --dry-run: $($r.Text)" }
Pass 'service install --dry-run names buildstationw.exe'

Msiexec '/x' $Msi (Join-Path $tmp 'uninstall.log')
if (Test-Path $dir) { Get-ChildItem -Recurse $dir; throw "FAIL: files left behind in $dir" }
if (Test-Path 'HKCU:\Software\Classes\buildstation') { throw 'FAIL: the buildstation:// key is left behind' }
if (RunValue) { throw "FAIL: the Run value is left behind: $(RunValue)" }
if (Task) { throw 'FAIL: the logon task is left behind' }
if ((Products).Count -ne 0) { throw 'FAIL: a Build Station product is still registered' }
Pass 'uninstall: no program, handler, Run value, logon task or product left'
