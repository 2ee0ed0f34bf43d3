// plugctl's Go oracle: decodes plugin output with Go's own encoding/json,
// into structs shaped like Nomad's. Standard library only, so it builds
// without the network (GOTOOLCHAIN=local, GOPROXY=off).
module plugctl.invalid/oracle

go 1.24
