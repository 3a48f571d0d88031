package patterns

import (
	"strings"
	"testing"
)

// TestOPT004PickledModel checks that a file pickling the whole model gets
// the note to pickle model._orig_mod, and no fix (blind sample OO).
func TestOPT004PickledModel(t *testing.T) {
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, Source: "target"}}
	got := ruleFindings(corpusFile(t, "OPT004/pickled_model.py"), "OPT004", env)
	if len(got) != 1 || !strings.Contains(got[0].Message, "pickles the whole model") || got[0].Fix != nil {
		t.Fatalf("want one OPT004 with the pickle note and no fix, got %+v", got)
	}
}

// TestOPT004FrozenEncoder checks that a network the step runs but no
// optimizer steps is not called trained (blind sample S14C).
func TestOPT004FrozenEncoder(t *testing.T) {
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, Source: "target"}}
	got := ruleFindings(corpusFile(t, "OPT004/frozen_encoder.py"), "OPT004", env)
	if len(got) != 1 || !strings.HasPrefix(got[0].Message, compileFrozenMsg) {
		t.Fatalf("want one OPT004 saying the encoder is frozen, got %+v", got)
	}
}
