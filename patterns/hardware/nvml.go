package hardware

import (
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// NVML is the part of the NVIDIA Management Library gpuopt reads; an
// interface so tests can fake a machine.
type NVML interface {
	Init() error
	Shutdown()
	DriverVersion() (string, error)
	CUDADriverVersion() (int, error) // e.g. 13000 for CUDA 13.0
	DeviceCount() (int, error)
	Device(i int) (GPU, error)
}

// read fills p.GPUs and the driver versions from lib; failures become
// p.NVMLError, never a crash.
func read(lib NVML, p *Profile) {
	defer func() {
		if r := recover(); r != nil {
			p.GPUs = nil
			p.NVMLError = fmt.Sprintf("NVML failed: %v", r)
		}
	}()
	if err := lib.Init(); err != nil {
		p.NVMLError = err.Error()
		return
	}
	defer lib.Shutdown()
	if v, err := lib.DriverVersion(); err == nil {
		p.DriverVersion = v
	}
	if v, err := lib.CUDADriverVersion(); err == nil {
		p.CUDADriverVersion = fmt.Sprintf("%d.%d", v/1000, v%1000/10)
	}
	n, err := lib.DeviceCount()
	if err != nil {
		p.NVMLError = err.Error()
		return
	}
	if n == 0 {
		p.NVMLError = "the NVIDIA driver reports no GPU"
	}
	for i := 0; i < n; i++ {
		g, err := lib.Device(i)
		if err != nil {
			p.NVMLError = fmt.Sprintf("GPU %d: %v", i, err)
			continue
		}
		p.GPUs = append(p.GPUs, withFeatures(g))
	}
}

// realNVML calls libnvidia-ml.so.1 through go-nvml, loaded at run time.
type realNVML struct{}

func check(r nvml.Return) error {
	if r == nvml.SUCCESS {
		return nil
	}
	if r == nvml.ERROR_LIBRARY_NOT_FOUND {
		return fmt.Errorf("no NVIDIA driver found (libnvidia-ml.so.1 is not installed)")
	}
	return fmt.Errorf("NVML: %s", nvml.ErrorString(r))
}

func (realNVML) Init() error { return check(nvml.Init()) }
func (realNVML) Shutdown()   { nvml.Shutdown() }
func (realNVML) DriverVersion() (string, error) {
	v, r := nvml.SystemGetDriverVersion()
	return v, check(r)
}
func (realNVML) CUDADriverVersion() (int, error) {
	v, r := nvml.SystemGetCudaDriverVersion()
	return v, check(r)
}
func (realNVML) DeviceCount() (int, error) {
	n, r := nvml.DeviceGetCount()
	return n, check(r)
}

func (realNVML) Device(i int) (GPU, error) {
	d, r := nvml.DeviceGetHandleByIndex(i)
	if err := check(r); err != nil {
		return GPU{}, err
	}
	var g GPU
	if g.Name, r = d.GetName(); r != nvml.SUCCESS {
		return GPU{}, check(r)
	}
	g.UUID, _ = d.GetUUID()
	if mem, r := d.GetMemoryInfo(); r == nvml.SUCCESS {
		g.MemoryTotalBytes, g.MemoryUsedBytes = mem.Total, mem.Used
	}
	g.ComputeMajor, g.ComputeMinor, _ = d.GetCudaComputeCapability()
	if mw, r := d.GetPowerManagementLimit(); r == nvml.SUCCESS {
		g.PowerLimitWatts = float64(mw) / 1000
	}
	if u, r := d.GetUtilizationRates(); r == nvml.SUCCESS {
		g.UtilizationPercent = int(u.Gpu)
	}
	return g, nil
}
