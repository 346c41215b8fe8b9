package all

import (
	"errors"
	"testing"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/experiment/synthetic"
)

// TestConfigErrors checks that an invalid Config stops Run before any
// experiment runs, naming the setting.
func TestConfigErrors(t *testing.T) {
	if _, err := Run(Config{}); !errors.Is(err, ErrConfig) || report.AsConfigError(err).Setting != "OutDir" {
		t.Errorf("no folder: %v", err)
	}
	dir := t.TempDir()
	if _, err := Run(Config{OutDir: dir, Protocol: "full"}); !errors.Is(err, synthetic.ErrConfig) || report.AsConfigError(err).Setting != "Protocol" {
		t.Errorf("protocol full: %v", err)
	}
}
