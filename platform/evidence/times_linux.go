package evidence

// osTimes: proctree read /proc/<pid>/stat, times included.
var osTimes timesFunc = linuxTimes
