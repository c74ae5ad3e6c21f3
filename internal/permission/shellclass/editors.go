package shellclass

// vimOptions are the options that give vim and its relatives commands to
// run.
var vimOptions = []string{"-c", "--cmd", "-S", "-s", "-e", "-E", "-es", "-Es", "-u", "+"}

// editorPrograms edit or display files and run commands given to them.
var editorPrograms = family{
	"ed":      {writes: "edits files", session: "runs commands from its input"},
	"emacs":   {writes: "edits files", commandOptions: []string{"--eval", "-eval", "-l", "--load", "-f", "--funcall", "--batch", "-batch", "--script", "-script", "-x"}},
	"ex":      {session: "runs editor commands"},
	"gvim":    {commandOptions: vimOptions},
	"man":     {commandOptions: []string{"-P", "--pager", "-H", "--html"}},
	"nano":    {writes: "edits files"},
	"nvim":    {writes: "edits files", commandOptions: vimOptions},
	"rvim":    {commandOptions: vimOptions},
	"vi":      {writes: "edits files", commandOptions: vimOptions},
	"view":    {commandOptions: vimOptions, files: files{reads: true}},
	"vim":     {writes: "edits files", commandOptions: vimOptions},
	"vimdiff": {commandOptions: vimOptions},
}
