//go:build !linux

package pagecache

func advise() {}
