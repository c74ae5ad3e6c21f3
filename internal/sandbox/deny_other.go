//go:build !(linux && (amd64 || arm64))

package sandbox

import "errors"

func denySupported() bool { return false }

func denyLayer(Deny) (func() error, error) {
	return nil, errors.New("the deny layer needs Landlock")
}
