package hardware

import (
	"fmt"
	"strconv"
	"strings"
)

// doctorEnv is the driver side of the doctor's comparisons.
type doctorEnv struct {
	driver    string // "580.159.04"; "" without a driver
	cuda      string // "13.0"
	major     int    // the driver's CUDA major; 0 when unknown
	minor     int
	gpu       *GPU // the first live GPU
	gpus      int
	nvmlError string
}

func newEnv(p Profile) doctorEnv {
	e := doctorEnv{driver: p.DriverVersion, cuda: p.CUDADriverVersion, gpus: len(p.GPUs), nvmlError: p.NVMLError}
	e.major, e.minor, _ = parseVersion(p.CUDADriverVersion)
	if len(p.GPUs) > 0 {
		e.gpu = &p.GPUs[0]
	}
	return e
}

func (e doctorEnv) driverCheck() Check {
	c := Check{Name: "nvidia driver"}
	switch {
	case e.gpu != nil:
		c.Status = StatusOK
		c.Detail = fmt.Sprintf("driver %s (CUDA %s), %s", e.driver, e.cuda, e.gpu.Describe())
		if e.gpus > 1 {
			c.Detail += fmt.Sprintf(" and %d more GPU(s)", e.gpus-1)
		}
	case e.driver != "":
		c.Status, c.Detail = StatusWarn, fmt.Sprintf("driver %s (CUDA %s), but no GPU: %s", e.driver, e.cuda, e.nvmlError)
	default:
		c.Status = StatusMissing
		c.Detail = "no NVIDIA GPU: " + e.nvmlError + "; checks against the driver are skipped"
		c.Fix = "install the NVIDIA driver (nvidia-smi must work) on the machine that trains"
	}
	return c
}

// torchIndexes are PyTorch's CUDA wheel indexes, oldest first. Recent
// torch releases are published for cu126 and newer only.
var torchIndexes = []struct {
	tag          string
	major, minor int
}{
	{"cu118", 11, 8}, {"cu121", 12, 1}, {"cu124", 12, 4}, {"cu126", 12, 6},
	{"cu128", 12, 8}, {"cu129", 12, 9}, {"cu130", 13, 0},
}

// torchInstall is the command that installs torch for this driver.
func (e doctorEnv) torchInstall(reinstall bool) string {
	cmd := "pip install torch"
	if reinstall {
		cmd = "pip uninstall -y torch && pip install torch"
	}
	if e.major == 0 {
		return cmd
	}
	tag := ""
	for _, ix := range torchIndexes {
		if ix.major < e.major || ix.major == e.major && ix.minor <= e.minor {
			tag = ix.tag
		}
	}
	if tag == "" {
		return fmt.Sprintf("update the NVIDIA driver: CUDA %s is older than any PyTorch CUDA wheel (cu118 is the oldest)", e.cuda)
	}
	return cmd + " --index-url https://download.pytorch.org/whl/" + tag
}

// checkTorch checks torch's CUDA build against the driver, whether it sees
// the GPU, whether it carries kernels for it, and cuDNN.
func (e doctorEnv) checkTorch(py probe) []Check {
	t := py.Torch
	c := Check{Name: "torch"}
	switch {
	case t.Missing:
		c.Status, c.Detail, c.Fix = StatusMissing, "not installed", e.torchInstall(false)
		return []Check{c}
	case !t.installed():
		c.Status, c.Detail, c.Fix = StatusError, "import failed: "+t.Error, e.torchInstall(true)
		return []Check{c}
	case t.HIP != nil && *t.HIP != "":
		c.Status, c.Detail = StatusWarn, fmt.Sprintf("%s is a ROCm (AMD) build", t.Version)
		if e.gpu != nil {
			c.Status, c.Fix = StatusError, e.torchInstall(true)
		}
		return []Check{c}
	}
	build := t.cuda()
	if build == "" {
		c.Status, c.Detail = StatusOK, fmt.Sprintf("%s is a CPU-only build (no NVIDIA driver here to use)", t.Version)
		if e.gpu != nil {
			c.Status = StatusError
			c.Detail = fmt.Sprintf("%s is a CPU-only build: %s stays idle", t.Version, e.gpu.Name)
			c.Fix = e.torchInstall(true)
		}
		return []Check{c}
	}
	c.Status, c.Detail = StatusOK, fmt.Sprintf("%s, built for CUDA %s", t.Version, build)
	bMajor, bMinor, _ := parseVersion(build)
	switch {
	case e.major == 0:
		c.Detail += " (no NVIDIA driver here to check it against)"
	case bMajor > e.major:
		c.Status = StatusError
		c.Detail += fmt.Sprintf(", newer than the driver's CUDA %s: torch cannot use the GPU", e.cuda)
		c.Fix = e.torchInstall(true) + " (or update the NVIDIA driver)"
	case bMajor == e.major && bMinor > e.minor:
		c.Status = StatusWarn
		c.Detail += fmt.Sprintf(", newer than the driver's CUDA %s: it runs through CUDA minor-version compatibility, but kernels that need PTX JIT fail", e.cuda)
		c.Fix = e.torchInstall(true) + " (or update the NVIDIA driver)"
	case !t.CUDAAvailable && e.gpus > 0:
		c.Status = StatusError
		c.Detail += fmt.Sprintf(", but torch.cuda.is_available() is False although NVML sees %d GPU(s)", e.gpus)
		c.Fix = "check CUDA_VISIBLE_DEVICES and access to /dev/nvidia*; python -c 'import torch; torch.cuda.init()' says why"
	case t.CUDAAvailable:
		c.Detail += fmt.Sprintf(", sees %d GPU(s)", t.DeviceCount)
		if major, minor, ok := t.capability(); ok && len(t.ArchList) > 0 && !archSupported(t.ArchList, major, minor) {
			c.Status = StatusError
			c.Detail += fmt.Sprintf(", but carries no kernels for %s (sm_%d%d); it has %s", t.DeviceName, major, minor, strings.Join(t.ArchList, " "))
			c.Fix = e.torchInstall(true) + " (a newer build for this GPU)"
		}
	}
	if t.ProbeError != "" && c.Status == StatusOK {
		c.Status, c.Detail = StatusWarn, c.Detail+"; reading it failed: "+t.ProbeError
	}
	checks := []Check{c}
	switch {
	case t.CuDNN != nil:
		checks = append(checks, Check{Name: "cudnn", Status: StatusOK, Detail: "cuDNN " + cudnnVersion(*t.CuDNN) + " (through torch)"})
	case t.ProbeError == "":
		checks = append(checks, Check{Name: "cudnn", Status: StatusWarn,
			Detail: "torch finds no cuDNN: convolutions and RNNs fall back to slow kernels", Fix: e.torchInstall(true)})
	}
	return checks
}

// capability is the compute capability torch reports for device 0.
func (m moduleProbe) capability() (major, minor int, ok bool) {
	if len(m.DeviceCapability) != 2 {
		return 0, 0, false
	}
	return m.DeviceCapability[0], m.DeviceCapability[1], true
}

// archSupported reports whether a torch arch list ("sm_80", "sm_90a",
// "compute_90") runs on compute capability major.minor: machine code for
// the same major and a lower or equal minor, or PTX for an older one.
func archSupported(archs []string, major, minor int) bool {
	want := major*10 + minor
	for _, a := range archs {
		kind, num, ok := strings.Cut(a, "_")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimRight(num, "abcdefghijklmnopqrstuvwxyz"))
		if err != nil {
			continue
		}
		switch kind {
		case "sm":
			if n/10 == major && n <= want {
				return true
			}
		case "compute":
			if n <= want {
				return true
			}
		}
	}
	return false
}

// cudnnVersion renders cuDNN's integer version: 90100 is 9.1.0 (cuDNN 9
// and later), 8902 is 8.9.2.
func cudnnVersion(v int) string {
	if v >= 10000 {
		return fmt.Sprintf("%d.%d.%d", v/10000, v%10000/100, v%100)
	}
	return fmt.Sprintf("%d.%d.%d", v/1000, v%1000/100, v%100)
}

// checkXGBoost checks that XGBoost was built with CUDA, for a CUDA the
// driver supports.
func (e doctorEnv) checkXGBoost(py probe) Check {
	x := py.XGBoost
	c := Check{Name: "xgboost"}
	fix := "pip install xgboost"
	if !(py.System == "Linux" && py.Machine == "x86_64") {
		fix = "conda install -c conda-forge 'py-xgboost=*=cuda*' (the PyPI wheels with CUDA are for Linux x86_64)"
	}
	cpuDist := hasDist(py.Dists, "xgboost-cpu")
	switch {
	case x.Missing:
		c.Status, c.Detail, c.Fix = StatusMissing, "not installed", fix
		return c
	case !x.installed():
		c.Status, c.Detail, c.Fix = StatusError, "import failed: "+x.Error, "pip install --force-reinstall xgboost"
		return c
	case x.ProbeError != "":
		c.Status, c.Detail = StatusWarn, fmt.Sprintf("XGBoost %s; its build information is unreadable: %s", x.Version, x.ProbeError)
		return c
	case !x.UseCUDA:
		c.Status, c.Detail = StatusWarn, fmt.Sprintf("XGBoost %s was built without CUDA: device=\"cuda\" fails", x.Version)
		if cpuDist {
			c.Detail += " (the xgboost-cpu package)"
			fix = "pip uninstall -y xgboost-cpu && pip install xgboost"
		} else if fix == "pip install xgboost" {
			fix = "pip install --force-reinstall xgboost (the PyPI wheel for Linux x86_64 with glibc >= 2.28 is built with CUDA)"
		}
		if e.gpu != nil {
			c.Status = StatusError
			c.Detail += fmt.Sprintf("; %s stays idle", e.gpu.Name)
		}
		c.Fix = fix
		return c
	}
	c.Status, c.Detail = StatusOK, fmt.Sprintf("XGBoost %s, built with CUDA", x.Version)
	if b := x.cuda(); b != "" {
		c.Detail += " " + b
		if major, _, ok := parseVersion(b); ok && e.major > 0 && major > e.major {
			c.Status = StatusError
			c.Detail += fmt.Sprintf(", newer than the driver's CUDA %s", e.cuda)
			c.Fix = fmt.Sprintf("update the NVIDIA driver to one for CUDA %d", major)
		}
	}
	return c
}

// wheelKind describes a package shipped as one wheel per CUDA major.
type wheelKind struct {
	name    string                  // "cupy": the module and the dists' prefix
	display string                  // "CuPy"
	wheel   string                  // "cupy-cuda%dx": the wheel for a CUDA major
	module  func(probe) moduleProbe // its import
	minCC   int                     // the oldest compute capability it runs on, major*10+minor
}

var (
	cupyKind = wheelKind{name: "cupy", display: "CuPy", wheel: "cupy-cuda%dx", module: func(p probe) moduleProbe { return p.CuPy }}
	cudfKind = wheelKind{name: "cudf", display: "cuDF", wheel: "cudf-cu%d", module: func(p probe) moduleProbe { return p.CuDF }, minCC: 70}
)

// checkWheel checks that the CUDA major of a CuPy or cuDF wheel matches
// the driver's (or, without a driver, torch's).
func (e doctorEnv) checkWheel(py probe, k wheelKind) Check {
	m := k.module(py)
	c := Check{Name: k.name}
	var dists []dist
	for _, d := range py.Dists {
		if d.Name == k.name || strings.HasPrefix(d.Name, k.name+"-") {
			dists = append(dists, d)
		}
	}
	refMajor, ref := e.major, "the driver's CUDA "+e.cuda
	if refMajor == 0 {
		if tm, _, ok := parseVersion(py.Torch.cuda()); ok {
			refMajor, ref = tm, "torch's CUDA "+py.Torch.cuda()
		}
	}
	want := ""
	if refMajor > 0 {
		want = fmt.Sprintf(k.wheel, refMajor)
	}
	install := "pip install " + want
	if want == "" {
		install = "pip install " + fmt.Sprintf(k.wheel, 12) + " (the suffix is the CUDA major of your driver)"
	}
	if len(dists) > 1 {
		names := make([]string, len(dists))
		for i, d := range dists {
			names[i] = d.Name
		}
		c.Status = StatusError
		c.Detail = fmt.Sprintf("several %s packages are installed (%s): they overwrite each other's files", k.display, strings.Join(names, ", "))
		c.Fix = "pip uninstall -y " + strings.Join(names, " ") + " && " + install
		return c
	}
	if m.Missing && len(dists) == 0 {
		c.Status, c.Detail, c.Fix = StatusMissing, "not installed", install
		return c
	}
	what := k.display + " " + m.Version
	wheelMajor, fromWheel := 0, false
	if len(dists) == 1 {
		what = dists[0].Name + " " + dists[0].Version
		wheelMajor, fromWheel = wheelCUDA(dists[0].Name)
	}
	c.Status, c.Detail = StatusOK, what
	switch {
	case !m.installed():
		c.Status, c.Detail = StatusError, what+": import failed: "+m.Error
		c.Fix = "pip install --force-reinstall " + dists0(dists, install)
		if e.gpu == nil {
			c.Status, c.Fix = StatusWarn, ""
			c.Detail += " (it may need a GPU to import)"
		}
	case strings.Contains(what, "rocm"):
		c.Status, c.Detail = StatusWarn, what+" is a ROCm (AMD) build"
	case !fromWheel:
		c.Detail += " (not a CUDA wheel: built from source or by conda)"
	case refMajor == 0:
		c.Detail += fmt.Sprintf(" (CUDA %d; no driver or torch CUDA to compare with)", wheelMajor)
	case wheelMajor > refMajor:
		c.Status = StatusError
		if e.major == 0 {
			c.Status = StatusWarn
		}
		c.Detail += fmt.Sprintf(" is built for CUDA %d, newer than %s", wheelMajor, ref)
		c.Fix = "pip uninstall -y " + dists[0].Name + " && " + install
	case wheelMajor < refMajor:
		c.Status = StatusWarn
		c.Detail += fmt.Sprintf(" is built for CUDA %d, older than %s: two CUDA runtimes end up in one process", wheelMajor, ref)
		c.Fix = "pip uninstall -y " + dists[0].Name + " && " + install
	default:
		c.Detail += fmt.Sprintf(" (CUDA %d, matches %s)", wheelMajor, ref)
	}
	if k.minCC > 0 && e.gpu != nil && !e.gpu.AtLeast(k.minCC/10, k.minCC%10) {
		c.Status = StatusError
		c.Detail += fmt.Sprintf("; %s needs compute capability %d.%d or newer, %s has %s", k.display, k.minCC/10, k.minCC%10, e.gpu.Name, e.gpu.ComputeCapability())
	}
	return c
}

// dists0 names the installed distribution, else the install command's.
func dists0(dists []dist, install string) string {
	if len(dists) > 0 {
		return dists[0].Name
	}
	return strings.TrimPrefix(install, "pip install ")
}

// wheelCUDA reads the CUDA major from a wheel's name: cupy-cuda12x and
// cudf-cu12 are 12; the older per-release names cupy-cuda117 and
// cudf-cuda100 are 11 and 10.
func wheelCUDA(name string) (major int, ok bool) {
	i := strings.LastIndex(name, "-cu")
	if i < 0 {
		return 0, false
	}
	s := name[i+len("-cu"):]
	release := strings.HasPrefix(s, "da") // "cuda117": major and minor
	s = strings.TrimPrefix(s, "da")
	family := strings.HasSuffix(s, "x") // "cuda12x": any 12.x
	s = strings.TrimSuffix(s, "x")
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, false
	}
	if release && !family {
		n /= 10
	}
	return n, true
}

// hasDist reports whether a distribution of that name is installed.
func hasDist(dists []dist, name string) bool {
	for _, d := range dists {
		if d.Name == name {
			return true
		}
	}
	return false
}

// parseVersion reads "12.4" (or "12", or "12.4.1") as 12, 4.
func parseVersion(s string) (major, minor int, ok bool) {
	parts := strings.SplitN(strings.TrimSpace(s), ".", 3)
	major, err := strconv.Atoi(parts[0])
	if err != nil {
		return 0, 0, false
	}
	if len(parts) > 1 {
		if minor, err = strconv.Atoi(parts[1]); err != nil {
			return 0, 0, false
		}
	}
	return major, minor, true
}
