package hardware

import "fmt"

// NVML is the part of the NVIDIA Management Library gpuopt reads; an
// interface so tests can fake a machine (see FakeNVML).
type NVML interface {
	Init() error
	Shutdown() error
	DriverVersion() (string, error)
	// CUDADriverVersion is the newest CUDA the driver supports, as NVML
	// encodes it: 13000 for 13.0, 12040 for 12.4.
	CUDADriverVersion() (int, error)
	DeviceCount() (int, error)
	// Device reads one device; the bf16/TF32 flags need not be set.
	Device(i int) (GPU, error)
}

// read fills p's GPUs and driver versions from lib. Failures, a panic in
// the library included, become p.NVMLError, never a crash.
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
	if v, err := lib.CUDADriverVersion(); err == nil && v > 0 {
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
