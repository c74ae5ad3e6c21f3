// Package conceal, imported for its side effect by ponder's main package
// only, runs shellenv.Conceal while the program starts: as a package that
// needs nothing but a few standard packages, it is initialised before the
// model SDKs and the interface libraries: the credentials are hidden before
// any of them runs, and where hiding them means re-executing the program
// (systems without Linux's /proc/self/mem), little start-up work is done
// twice.
package conceal

import (
	"fmt"
	"os"

	"github.com/ponder-agent/ponder/internal/shellenv"
)

func init() {
	if err := shellenv.Conceal(); err != nil {
		fmt.Fprintln(os.Stderr, "ponder: warning: the credentials in the environment stay visible to other programs: "+err.Error())
	}
}
