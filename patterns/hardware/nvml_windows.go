package hardware

import "errors"

// realNVML on Windows reads nothing: go-nvml loads libnvidia-ml through
// dlopen, which Windows lacks, so rules assume no GPU unless one is named
// (--target-gpu or target-gpu in [tool.gpuopt]).
type realNVML struct{}

var errNoNVMLOnWindows = errors.New("NVML is not read on Windows: name the GPU with --target-gpu (see `gpuopt hw --list`)")

func (realNVML) Init() error                     { return errNoNVMLOnWindows }
func (realNVML) Shutdown() error                 { return nil }
func (realNVML) DriverVersion() (string, error)  { return "", errNoNVMLOnWindows }
func (realNVML) CUDADriverVersion() (int, error) { return 0, errNoNVMLOnWindows }
func (realNVML) DeviceCount() (int, error)       { return 0, errNoNVMLOnWindows }
func (realNVML) Device(int) (GPU, error)         { return GPU{}, errNoNVMLOnWindows }
