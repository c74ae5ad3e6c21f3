//go:build !unix

package proctree

func (other) killGroup(int) {}
