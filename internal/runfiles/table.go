package runfiles

// Reasons shared by many rows.
const (
	whyAgent      = "an agent reads its hooks, MCP servers, permission rules or instructions from it at start"
	whyGitHooks   = "git runs the scripts there as hooks on commit, checkout or push"
	whyLefthook   = "lefthook runs the commands it lists as git hooks"
	whyEditor     = "the editor runs what it configures (tasks, extensions, scripts) when the folder opens"
	whyVersion    = "a version manager picks, and may download, the program every command of the project runs from it"
	whyMise       = "mise runs its hooks and tasks and sets the environment when a shell enters the directory"
	whyWrapper    = "the wrapper downloads and runs the program it names in place of the build tool"
	whyTasks      = "the task runner runs its recipes, so an allowed run of it runs whatever they say"
	whyCI         = "CI runs it with the repository's secrets"
	whyShell      = "a shell runs it at start or exit"
	whyLogin      = "the system starts the programs it names when the user logs in"
	whyVenv       = "the programs and start-up files of a virtual environment run whenever it is used"
	whyToolConfig = "programs keep their settings there, and many settings name programs to run"
)

// claudeRecords are what Claude Code appends to in its directory, which
// is a project's .claude when the project is the home directory.
var claudeRecords = []string{"projects", "todos", "shell-snapshots", "statsig", "file-history", "plans", "debug", "session-env", "ide", "logs", "cache", "telemetry", "history.jsonl"}

// table is every entry, grouped by category. Build manifests that are
// edited as ordinary work (package.json, pyproject.toml, Cargo.toml,
// build.gradle, pom.xml, go.mod) are deliberately absent: editing them is
// what accept-edits is for, and the sandbox, not this table, holds what
// the builds they describe may write. The side files of tools, which
// configure how a tool starts rather than what a project builds
// (pytest.ini, setup.cfg, .coveragerc, gradle.properties, compose
// overrides), are rows: nobody expects changing them to be a code edit,
// and they load plugins and agents whenever the tool runs.
var table = []Entry{
	// Agent settings.
	{Pattern: ".ponder", Tree: true, Category: AgentSettings, Why: "ponder's own settings, agents, commands, skills and rules for this project", Watch: true, Records: ConfigRecords},
	{Pattern: ".claude", Tree: true, Category: AgentSettings, Why: whyAgent, Watch: true, Records: claudeRecords},
	{Pattern: ".codex", Tree: true, Category: AgentSettings, Why: whyAgent},
	{Pattern: ".gemini", Tree: true, Category: AgentSettings, Why: whyAgent},
	{Pattern: ".cursor", Tree: true, Category: AgentSettings, Why: whyAgent},
	{Pattern: ".mcp.json", Category: AgentSettings, Why: "it names MCP servers, which are programs an agent starts", Watch: true},
	{Pattern: "AGENTS.md", Category: AgentSettings, Why: "ponder gives it to the model as instructions at every start"},
	{Pattern: "CLAUDE.md", Category: AgentSettings, Why: "ponder gives it to the model as instructions at every start"},
	{Pattern: "CLAUDE.local.md", Category: AgentSettings, Why: "an agent gives it to the model as instructions at every start"},
	{Pattern: "AGENTS.override.md", Category: AgentSettings, Why: "an agent gives it to the model as instructions at every start, in place of AGENTS.md"},
	{Pattern: "GEMINI.md", Category: AgentSettings, Why: "an agent gives it to the model as instructions at every start"},

	// Version control hooks and config.
	{Pattern: ".git", Tree: true, Category: VCS, Why: "git runs the programs its config and hooks name, even for read-only commands such as git status", Written: true},
	{Pattern: ".hg", Tree: true, Category: VCS, Why: "mercurial runs the hooks and extensions its .hg/hgrc names", Written: true},
	{Pattern: ".hg/hgrc", Category: VCS, Why: "mercurial runs the hooks and extensions it names"},
	{Pattern: ".jj/repo/config.toml", Category: VCS, Why: "jj runs the programs it names"},
	{Pattern: ".jj", Tree: true, Category: VCS, Why: "jj runs the programs its repository config names", Written: true},
	{Pattern: ".gitattributes", Category: VCS, Why: "it picks the filter and diff programs git runs on files"},
	{Pattern: ".gitmodules", Category: VCS, Why: "it tells git where to fetch code from and how to update it"},
	{Pattern: ".gitconfig", Category: VCS, Why: "git runs the programs it names"},
	{Pattern: ".hgrc", Category: VCS, Why: "mercurial runs the hooks and extensions it names"},
	{Pattern: ".config/git", Tree: true, Category: VCS, Why: "git reads its user configuration there, which names programs it runs"},
	{Pattern: ".githooks", Tree: true, Category: VCS, Why: "the conventional hooks directory that core.hooksPath points git at", Watch: true},
	{Pattern: ".husky", Tree: true, Category: VCS, Why: "husky runs these scripts as git hooks (version 9 points core.hooksPath at .husky/_)", Watch: true},
	{Pattern: ".pre-commit-config.yaml", Category: VCS, Why: "pre-commit runs the hooks it lists on every commit"},
	{Pattern: ".pre-commit-hooks.yaml", Category: VCS, Why: "pre-commit runs the hooks it defines"},
	{Pattern: "lefthook.*", Category: VCS, Why: whyLefthook},
	{Pattern: ".lefthook.*", Category: VCS, Why: whyLefthook},
	{Pattern: "lefthook-local.*", Category: VCS, Why: whyLefthook},
	{Pattern: ".lefthook-local.*", Category: VCS, Why: whyLefthook},
	{Pattern: ".lefthook", Tree: true, Category: VCS, Why: whyLefthook},
	{Pattern: ".overcommit.yml", Category: VCS, Why: "overcommit runs the hooks it lists"},
	{Pattern: ".simple-git-hooks*", Category: VCS, Why: "simple-git-hooks installs the commands it lists as git hooks"},
	{Pattern: "simple-git-hooks*", Category: VCS, Why: "simple-git-hooks installs the commands it lists as git hooks"},
	{Pattern: ".lintstagedrc*", Category: VCS, Why: "lint-staged runs the commands it lists from a commit hook"},
	{Pattern: "lint-staged.config.*", Category: VCS, Why: "lint-staged runs the commands it lists from a commit hook"},

	// Editor config that runs on open.
	{Pattern: ".vscode", Tree: true, Category: Editor, Why: whyEditor, Watch: true},
	{Pattern: "*.code-workspace", Category: Editor, Why: "the editor runs the tasks a workspace file holds when it opens"},
	{Pattern: ".idea", Tree: true, Category: Editor, Why: "the IDE runs the run configurations and startup tasks it holds"},
	{Pattern: ".fleet", Tree: true, Category: Editor, Why: whyEditor},
	{Pattern: ".zed", Tree: true, Category: Editor, Why: "the editor runs the tasks it configures"},
	{Pattern: ".nvim.lua", Category: Editor, Why: "neovim runs it when it opens the folder"},
	{Pattern: ".nvimrc", Category: Editor, Why: "neovim runs it when it opens the folder"},
	{Pattern: ".vimrc", Category: Editor, Why: "vim runs it at start (and in the folder, with exrc set)"},
	{Pattern: ".gvimrc", Category: Editor, Why: "gvim runs it at start"},
	{Pattern: ".exrc", Category: Editor, Why: "vi-like editors run it when they open the folder"},
	{Pattern: ".lvimrc", Category: Editor, Why: "vim's local-vimrc plugin runs it when a file of the folder opens"},
	{Pattern: ".dir-locals.el", Category: Editor, Why: "emacs evaluates it when a file of the folder opens"},
	{Pattern: ".dir-locals-2.el", Category: Editor, Why: "emacs evaluates it when a file of the folder opens"},
	{Pattern: "*.sublime-project", Category: Editor, Why: "the editor runs the build systems it defines"},
	{Pattern: ".vim", Tree: true, Category: Editor, Why: "vim loads the plugins and scripts there at start"},
	{Pattern: ".emacs", Category: Editor, Why: "emacs runs it at start"},
	{Pattern: ".emacs.d", Tree: true, Category: Editor, Why: "emacs runs the init files and packages there at start"},

	// Dev containers and environments.
	{Pattern: ".devcontainer", Tree: true, Category: DevContainer, Why: "editors build and start the container it describes, with its commands", Watch: true},
	{Pattern: ".devcontainer.json", Category: DevContainer, Why: "editors build and start the container it describes, with its commands", Watch: true},
	{Pattern: ".gitpod.yml", Category: DevContainer, Why: "the workspace runs its tasks when it starts"},
	{Pattern: ".gitpod.Dockerfile", Category: DevContainer, Why: "the workspace is built from it"},
	{Pattern: "devbox.json", Category: DevContainer, Why: "devbox runs its init hook in every devbox shell"},
	{Pattern: "flake.nix", Category: DevContainer, Why: "nix evaluates it, and direnv's use flake enters the shell it defines"},
	{Pattern: "shell.nix", Category: DevContainer, Why: "nix-shell and direnv's use nix run its shell hook"},
	{Pattern: "Vagrantfile", Category: DevContainer, Why: "vagrant runs it, as Ruby, for every vagrant command, and provisions the machine with what it says"},
	{Pattern: "compose.yaml", Category: DevContainer, Why: "an allowed docker compose runs the containers it describes, with the host's files it mounts"},
	{Pattern: "compose.yml", Category: DevContainer, Why: "an allowed docker compose runs the containers it describes, with the host's files it mounts"},
	{Pattern: "docker-compose.yml", Category: DevContainer, Why: "an allowed docker compose runs the containers it describes, with the host's files it mounts"},
	{Pattern: "docker-compose.yaml", Category: DevContainer, Why: "an allowed docker compose runs the containers it describes, with the host's files it mounts"},
	{Pattern: "docker-compose.*.yml", Category: DevContainer, Why: "docker compose merges it into the containers it runs"},
	{Pattern: "docker-compose.*.yaml", Category: DevContainer, Why: "docker compose merges it into the containers it runs"},
	{Pattern: "compose.*.yaml", Category: DevContainer, Why: "docker compose merges it (compose.override.yaml without being asked) into the containers it runs"},
	{Pattern: "compose.*.yml", Category: DevContainer, Why: "docker compose merges it (compose.override.yml without being asked) into the containers it runs"},
	{Pattern: ".envrc", Category: DevContainer, Why: "direnv runs it when a shell enters the directory", Watch: true},
	{Pattern: ".direnv", Tree: true, Category: DevContainer, Why: "direnv loads the environments it caches there"},
	{Pattern: ".env", Category: DevContainer, Why: "tools such as pipenv and docker compose load it into the environment of the commands they run, and it usually holds secrets"},
	{Pattern: ".env.*", Category: DevContainer, Why: "tools such as pipenv and docker compose load it into the environment of the commands they run, and it usually holds secrets"},

	// Version pickers.
	{Pattern: ".tool-versions", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".python-version", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".nvmrc", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".node-version", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".ruby-version", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".go-version", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".java-version", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".terraform-version", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".bun-version", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".sdkmanrc", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".prototools", Category: VersionPicker, Why: whyVersion},
	{Pattern: ".bazelversion", Category: VersionPicker, Why: "bazelisk downloads and runs the bazel it names"},
	{Pattern: "rust-toolchain", Category: VersionPicker, Why: "cargo and rustc run the toolchain it names"},
	{Pattern: "rust-toolchain.toml", Category: VersionPicker, Why: "cargo and rustc run the toolchain it names"},
	{Pattern: "mise.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: ".mise.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: "mise.*.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: ".mise.*.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: ".rtx.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: ".mise", Tree: true, Category: VersionPicker, Why: whyMise},
	{Pattern: "mise/config.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: "mise/config.*.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: "mise/tasks", Tree: true, Category: VersionPicker, Why: whyMise},
	{Pattern: ".config/mise", Tree: true, Category: VersionPicker, Why: whyMise},
	{Pattern: ".config/mise.toml", Category: VersionPicker, Why: whyMise},
	{Pattern: ".config/mise.*.toml", Category: VersionPicker, Why: whyMise},

	// Wrapper scripts.
	{Pattern: "gradlew", Category: Wrapper, Why: whyWrapper},
	{Pattern: "gradlew.bat", Category: Wrapper, Why: whyWrapper},
	{Pattern: "gradle/wrapper", Tree: true, Category: Wrapper, Why: whyWrapper},
	{Pattern: "mvnw", Category: Wrapper, Why: whyWrapper},
	{Pattern: "mvnw.cmd", Category: Wrapper, Why: whyWrapper},
	{Pattern: ".mvn", Tree: true, Category: Wrapper, Why: "maven loads the wrapper, extensions and options it holds on every build"},
	{Pattern: "tools/bazel", Category: Wrapper, Why: "bazelisk runs it in place of bazel"},
	{Pattern: ".yarn/releases", Tree: true, Category: Wrapper, Why: "yarn runs the release its settings name as yarn itself"},
	{Pattern: ".yarn/plugins", Tree: true, Category: Wrapper, Why: "yarn loads these plugins on every command"},
	{Pattern: ".pnp.cjs", Category: Wrapper, Why: "yarn's loader runs it in every node process of the project", Written: true},
	{Pattern: ".pnp.loader.mjs", Category: Wrapper, Why: "yarn's loader runs it in every node process of the project", Written: true},

	// Task runners.
	{Pattern: "Makefile", Category: TaskRunner, Why: whyTasks},
	{Pattern: "GNUmakefile", Category: TaskRunner, Why: whyTasks},
	{Pattern: "BSDmakefile", Category: TaskRunner, Why: whyTasks},
	{Pattern: "*.mk", Category: TaskRunner, Why: "a Makefile includes it, so make runs its recipes"},
	{Pattern: "justfile", Category: TaskRunner, Why: whyTasks},
	{Pattern: ".justfile", Category: TaskRunner, Why: whyTasks},
	{Pattern: "*.just", Category: TaskRunner, Why: "a justfile imports it, so just runs its recipes"},
	{Pattern: "Taskfile.*", Category: TaskRunner, Why: whyTasks},
	{Pattern: "Rakefile", Category: TaskRunner, Why: whyTasks},
	{Pattern: "Rakefile.rb", Category: TaskRunner, Why: whyTasks},
	{Pattern: "rakelib", Tree: true, Category: TaskRunner, Why: "rake loads every file there"},
	{Pattern: "Jakefile*", Category: TaskRunner, Why: whyTasks},
	{Pattern: "Gruntfile.*", Category: TaskRunner, Why: whyTasks},
	{Pattern: "gulpfile.*", Category: TaskRunner, Why: whyTasks},
	{Pattern: "noxfile.py", Category: TaskRunner, Why: whyTasks},
	{Pattern: "tox.ini", Category: TaskRunner, Why: whyTasks},
	{Pattern: "Earthfile", Category: TaskRunner, Why: whyTasks},
	{Pattern: "Procfile", Category: TaskRunner, Why: "process managers start the commands it lists"},
	{Pattern: "Procfile.*", Category: TaskRunner, Why: "process managers start the commands it lists (foreman start -f Procfile.dev)"},
	{Pattern: "Tiltfile", Category: TaskRunner, Why: whyTasks},

	// CI definitions.
	{Pattern: ".github/workflows", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".github/actions", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".gitlab-ci.yml", Category: CI, Why: whyCI},
	{Pattern: ".gitlab", Tree: true, Category: CI, Why: "CI includes pipelines from it with the repository's secrets"},
	{Pattern: ".forgejo", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".gitea", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".circleci", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".travis.yml", Category: CI, Why: whyCI},
	{Pattern: "Jenkinsfile", Category: CI, Why: whyCI},
	{Pattern: "azure-pipelines.yml", Category: CI, Why: whyCI},
	{Pattern: "azure-pipelines.yaml", Category: CI, Why: whyCI},
	{Pattern: ".azure-pipelines", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".buildkite", Tree: true, Category: CI, Why: whyCI},
	{Pattern: "bitbucket-pipelines.yml", Category: CI, Why: whyCI},
	{Pattern: ".woodpecker.yml", Category: CI, Why: whyCI},
	{Pattern: ".woodpecker.yaml", Category: CI, Why: whyCI},
	{Pattern: ".woodpecker", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".drone.yml", Category: CI, Why: whyCI},
	{Pattern: ".drone.yaml", Category: CI, Why: whyCI},
	{Pattern: "appveyor.yml", Category: CI, Why: whyCI},
	{Pattern: ".appveyor.yml", Category: CI, Why: whyCI},
	{Pattern: ".cirrus.yml", Category: CI, Why: whyCI},
	{Pattern: ".semaphore", Tree: true, Category: CI, Why: whyCI},
	{Pattern: ".teamcity", Tree: true, Category: CI, Why: whyCI},
	{Pattern: "cloudbuild.yaml", Category: CI, Why: whyCI},
	{Pattern: "cloudbuild.yml", Category: CI, Why: whyCI},
	{Pattern: "bitrise.yml", Category: CI, Why: whyCI},
	{Pattern: "codemagic.yaml", Category: CI, Why: whyCI},

	// Package-manager and interpreter start-up files.
	{Pattern: ".npmrc", Category: StartUp, Why: "npm reads the shell, node options and registry every npm command uses from it"},
	{Pattern: ".yarnrc", Category: StartUp, Why: "yarn reads the program it runs as yarn itself from it"},
	{Pattern: ".yarnrc.yml", Category: StartUp, Why: "yarn reads the program it runs as yarn itself from it"},
	{Pattern: ".pnpmfile.cjs", Category: StartUp, Why: "pnpm runs it on every install"},
	{Pattern: ".pnpmfile.mjs", Category: StartUp, Why: "pnpm runs it on every install"},
	{Pattern: "bunfig.toml", Category: StartUp, Why: "bun preloads the scripts it names in every run"},
	{Pattern: ".cargo/config", Category: StartUp, Why: "cargo runs the runners, wrappers and aliases it names"},
	{Pattern: ".cargo/config.toml", Category: StartUp, Why: "cargo runs the runners, wrappers and aliases it names"},
	{Pattern: ".bazelrc", Category: StartUp, Why: "bazel runs the programs and options it names"},
	{Pattern: "*.pth", Category: StartUp, Why: "python runs the import lines of a .pth file in site-packages at every start"},
	{Pattern: "sitecustomize.py", Category: StartUp, Why: "python imports it at every start"},
	{Pattern: "usercustomize.py", Category: StartUp, Why: "python imports it at every start"},
	{Pattern: "conftest.py", Category: StartUp, Why: "pytest imports it before any test, even for a single test file"},
	{Pattern: "pytest.ini", Category: StartUp, Why: "pytest reads it at start, and its addopts (-p) and required_plugins load code"},
	{Pattern: ".pytest.ini", Category: StartUp, Why: "pytest reads it at start, and its addopts (-p) and required_plugins load code"},
	{Pattern: "pytest.toml", Category: StartUp, Why: "pytest reads it at start, and its addopts (-p) and required_plugins load code"},
	{Pattern: ".pytest.toml", Category: StartUp, Why: "pytest reads it at start, and its addopts (-p) and required_plugins load code"},
	{Pattern: "setup.cfg", Category: StartUp, Why: "pytest, flake8 and other tools read it at start, and their options load plugins (pytest's addopts -p)"},
	{Pattern: ".coveragerc", Category: StartUp, Why: "coverage imports the plugins it lists whenever tests run under it"},
	{Pattern: "gradle.properties", Category: StartUp, Why: "gradle starts its JVM with the options it sets (org.gradle.jvmargs -javaagent loads code)"},
	{Pattern: "pip.conf", Category: StartUp, Why: "pip reads the index and options every install uses from it"},
	{Pattern: "pip.ini", Category: StartUp, Why: "pip reads the index and options every install uses from it"},
	{Pattern: ".bundle/config", Category: StartUp, Why: "bundler reads the paths and options every bundle command uses from it"},
	{Pattern: ".irbrc", Category: StartUp, Why: "irb runs it at start"},
	{Pattern: ".pryrc", Category: StartUp, Why: "pry runs it at start"},
	{Pattern: ".Rprofile", Category: StartUp, Why: "R runs it at start in the folder"},
	{Pattern: ".ghci", Category: StartUp, Why: "ghci runs it at start in the folder"},
	{Pattern: ".gdbinit", Category: StartUp, Why: "gdb runs it at start"},
	{Pattern: ".lldbinit", Category: StartUp, Why: "lldb runs it at start"},
	{Pattern: ".curlrc", Category: StartUp, Why: "curl reads options from it, such as where to write and what to send"},
	{Pattern: ".wgetrc", Category: StartUp, Why: "wget reads options from it, such as where to write and what to run"},
	{Pattern: ".ssh/config", Category: StartUp, Why: "ssh runs the proxy and local commands it names"},

	// Shell and session start-up.
	{Pattern: ".bashrc", Category: Shell, Why: whyShell},
	{Pattern: ".bash_profile", Category: Shell, Why: whyShell},
	{Pattern: ".bash_login", Category: Shell, Why: whyShell},
	{Pattern: ".bash_logout", Category: Shell, Why: whyShell},
	{Pattern: ".bash_aliases", Category: Shell, Why: "the usual .bashrc sources it at start"},
	{Pattern: ".profile", Category: Shell, Why: whyShell},
	{Pattern: ".zshrc", Category: Shell, Why: whyShell},
	{Pattern: ".zshenv", Category: Shell, Why: "every zsh runs it at start"},
	{Pattern: ".zprofile", Category: Shell, Why: whyShell},
	{Pattern: ".zlogin", Category: Shell, Why: whyShell},
	{Pattern: ".zlogout", Category: Shell, Why: whyShell},
	{Pattern: ".kshrc", Category: Shell, Why: whyShell},
	{Pattern: ".inputrc", Category: Shell, Why: "readline reads its key bindings, which may run commands, at start"},
	{Pattern: ".tmux.conf", Category: Shell, Why: "tmux runs the commands it holds at start"},
	{Pattern: ".config/fish", Tree: true, Category: Shell, Why: "fish runs its configuration at start"},
	{Pattern: ".config/autostart", Tree: true, Category: Shell, Why: whyLogin},
	{Pattern: ".config/systemd", Tree: true, Category: Shell, Why: whyLogin},
	{Pattern: "Library/LaunchAgents", Tree: true, Category: Shell, Why: whyLogin},

	// Virtual environments.
	{Pattern: ".venv", Tree: true, Category: VirtualEnv, Why: whyVenv, Written: true},
	{Pattern: "venv", Tree: true, Category: VirtualEnv, Why: whyVenv, Written: true},
	{Pattern: "pyvenv.cfg", Category: VirtualEnv, Why: whyVenv, Written: true},
	{Pattern: "bin/activate*", Category: VirtualEnv, Why: whyVenv, Written: true},
	{Pattern: "Scripts/activate*", Category: VirtualEnv, Why: whyVenv, Written: true},
	{Pattern: ".tox", Tree: true, Category: VirtualEnv, Why: whyVenv, Written: true},
	{Pattern: ".nox", Tree: true, Category: VirtualEnv, Why: whyVenv, Written: true},
	{Pattern: "node_modules/.bin", Tree: true, Category: VirtualEnv, Why: "npm scripts and npx run the programs there by name", Written: true},
	{Pattern: "node_modules/.hooks", Tree: true, Category: VirtualEnv, Why: "npm runs the scripts there around every lifecycle script", Written: true},
	{Pattern: "node_modules", Tree: true, Category: VirtualEnv, Why: "the project's scripts and tests run the installed packages there", Written: true},
	{Pattern: "site-packages", Tree: true, Category: VirtualEnv, Why: "python imports the installed packages there", Written: true},
	{Pattern: "dist-packages", Tree: true, Category: VirtualEnv, Why: "python imports the installed packages there", Written: true},

	// Other tools' configuration directories, last so that a more
	// precise row above gives its reason first.
	{Pattern: ".config", Tree: true, Category: ToolConfig, Why: whyToolConfig},
	{Pattern: ".local/bin", Tree: true, Category: ToolConfig, Why: "programs there run by name from the search path"},
	{Pattern: "Library/Application Support", Tree: true, Category: ToolConfig, Why: whyToolConfig},
	{Pattern: "Library/Preferences", Tree: true, Category: ToolConfig, Why: whyToolConfig},
	{Pattern: "AppData/Roaming", Tree: true, Category: ToolConfig, Why: whyToolConfig},
}
