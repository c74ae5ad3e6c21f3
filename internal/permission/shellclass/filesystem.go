package shellclass

import "strings"

// filePrograms list, inspect and change files and directories.
var filePrograms = family{
	"basename": {reads: true},
	"cat":      {reads: true, pager: true, files: files{reads: true}},
	"chattr":   {writes: "changes file attributes"},
	"chgrp":    {writes: "changes file groups", files: files{writes: true}},
	"chmod":    {writes: "changes file permissions", files: files{values: "/", writes: true}},
	"chown":    {writes: "changes file owners", files: files{values: "/", writes: true}},
	"cp":       {writes: "copies files", files: files{values: "tS", use: copyFiles}},
	"dd":       {writes: "writes data to files or devices", files: files{use: ddFiles}},
	"df":       {reads: true},
	"dirname":  {reads: true},
	"du":       {reads: true},
	"head":     {reads: true, files: files{reads: true}},
	"install":  {writes: "copies files", files: files{values: "tmgoSTB", use: copyFiles}},
	"ln":       {writes: "creates links", files: files{values: "tS", use: copyFiles, linksOnly: true}},
	"ls":       {reads: true},
	"mkdir":    {writes: "creates directories"},
	"mkfifo":   {writes: "creates files"},
	"mknod":    {writes: "creates files"},
	"mv":       {writes: "moves files", files: files{values: "tS", use: mvFiles}},
	"patch":    {writes: "changes files"},
	"pwd":      {reads: true},
	"readlink": {reads: true},
	"realpath": {reads: true},
	"rm":       {writes: "deletes files", files: files{writes: true}},
	"rmdir":    {writes: "deletes directories", files: files{writes: true}},
	"setfacl":  {writes: "changes file permissions"},
	"shred":    {writes: "destroys files", files: files{writes: true}},
	"stat":     {reads: true},
	"tail":     {reads: true, files: files{reads: true}},
	"touch":    {writes: "creates or changes files", files: files{values: "rdt/r", writes: true}},
	"truncate": {writes: "changes file sizes", files: files{values: "sr/r", writes: true}},
	"unlink":   {writes: "deletes files", files: files{writes: true}},
	"wc":       {reads: true, files: files{reads: true}},
}

// mvFiles records the files mv moves and replaces.
func mvFiles(w *walker, prog string, args []arg) {
	operands, _ := splitOperands(lookup(prog), args)
	for _, o := range operands {
		w.use(o, true)
	}
}

// copyFiles records the files cp and install read and the one they (and
// ln) write: the last operand or the -t directory.
func copyFiles(w *walker, prog string, args []arg) {
	p := lookup(prog)
	operands, _ := splitOperands(p, args)
	if len(operands) > 1 {
		last := operands[len(operands)-1]
		if t := targetDirectory(args); t != nil {
			last = *t
		} else {
			operands = operands[:len(operands)-1]
		}
		w.use(last, true)
	}
	if p.files.linksOnly {
		return
	}
	for _, o := range operands {
		w.use(o, false)
	}
}

// ddFiles records dd's if= and of= files.
func ddFiles(w *walker, _ string, args []arg) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a.text, "of="); ok && a.lit {
			w.use(litArg(v), true)
		}
		if v, ok := strings.CutPrefix(a.text, "if="); ok && a.lit {
			w.use(litArg(v), false)
		}
	}
}
