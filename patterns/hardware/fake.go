package hardware

import "fmt"

// FakeNVML is a machine described by its readings, for tests here and in
// the packages that build profiles (the CLI, the language server).
type FakeNVML struct {
	// InitErr is what Init returns: a machine without a driver.
	InitErr error
	// Panic makes Init panic: a library that misbehaves.
	Panic bool
	// Driver and CUDA are the driver version and the CUDA version it
	// supports in NVML's encoding (13000 for 13.0).
	Driver string
	CUDA   int
	// GPUs are the devices; DeviceErr fails the device at that index.
	GPUs      []GPU
	DeviceErr map[int]error
}

// Init implements NVML.
func (f FakeNVML) Init() error {
	if f.Panic {
		panic("fake NVML: driver exploded")
	}
	return f.InitErr
}

// Shutdown implements NVML.
func (FakeNVML) Shutdown() error { return nil }

// DriverVersion implements NVML.
func (f FakeNVML) DriverVersion() (string, error) { return f.Driver, nil }

// CUDADriverVersion implements NVML.
func (f FakeNVML) CUDADriverVersion() (int, error) { return f.CUDA, nil }

// DeviceCount implements NVML.
func (f FakeNVML) DeviceCount() (int, error) { return len(f.GPUs), nil }

// Device implements NVML.
func (f FakeNVML) Device(i int) (GPU, error) {
	if err := f.DeviceErr[i]; err != nil {
		return GPU{}, err
	}
	if i < 0 || i >= len(f.GPUs) {
		return GPU{}, fmt.Errorf("fake NVML: no GPU %d", i)
	}
	return f.GPUs[i], nil
}
