package patterns

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Version is a library's major.minor version; the zero value means unknown.
type Version struct{ Major, Minor int }

// ParseVersion reads "2", "2.1" or "2.1.3+cu121"; ok is false for anything
// else.
func ParseVersion(s string) (Version, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(s, "v"))
	parts := strings.SplitN(s, ".", 3)
	major, err := strconv.Atoi(parts[0])
	if err != nil {
		return Version{}, false
	}
	v := Version{Major: major}
	if len(parts) > 1 {
		digits := strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })
		if v.Minor, err = strconv.Atoi(digits); err != nil {
			return Version{}, false
		}
	}
	return v, true
}

// AtLeast reports v >= major.minor.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Versions are the library versions rules are gated on.
type Versions struct {
	Torch   Version
	XGBoost Version
}

// DefaultVersions are today's releases, assumed when nothing pins a version.
var DefaultVersions = Versions{Torch: Version{2, 4}, XGBoost: Version{2, 0}}

// PinnedVersions reads `torch==X` / `xgboost==X` (also ~=, <=, <) pins from
// requirements-style text, and conda's `- pytorch=X` / `- xgboost=X=build`
// from an environment file, and returns defaults for what is not pinned.
// An upper bound `<X` reads as the version below it.
func PinnedVersions(requirements string) Versions {
	v := DefaultVersions
	for _, line := range strings.Split(requirements, "\n") {
		line = strings.TrimSpace(strings.SplitN(line, "#", 2)[0])
		line = strings.TrimSpace(strings.TrimPrefix(line, "- ")) // a YAML list item
		line = strings.Trim(line, `"',`)
		for _, lib := range []struct {
			name string
			dst  *Version
		}{{"torch", &v.Torch}, {"pytorch", &v.Torch}, {"xgboost", &v.XGBoost}, {"py-xgboost", &v.XGBoost}} {
			rest, ok := strings.CutPrefix(strings.ToLower(line), lib.name)
			if !ok {
				continue
			}
			rest = strings.TrimSpace(rest)
			for _, op := range []string{"==", "~=", "<=", "<", "="} {
				if pin, ok := strings.CutPrefix(rest, op); ok {
					pin = strings.SplitN(strings.SplitN(pin, ",", 2)[0], "=", 2)[0] // conda: =1.5.1=py38_0
					if pv, ok := ParseVersion(strings.Trim(pin, ` "'^~`)); ok {
						if op == "<" {
							pv = below(pv)
						}
						*lib.dst = pv
					}
					break
				}
			}
		}
	}
	return v
}

// QuotedRequirements returns the string literals of a setup.py, one per
// line, for PinnedVersions: install_requires=["xgboost==1.5.2", "torch"]
// spells its pins as strings, often several on one line.
func QuotedRequirements(setupPy string) string {
	var out strings.Builder
	for _, m := range quotedString.FindAllStringSubmatch(setupPy, -1) {
		out.WriteString(m[1] + m[2])
		out.WriteByte('\n')
	}
	return out.String()
}

var quotedString = regexp.MustCompile(`"([^"\n]*)"|'([^'\n]*)'`)

func below(v Version) Version {
	if v.Minor > 0 {
		return Version{v.Major, v.Minor - 1}
	}
	return Version{v.Major - 1, 99}
}
