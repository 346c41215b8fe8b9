package efficiency

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ErrNoProcfs reports that a memory figure is not available because
// /proc does not provide it (not Linux, or a restricted sandbox).
var ErrNoProcfs = errors.New("efficiency: memory figure not available from /proc")

// PeakRSS returns the high-water mark of this process's resident set
// size in bytes, VmHWM in /proc/self/status. The error wraps ErrNoProcfs
// where the file or the field is missing.
func PeakRSS() (int64, error) {
	return procField("/proc/self/status", "VmHWM")
}

// MemAvailable returns the memory available for starting new programs
// without swapping, MemAvailable in /proc/meminfo, in bytes. The error
// wraps ErrNoProcfs where the file or the field is missing.
func MemAvailable() (int64, error) {
	return procField("/proc/meminfo", "MemAvailable")
}

// procField reads a "Name:   1234 kB" line of a /proc file.
func procField(path, name string) (int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNoProcfs, err)
	}
	return parseProcField(data, name, path)
}

func parseProcField(data []byte, name, path string) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != name {
			continue
		}
		f := strings.Fields(val)
		if len(f) == 0 {
			break
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || v < 0 {
			break
		}
		scale := int64(1)
		if len(f) > 1 {
			switch strings.ToLower(f[1]) {
			case "kb":
				scale = 1 << 10
			case "mb":
				scale = 1 << 20
			case "gb":
				scale = 1 << 30
			default:
				return 0, fmt.Errorf("%w: %s: unknown unit in %q", ErrNoProcfs, path, sc.Text())
			}
		}
		return v * scale, nil
	}
	return 0, fmt.Errorf("%w: %s has no valid %s line", ErrNoProcfs, path, name)
}

// procText returns the first line of a /proc file starting with prefix
// (or the first line if prefix is empty), trimmed; "" if unavailable.
func procText(path, prefix string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, prefix) {
			if prefix != "" {
				_, v, _ := strings.Cut(line, ":")
				return strings.TrimSpace(v)
			}
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// loadAvg returns the 1-, 5- and 15-minute load averages of
// /proc/loadavg, "" if unavailable.
func loadAvg() string {
	f := strings.Fields(procText("/proc/loadavg", ""))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
