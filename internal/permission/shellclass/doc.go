// Package shellclass decides whether a shell command line only reads.
//
// Plan mode lets a command run only when this package calls it read-only,
// so the package is built to fail closed: a command it does not fully
// understand is "not read-only", with a reason a user and a model can act
// on. Saying "not read-only" by mistake costs a prompt; saying "read-only"
// by mistake lets a write through.
//
// The principle:
//
//   - The line is parsed with mvdan.cc/sh/v3/syntax (bash dialect) and the
//     syntax tree is walked. Nothing is decided by matching the raw text.
//     A line that does not parse is not read-only.
//   - Every simple command is found, wherever it hides: in pipelines, lists,
//     subshells, blocks, loops, conditionals, function bodies, command and
//     process substitutions, here-documents, and inside programs that run
//     other programs (env, timeout, nice, xargs, find -exec, fd -x,
//     sh -c '...', eval '...'). Each one must be read-only on its own.
//   - A redirection that may write a file is a write, whatever the command.
//     Only /dev/null, /dev/stdout, /dev/stderr and descriptor duplication
//     are allowed as output targets.
//   - A command is read-only only when its program is on an allow-list and
//     its arguments pass that program's checks (sed -i, sort -o, find
//     -delete, git push, curl -o and so on are writes). An unknown program,
//     a program given by a relative path, or a command name that is not a
//     plain word is not read-only.
//   - Words whose value is only known when the shell runs (expansions,
//     globs, brace expansion) are treated as possibly being any option, so
//     they are refused where an option could turn a read into a write.
//   - Shell state that can make a later read run code is guarded too:
//     assignments to variables such as PATH, LD_PRELOAD or GIT_* are
//     refused, and so is arithmetic over values the line does not control
//     (bash evaluates array subscripts inside such values).
//
// Classify also returns every simple command it found, so permission rules
// such as Bash(git diff:*) can be matched against each of them.
package shellclass
