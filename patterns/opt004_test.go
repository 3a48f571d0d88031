package patterns

import (
	"os"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// TestOPT004PickledModel checks that a file pickling the whole model gets
// the note to pickle model._orig_mod, and no fix (blind sample OO).
func TestOPT004PickledModel(t *testing.T) {
	src, err := os.ReadFile("../corpus/OPT004/pickled_model.py")
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, Source: "target"}}
	var got []rewrite.Finding
	for _, fd := range Run(rewrite.Parse("pickled_model.py", src), Selection{Select: []string{"OPT004"}}, env) {
		if fd.Code == "OPT004" {
			got = append(got, fd)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0].Message, "pickles the whole model") || got[0].Fix != nil {
		t.Fatalf("want one OPT004 with the pickle note and no fix, got %+v", got)
	}
}

// TestOPT004FrozenEncoder checks that a network the step runs but no
// optimizer steps is not called trained (blind sample S14C).
func TestOPT004FrozenEncoder(t *testing.T) {
	src, err := os.ReadFile("../corpus/OPT004/frozen_encoder.py")
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, Source: "target"}}
	var got []rewrite.Finding
	for _, fd := range Run(rewrite.Parse("frozen_encoder.py", src), Selection{Select: []string{"OPT004"}}, env) {
		if fd.Code == "OPT004" {
			got = append(got, fd)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0].Message, compileFrozenMsg) {
		t.Fatalf("want one OPT004 saying the encoder is frozen, got %+v", got)
	}
}
