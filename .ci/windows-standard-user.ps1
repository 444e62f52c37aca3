# windows-standard-user: `service install` by a standard local user (not
# an administrator) created here: the runner's own user is an elevated
# admin, so "no admin needed" is never shown by the other steps. The user
# registers the logon task for themself, then `service stop` disables it
# and `service start` enables it again, each as that user.
#
# What this cannot show: that user's task running. Its logon type is
# InteractiveToken ("only when the user is logged on"), and the user never
# logs on here; windows-native.sh starts the runner user's own task.
#
#   powershell -File .ci/windows-standard-user.ps1 bin\buildstation.exe
param([string]$Cli)
$ErrorActionPreference = 'Stop'
$user = 'bsstd'
$pw = 'Bs!' + [guid]::NewGuid().ToString('N').Substring(0, 16) + 'a1'
net user $user $pw /add | Out-Null
if ((net localgroup Administrators) -match "^$user$") { throw "FAIL: $user is an administrator" }
$dir = 'C:\bs-std'
New-Item -ItemType Directory -Force $dir | Out-Null
Copy-Item $Cli (Join-Path $dir 'buildstation.exe')
# The whole program beside the command line, which hands `service` to it.
foreach ($n in 'buildstation-app.exe', 'buildstationw.exe') {
    $src = Join-Path (Split-Path $Cli) $n
    if (Test-Path $src) { Copy-Item $src (Join-Path $dir $n) }
}
$home_ = Join-Path $dir 'home'
New-Item -ItemType Directory -Force $home_ | Out-Null
icacls $dir /grant "${user}:(OI)(CI)F" | Out-Null
$cred = New-Object System.Management.Automation.PSCredential(".\$user", (ConvertTo-SecureString $pw -AsPlainText -Force))

function As-User([string[]]$argv) {
    $out = Join-Path $dir 'out.txt'; $err = Join-Path $dir 'err.txt'
    $p = Start-Process -FilePath (Join-Path $dir 'buildstation.exe') -ArgumentList (@('--home', $home_) + $argv) -Credential $cred `
        -WorkingDirectory $dir -Wait -PassThru -RedirectStandardOutput $out -RedirectStandardError $err
    $text = (Get-Content -Raw $out) + (Get-Content -Raw $err)
    Write-Host "as ${user}: buildstation $($argv -join ' ') -> exit $($p.ExitCode)"
    Write-Host $text
    return @{ Code = $p.ExitCode; Text = $text }
}
function Task-Enabled {
    $xml = (schtasks /query /tn "BuildStation-$user" /xml) -join "`n"
    return ($xml -match '(?s)<Settings>.*?<Enabled>true</Enabled>') -or -not ($xml -match '(?s)<Settings>.*?<Enabled>')
}

$r = As-User @('service', 'install')
if ($r.Code -ne 0) { throw "FAIL: service install as a standard user exited $($r.Code)" }
$xml = (schtasks /query /tn "BuildStation-$user" /xml) -join "`n"
if ($xml -notmatch 'InteractiveToken' -or $xml -notmatch 'LeastPrivilege') { throw "FAIL: the task is not the user's own least-privilege logon task:`n$xml" }
if (-not (Task-Enabled)) { throw 'FAIL: the task is disabled after install' }
Write-Host "PASS: a standard user registered their own logon task (no admin, no password prompt)"

$r = As-User @('service', 'stop')
if ($r.Code -ne 0) { throw "FAIL: service stop exited $($r.Code)" }
if (Task-Enabled) { throw 'FAIL: service stop left the task enabled: its repetition would start the station again' }
$r = As-User @('service', 'status')
if ($r.Text -notmatch 'state: disabled') { throw 'FAIL: service status does not say disabled after service stop' }
Write-Host 'PASS: service stop disabled the task, and status says disabled'

# start enables, then runs the task, which Task Scheduler refuses for a
# user who is not logged on: only the enabling is checked.
As-User @('service', 'start') | Out-Null
if (-not (Task-Enabled)) { throw 'FAIL: service start did not enable the task' }
Write-Host 'PASS: service start enabled the task again'
As-User @('service', 'uninstall') | Out-Null
net user $user /delete | Out-Null
