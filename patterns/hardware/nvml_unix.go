//go:build !windows

package hardware

import (
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// realNVML calls libnvidia-ml.so.1 through go-nvml, which loads it at run
// time: without the library nvml.Init returns ERROR_LIBRARY_NOT_FOUND, and
// nothing else is called.
type realNVML struct{}

// check turns an NVML return code into an error people can act on.
func check(r nvml.Return) error {
	switch r {
	case nvml.SUCCESS:
		return nil
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		return fmt.Errorf("no NVIDIA driver found (libnvidia-ml.so.1 could not be loaded)")
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return fmt.Errorf("the NVIDIA driver is not loaded (libnvidia-ml.so.1 is there, the kernel module is not running)")
	case nvml.ERROR_NO_PERMISSION:
		return fmt.Errorf("no permission to read the GPU through NVML")
	}
	return fmt.Errorf("NVML: %s", nvml.ErrorString(r))
}

func (realNVML) Init() error     { return check(nvml.Init()) }
func (realNVML) Shutdown() error { return check(nvml.Shutdown()) }

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

// Device reads what the profile shows; only the name is required, the
// rest is left zero where the device does not answer (power limits and
// utilisation are not readable on every board or in every container).
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
