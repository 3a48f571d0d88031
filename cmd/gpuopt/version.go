package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Set at link time by release builds (.ci/release):
//
//	go build -ldflags "-X main.version=0.2.0 -X main.commit=$(git rev-parse HEAD)"
//
// Builds without them fall back to what the Go toolchain records: the
// module version of `go install ...@vX.Y.Z`, and vcs.revision/vcs.modified
// of a build inside a git checkout.
var (
	version = ""
	commit  = ""
)

// buildVersion is the version and commit this binary reports.
type buildVersion struct {
	Version  string // "0.2.0", or "dev" for an unstamped build from a checkout
	Commit   string // the full commit hash, "" when unknown
	Modified bool   // built from a checkout with uncommitted changes
}

func currentVersion() buildVersion {
	v := buildVersion{Version: version, Commit: commit}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if v.Commit == "" {
					v.Commit = s.Value
				}
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}

// String is the one line `gpuopt --version` prints: "gpuopt 0.2.0 (1a2b3c4d5e6f)".
func (v buildVersion) String() string {
	c := v.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	switch {
	case c == "":
		c = "commit unknown"
	case v.Modified:
		c += ", modified"
	}
	return fmt.Sprintf("gpuopt %s (%s)", v.Version, c)
}

func init() {
	extraCommands = append(extraCommands, newVersionCommand)
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gpuopt's version and the commit it was built from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := currentVersion()
			out := cmd.OutOrStdout()
			fmt.Fprintln(out, v)
			if v.Commit != "" {
				fmt.Fprintln(out, "commit:", v.Commit)
			}
			fmt.Fprintf(out, "built with %s for %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
