/* Resolving a config into the policy one session enforces. */
#include "cordon/policy.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/exec.h"
#include "cordon/gitconfig.h"
#include "cordon/guard.h"
#include "cordon/mounts.h"
#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "cordon/toolchain.h"
#include "dotfile-refs.h"
#include "hidden-tracked.h"
#include "secret-names.h"
#include "util.h"

/* What tools need to find themselves, show time and language right, and
 * reach the network on managed machines (a CA bundle, who bypasses the
 * proxy). Not the proxies themselves: HTTP_PROXY, HTTPS_PROXY and ALL_PROXY
 * often carry user:password (additional_env_vars passes them). The
 * locale's categories by name, not LC_*: sshd passes any LC_ variable,
 * and LC_TOKEN is how some carry a secret to a remote shell (round 54d
 * F7). */
const char *const cordon_default_env[] = {"PATH",
					  "HOME",
					  "USER",
					  "SHELL",
					  "LANG",
					  "LANGUAGE",
					  "LC_ALL",
					  "LC_CTYPE",
					  "LC_COLLATE",
					  "LC_MESSAGES",
					  "LC_NUMERIC",
					  "LC_TIME",
					  "LC_MONETARY",
					  "LC_PAPER",
					  "LC_NAME",
					  "LC_ADDRESS",
					  "LC_TELEPHONE",
					  "LC_MEASUREMENT",
					  "LC_IDENTIFICATION",
					  "TZ",
					  "TERM",
					  "TERM_PROGRAM",
					  "CARGO_HOME",
					  "RUSTUP_HOME",
					  "GOPATH",
					  "EDITOR",
					  "VISUAL",
					  "XDG_CONFIG_HOME",
					  "XDG_DATA_HOME",
					  "XDG_STATE_HOME",
					  "XDG_CACHE_HOME",
					  "XDG_RUNTIME_DIR",
					  "SSH_AUTH_SOCK",
					  "GPG_TTY",
					  "COLORTERM",
					  "SSL_CERT_FILE",
					  "SSL_CERT_DIR",
					  "NODE_EXTRA_CA_CERTS",
					  "REQUESTS_CA_BUNDLE",
					  "CURL_CA_BUNDLE",
					  "GIT_SSL_CAINFO",
					  "NO_PROXY",
					  "no_proxy",
					  NULL};

const char *const cordon_dotfiles[] = {
	".profile",      ".bashrc",    ".bash_profile", ".bash_login",   ".bash_logout",
	".bash_aliases", ".zshrc",     ".zshenv",       ".zprofile",     ".zlogin",
	".zlogout",      ".inputrc",   ".gitconfig",    ".editorconfig", ".vimrc",
	".nanorc",       ".tmux.conf", ".terminfo",     ".config",       NULL};

const char *const cordon_home_code[] = {
	"~/.cargo/bin", "~/.cargo/env", "~/.cargo/env.fish", "~/.cargo/config",
	"~/.cargo/config.toml", "~/.rustup", "~/.local/lib", "~/.pyenv", "~/.nvm", "~/.rbenv",
	"~/.asdf", "~/.sdkman", "~/.volta", "~/.deno/bin", "~/.bun/bin", "~/go/bin", "~/.yarn/bin",
	"~/.local/share/pnpm", "~/.npm-global", "~/.gradle/init.d", "~/.gradle/init.gradle",
	"~/.gradle/init.gradle.kts", "~/.gradle/gradle.properties", "~/.m2/settings.xml",
	"~/.terraformrc", "~/.gdbinit", "~/.lldbinit", "~/.emacs", "~/.emacs.d", "~/.vim",
	"~/.local/share/nvim", "~/.screenrc", "~/.curlrc", "~/.wgetrc", "~/.psqlrc", "~/.irbrc",
	"~/.pryrc", "~/.Rprofile", "~/.pythonrc", "~/.ipython", "~/.jupyter", "~/.condarc",
	"~/.xprofile", "~/.xsessionrc", "~/.xinitrc", "~/.Xresources", "~/.pam_environment",
	"~/.mailcap", "~/.tcshrc", "~/.cshrc", "~/.kshrc", "~/.mkshrc", "~/.bashrc.d",
	"~/.oh-my-zsh", "~/.zsh", "~/.zprezto", "~/.zinit", "~/.local/share/zinit", "~/.antigen",
	"~/.zplug", "~/.bash_it", "~/.bash_completion", "~/.tmux", "~/.local/share/direnv",
	"~/.local/share/gnome-shell", "~/.local/share/nautilus/scripts", "~/.local/share/nemo",
	"~/.local/share/kservices5/ServiceMenus", "~/.local/share/kio/servicemenus",
	"~/.local/share/plasma", "~/.local/share/konsole", "~/.local/share/flatpak", "~/.xsession",
	"~/.xbindkeysrc", "~/.selected_editor", "~/.muttrc", "~/.mutt", "~/.hgrc", "~/.yarnrc",
	"~/.yarnrc.yml", "~/.pip", "~/.sbt", "~/.lein", "~/.julia/config", "~/.spacemacs",
	"~/.doom.d", "~/.sqliterc", "~/.pdbrc", "~/.ghci", "~/.sbclrc", "~/.guile", "~/.gtkrc-2.0",
	"~/.zcompcache", "~/.zim", "~/.zgenom", "~/.local/share/sheldon", "~/.local/share/zap",
	"~/.local/share/mise", "~/.cache/gitstatus", "~/.cache/oh-my-zsh", "~/.cache/oh-my-posh",
	"~/.cache/zsh", "~/.cache/prezto", "~/.cache/antidote", "~/.aliases", "~/.functions",
	"~/.exports", "~/.extra", "~/.path", "~/.bash_prompt", "~/.bash_functions",
	"~/.bash_exports", "~/.lesskey", "~/.profile.d", "~/.zshrc.d", "~/.zsh.d", "~/.cache/pip",
	"~/.terraform.d/plugins", "~/.cache/pre-commit", "~/.cache/nvim", "~/.npm/_npx",
	/* pickles editors' Python tooling loads
					 * (round 8), drivers and hub code run */
	"~/.cache/jedi", "~/.cache/parso", "~/.cache/black", "~/.cache/pylint", "~/.cache/selenium",
	"~/.cache/torch", "~/.cache/huggingface/modules", "~/.bash", "~/.shell", "~/.env",
	"~/.dotfiles",
	/* The environments of tools installed into the home, linked from
	 * ~/.local/bin: pipx's (Debian's 1.1 keeps them in ~/.local/pipx),
	 * uv's tools and the Pythons it installs, poetry's installer, bun's
	 * global packages. A link's end is kept read-only beside ~/.local/bin,
	 * but that is the console script only: the module it imports runs as
	 * well (round 37a: one edited in pipx's venv ran at the next call
	 * outside). uv installs a tool's files as hard links to its cache's
	 * copies, and the next uv install outside links what is there (37d F1:
	 * a module written through the cache ran), as pip's cache is. */
	"~/.local/share/pipx", "~/.local/pipx", "~/.local/share/uv/tools",
	"~/.local/share/uv/python", "~/.cache/uv", "~/.local/share/pypoetry",
	"~/.bun/install/global",
	/* What Jupyter obeys in the user's data and the user site's config
	 * directories: a kernelspec named python3 there replaces the system's,
	 * and the next notebook starts its argv; notebook and lab extensions
	 * are code the browser's page runs with the server's kernels; config
	 * in etc/jupyter (.py) runs as the server starts (round 51b F3). Not
	 * ~/.local/share/jupyter whole: its runtime/ is hidden instead (round
	 * 60h H2), and a server the session runs keeps its connection files
	 * where JUPYTER_RUNTIME_DIR names (cmd-run.c). */
	"~/.local/share/jupyter/kernels", "~/.local/share/jupyter/nbextensions",
	"~/.local/share/jupyter/labextensions", "~/.local/etc/jupyter",
	/* What ~/.bashrc runs at every start, as installers write it, in trees
	 * of their own (round 51d F2): oh-my-bash's (sourced through "$OSH",
	 * which the dotfile reader cannot follow), fzf's, atuin's, ghcup's,
	 * opam's and elan's, and conda's bases and environments, whole: its
	 * hook runs Python, which imports a .pth from site-packages, and
	 * `conda activate` sources etc/conda/activate.d (a `conda install`
	 * inside a writable home fails then; a rule naming the base keeps it
	 * writable). Zed's data holds its extensions and the language servers
	 * it starts; pixi's and krew's environments are on PATH; Node's global
	 * fallbacks are require()d from anywhere. */
	"~/.oh-my-bash", "~/.fzf", "~/.atuin", "~/.ghcup", "~/.opam", "~/.elan", "~/miniconda3",
	"~/anaconda3", "~/miniforge3", "~/mambaforge", "~/micromamba", "~/.conda",
	"~/.local/share/mamba", "~/.local/share/zed", "~/.pixi", "~/.krew", "~/.dotnet/tools",
	"~/.node_modules", "~/.node_libraries", NULL};

/* What zsh and its prompt source at every start under names that carry
 * the host, zsh's version or the user (~/.zcompdump-HOST-5.9,
 * ~/.cache/p10k-instant-prompt-USER.zsh), and the files a ~/.zshrc or a
 * ~/.bashrc sources beside it (~/.p10k.zsh, ~/.fzf.bash, ~/.bashrc.local,
 * ~/.zshrc.local, ~/.gitconfig.local: a review had bash and zsh outside run
 * what a --project ~ session wrote there), and what programs read as
 * their rc (~/.direnvrc, sourced before every .envrc; ~/.exrc, vi's;
 * ~/.localrc); zsh reads FILE.zwc instead of FILE when it is newer. Matched against what is in
 * the home and in the cache directory when a rule makes that directory
 * writable (the directory is listed then only). */
static const struct {
	bool cache; /* in $XDG_CACHE_HOME and ~/.cache, else at the top of the home */
	const char *pattern;
} home_code_names[] = {
	{false, ".zcompdump*"}, {false, ".*.zwc"}, {false, ".*.zsh"},   {false, ".*.bash"},
	{false, ".*.sh"},       {false, ".*rc"},   {false, ".*.local"}, {true, "p10k-*"},
};

/* The directories fish loads code from in its user data directory, where
 * it also keeps its history: made (0700) when missing where fish has one. */
static const char *const fish_code[] = {"~/.local/share/fish/vendor_conf.d",
					"~/.local/share/fish/vendor_functions.d",
					"~/.local/share/fish/vendor_completions.d",
					"~/.local/share/fish/generated_completions", NULL};

/* The directories a login, the systemd user manager, the session bus or
 * the desktop run what is in (Debian's ~/.profile puts ~/.local/bin and
 * ~/bin on PATH). */
static const char *const home_run_dirs[] = {"~/.local/bin", "~/.local/share/systemd",
					    "~/.local/share/dbus-1", "~/.local/share/applications",
					    NULL};

/* The user-wide settings of coding agents and editors outside ~/.config
 * (resolve_guards). */
static const char *const agent_settings[] = {"~/.claude",
					     "~/.claude.json",
					     "~/.codex",
					     "~/.gemini",
					     "~/.cursor",
					     "~/.cursor-server",
					     "~/.continue",
					     "~/.codeium",
					     "~/.windsurf",
					     "~/.kiro",
					     "~/.qwen",
					     "~/.opencode",
					     "~/.aider.conf.yml",
					     "~/.vscode",
					     "~/.vscode-oss",
					     "~/.vscode-insiders",
					     "~/.vscode-server",
					     "~/.local/share/JetBrains",
					     NULL};

/* What unsandboxed programs later run or obey, relative to the project:
 * git's hooks and config (followed into worktrees, submodules and the
 * common dir, see shim/guard.c), direnv's .envrc, editors' and agents'
 * settings (tasks, hooks, language servers and MCP servers they start).
 * A trailing "/": while missing, an empty directory stands in for it as a
 * session runs (CORDON_GUARD_PLACEHOLDER); direnv finds no .envrc in a
 * directory, and git ignores an empty one. .mcp.json and .devcontainer.json
 * are files, but a directory stands in for them too: Claude Code 2.1 loads
 * no project MCP server from one (it says the file is "not a regular file"),
 * and the devcontainer CLI 0.89 finds no configuration in one. The agents'
 * directories that name programs to start (MCP servers, hooks, plugins,
 * language servers: Continue, Roo Code, Kiro, Amazon Q, Qwen Code,
 * opencode, Helix, and Codex's .codex, whose config.toml (hooks, notify,
 * mcp_servers) and hooks.json Codex obeys for a project the user trusted)
 * get a stand-in too (each costs a mkdir and a mount a launch, ~0.2 ms);
 * .windsurf holds rules and workflows (text for the model; Windsurf's MCP
 * servers are in ~/.codeium), and opencode.json(c) and .aider.conf.yml
 * are files their programs would fail to read as a directory: those three
 * have none, and one made inside is moved aside as the session ends (at
 * the top as it appears, on Linux). Nor have the hooks of GitHub's
 * Copilot CLI (.github/hooks/NAME.json, a sessionStart hook's command runs
 * as it starts) and Cline's (.clinerules/hooks, executables named for
 * events, TaskStart): a stand-in for either would make .github or
 * .clinerules in every project the session runs in, and .clinerules may
 * be a file (rules text); nor has Kilo Code's .kilocode (mcp.json, the
 * MCP servers it starts; kept whole, rules too); nor Copilot CLI's
 * language servers (.github/lsp.json, or lsp.json at the top: started
 * once the project is trusted, round 38c F4), MCP servers
 * (.github/mcp.json) and skills (.github/skills, and Codex's
 * .agents/skills: scripts the agent runs). Only these: the rest of .github (workflows
 * run on GitHub's machines, not here) and of .clinerules (rules and
 * workflows, text for the model, as Windsurf's) is the project's, for the
 * session to edit. So have rustup's rust-toolchain(.toml) (its `path`
 * names the programs every rustup proxy runs there: cargo --version, a
 * prompt's rustc --version, an editor's rust-analyzer), mise's config
 * files (trusted by path, they run hooks and scripts at each cd there),
 * and the version files of rbenv and its kin (nodenv, goenv, plenv,
 * jenv), whose "../../x" names the directory a prompt's ruby -v runs.
 * And (round 53d) what a harmless command started in the project runs:
 * irb's, pdb's, perl -d's and R's startup files there (.irbrc, .pdbrc,
 * .perldb, .Rprofile, the workspace .RData whose .First runs), yarn's rc
 * files (yarnPath: the release yarn --version runs; plugins) and the
 * releases, plugins and editor SDKs kept in .yarn, Maven's
 * .mvn/jvm.config and maven.config (a -javaagent mvn -v loads), cargo's
 * config (a build.rustc-wrapper cargo metadata runs, as rust-analyzer
 * does when an editor opens the folder), npm's (editor, init-module) and
 * ctags' options (an editor's ctags -R: -f names a file to make, the
 * user's ~/.bash_profile), and (round 54c F1) corepack's .corepack.env
 * beside the nearest package.json, whose COREPACK_HOME names where the
 * package manager yarn --version runs is "installed" (a planted install
 * is run unchecked), and whose other COREPACK_ settings lift its URL
 * and signature checks. Round 54f F3: pry's .pryrc (as irb's) and GNU
 * GLOBAL's gtags.conf (as ctags' options: its gtags_parser loads a
 * library at global -f, which editors run to outline a file). Round 59b:
 * Crush's crush.json and .crush.json (merged from the directory and every
 * one above; the MCP and language servers they name start with it, F2),
 * fnm's .nvmrc (a text that is no version is an alias path, the node a
 * shell's cd switches to, F4), aider's model settings files (F5). Round
 * 60e: more agents' project directories, kept whole (pi's .pi, whose
 * extensions/ it loads at its start, before it even asks for a key;
 * Factory's .factory, hooks and MCP servers; Augment's .augment, iFlow's
 * .iflow and Tabnine's .tabnine, hooks; Junie's .junie, MCP servers),
 * with no stand-in (one made inside is moved aside, as .windsurf);
 * Jujutsu's repository config (jj 0.37 and later copy a config.toml
 * with no config-id beside it into the user's trusted store; earlier jj
 * read it) and Sapling's .sl/config (hg's hooks and extensions). Not
 * .NET's global.json (its sdk.paths names the SDK dotnet runs there): in
 * the project it is the project's, as its .csproj is (whose targets run
 * at every build), and protected, a branch switch that changed it failed
 * inside (round 60i B1); it is looked for above (/tmp). */
const char *const cordon_default_protected[] = {".git/hooks",
						".git/config",
						".git/info",
						".envrc/",
						".vscode/",
						".idea/",
						".claude/",
						".mcp.json/",
						".cursor/",
						".gemini/",
						".zed/",
						".devcontainer/",
						".devcontainer.json/",
						".continue/",
						".roo/",
						".kiro/",
						".amazonq/",
						".qwen/",
						".opencode/",
						".helix/",
						".codex/",
						".windsurf",
						".github/hooks",
						".github/lsp.json",
						".github/mcp.json",
						".github/skills",
						"lsp.json",
						".agents/skills",
						".clinerules/hooks",
						".kilocode",
						"opencode.json",
						"opencode.jsonc",
						".aider.conf.yml",
						".aider.model.settings.yml",
						".aider.model.metadata.json",
						"crush.json",
						".crush.json",
						"rust-toolchain.toml",
						"rust-toolchain",
						".mise.toml",
						"mise.toml",
						".mise.local.toml",
						"mise.local.toml",
						".mise",
						".config/mise.toml",
						".config/mise.local.toml",
						".config/mise",
						"mise/config.toml",
						"mise/config.local.toml",
						".miserc.toml",
						".config/miserc.toml",
						".rtx.toml",
						".rtx.local.toml",
						".tool-versions",
						".ruby-version",
						".node-version",
						".nvmrc",
						".go-version",
						".perl-version",
						".java-version",
						".hg/hgrc",
						".hg/hgrc-not-shared",
						".hg/sharedpath",
						".git/lazygit.yml",
						".lazygit.yml",
						".exrc",
						".vimrc",
						".nvimrc",
						".nvim.lua",
						".lazy.lua",
						".irbrc",
						"irb.rc",
						"_irbrc",
						".pdbrc",
						".perldb",
						".Rprofile",
						".RData",
						".yarnrc.yml",
						".yarnrc",
						".yarn/releases",
						".yarn/plugins",
						".yarn/sdks",
						".mvn/jvm.config",
						".mvn/maven.config",
						".cargo/config.toml",
						".cargo/config",
						".npmrc",
						".ctags",
						".ctags.d",
						"ctags.d",
						".corepack.env",
						".pryrc",
						"gtags.conf",
						".pi",
						".factory",
						".augment",
						".iflow",
						".tabnine",
						".junie",
						".jj/repo/config.toml",
						".jj/repo/config-id",
						".sl/config",
						NULL};

/* What a program run in a directory looks for in each directory above it,
 * and obeys there without asking. A session wrote /tmp/.git with a
 * core.fsmonitor, and root's next git status in any directory of /tmp
 * ran it (session 29): git and Mercurial take the repository (git a
 * bare one too, a directory holding HEAD, objects/ and refs/: round 29
 * F1); cargo reads .cargo/config.toml from every directory above
 * (rustc-wrapper, runner) and builds the nearest Cargo.toml's package
 * (its build.rs), and rustup reads its toolchain file (`path`); rake,
 * just and Gradle take the nearest Rakefile, justfile or settings.gradle,
 * and Maven the nearest .mvn (jvm.config: round 29 F2); Node's require() looks in
 * every node_modules above; npm, yarn and pnpm take the nearest
 * package.json (or workspace file) as the project and read its .npmrc
 * (script-shell, node-options), .yarnrc(.yml) (yarnPath) and .pnpmfile.cjs,
 * and corepack its .corepack.env;
 * pytest takes the nearest ini as its rootdir and imports the conftest.py
 * there; bundler evaluates the nearest Gemfile (gems.rb); asdf and mise the
 * nearest .tool-versions (a `path:` version runs that directory's
 * programs), rbenv and the managers built like it (nodenv, goenv, plenv,
 * jenv) the nearest .ruby-version (.node-version, …: rbenv 1.1 takes
 * "../../x" for a version, round 37a F1), and mise its config (and .miserc.toml, which picks the config
 * environments it reads: round 32b G2); ESLint, Prettier and Babel (an
 * editor's, on a file opened there) load the nearest config, which runs
 * JavaScript or names a plugin or parser to load; pyenv takes the
 * nearest .python-version; pdb, perl -d, irb and R run their startup
 * files in the directory they start in (.pdbrc, .perldb, .irbrc and
 * irb's irb.rc, _irbrc, $irbrc, .Rprofile, .RData's .First: round 29b
 * F2, F3, 36 F3);
 * flake8 (its local plugins, imported even at --version), pylint
 * (init-hook), mypy (plugins) and RuboCop (require) the nearest config,
 * pry its .pryrc and GNU GLOBAL its gtags.conf (round 54f F2: a session
 * of an ordinary user left them in /tmp, and root's flake8 --version in a
 * directory below ran its code); Flask's command line its nearest
 * .flaskenv or .env (FLASK_APP, imported even at flask --help: round 54j
 * F2);
 * direnv's source_up sources the nearest .envrc; Jujutsu and Sapling the
 * nearest .jj and .sl, dotnet the nearest global.json (round 60e), and
 * MSBuild the nearest Directory.Build.props, .targets (imported into
 * every project below: an <Exec> runs at dotnet build) and .rsp (its
 * switches: a logger assembly loaded) (round 60f F3);
 * and vim (with 'exrc') runs these startup files in the directory it
 * starts in. Sorted by
 * strcmp (cordon_found_above_in looks each entry up). */
const char *const cordon_found_above[] = {"$irbrc",
					  ".RData",
					  ".Rprofile",
					  ".babelrc",
					  ".babelrc.cjs",
					  ".babelrc.js",
					  ".babelrc.json",
					  ".babelrc.mjs",
					  ".bundle",
					  ".cargo",
					  ".corepack.env",
					  ".crush.json",
					  ".env",
					  ".envrc",
					  ".eslintrc",
					  ".eslintrc.cjs",
					  ".eslintrc.js",
					  ".eslintrc.json",
					  ".eslintrc.yaml",
					  ".eslintrc.yml",
					  ".exrc",
					  ".flake8",
					  ".flaskenv",
					  ".git",
					  ".go-version",
					  ".hg",
					  ".irbrc",
					  ".java-version",
					  ".jj",
					  ".justfile",
					  ".lazy.lua",
					  ".mise",
					  ".mise.local.toml",
					  ".mise.toml",
					  ".miserc.toml",
					  ".mvn",
					  ".mypy.ini",
					  ".node-version",
					  ".npmrc",
					  ".nvim.lua",
					  ".nvimrc",
					  ".nvmrc",
					  ".pdbrc",
					  ".perl-version",
					  ".perldb",
					  ".pnpmfile.cjs",
					  ".prettierrc",
					  ".prettierrc.cjs",
					  ".prettierrc.js",
					  ".prettierrc.json",
					  ".prettierrc.json5",
					  ".prettierrc.mjs",
					  ".prettierrc.toml",
					  ".prettierrc.ts",
					  ".prettierrc.yaml",
					  ".prettierrc.yml",
					  ".pryrc",
					  ".pylintrc",
					  ".pytest.ini",
					  ".python-version",
					  ".rtx.local.toml",
					  ".rtx.toml",
					  ".rubocop.yml",
					  ".ruby-version",
					  ".sl",
					  ".tool-versions",
					  ".vimrc",
					  ".yarnrc",
					  ".yarnrc.yml",
					  "Cargo.toml",
					  "Directory.Build.props",
					  "Directory.Build.rsp",
					  "Directory.Build.targets",
					  "Gemfile",
					  "HEAD",
					  "Justfile",
					  "Rakefile",
					  "Rakefile.rb",
					  "_exrc",
					  "_irbrc",
					  "_vimrc",
					  "conftest.py",
					  "crush.json",
					  "eslint.config.cjs",
					  "eslint.config.cts",
					  "eslint.config.js",
					  "eslint.config.mjs",
					  "eslint.config.mts",
					  "eslint.config.ts",
					  "gems.rb",
					  "global.json",
					  "gtags.conf",
					  "irb.rc",
					  "justfile",
					  "mise.local.toml",
					  "mise.toml",
					  "mypy.ini",
					  "node_modules",
					  "package.json",
					  "pnpm-workspace.yaml",
					  "prettier.config.cjs",
					  "prettier.config.js",
					  "prettier.config.mjs",
					  "prettier.config.ts",
					  "pylintrc",
					  "pyproject.toml",
					  "pytest.ini",
					  "rakefile",
					  "rakefile.rb",
					  "rust-toolchain",
					  "rust-toolchain.toml",
					  "settings.gradle",
					  "settings.gradle.kts",
					  "setup.cfg",
					  "tox.ini",
					  NULL};

static int by_name(const void *a, const void *b)
{
	return strcmp(a, *(const char *const *)b);
}

ssize_t cordon_found_above_index(const char *name)
{
	size_t n = 0;
	while (cordon_found_above[n])
		n++;
	const char *const *at =
		bsearch(name, cordon_found_above, n, sizeof(*cordon_found_above), by_name);
	return at ? at - cordon_found_above : -1;
}

int cordon_found_above_in(const char *dir, cordon_above_set *present)
{
	memset(present, 0, sizeof(*present));
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	for (struct dirent *e; (e = readdir(d));) {
		ssize_t k = cordon_found_above_index(e->d_name);
		if (k >= 0)
			cordon_above_add(present, (size_t)k);
	}
	closedir(d);
	return 0;
}

bool cordon_found_above_inert(const char *name, mode_t mode)
{
	return S_ISDIR(mode) && strcmp(name, ".envrc") == 0;
}

int cordon_found_above_each(const char *dir, const cordon_above_set *among,
			    int (*each)(const char *path, size_t k, void *arg), void *arg)
{
	cordon_above_set present;
	bool listed = cordon_found_above_in(dir, &present) == 0;
	char path[PATH_MAX];
	size_t dn = strlen(dir);
	if (dn + 2 + NAME_MAX >= sizeof(path))
		return 0;
	memcpy(path, dir, dn + 1);
	path[dn] = '/';
	int sum = 0;
	for (size_t k = 0; cordon_found_above[k]; k++)
		if (cordon_above_has(among, k) && (!listed || cordon_above_has(&present, k))) {
			memcpy(path + dn + 1, cordon_found_above[k],
			       strlen(cordon_found_above[k]) + 1);
			sum += each(path, k, arg);
		}
	return sum;
}

/* Credentials a session has no business reading, though their parent is
 * readable (the default ~/.config) or a user grants "~". */
const char *const cordon_default_hidden[] = {
	"~/.ssh", "~/.gnupg", "~/.aws", "~/.azure", "~/.kube", "~/.docker", "~/.netrc",
	"~/.git-credentials", "~/.npmrc", "~/.pypirc", "~/.cargo/credentials.toml",
	"~/.cargo/credentials", "~/.config/gh", "~/.config/gcloud", "~/.config/hub",
	"~/.config/git/credentials", "~/.config/op", "~/.config/rclone", "~/.config/doctl",
	"~/.config/containers/auth.json", "~/.local/share/keyrings", "~/.password-store",
	"~/.vault-token", "~/.pgpass", "~/.my.cnf", "~/.terraform.d/credentials.tfrc.json",
	"~/.gem/credentials", "~/.oci", "~/.mozilla", "~/.config/google-chrome",
	"~/.config/chromium", "~/.config/BraveSoftware", "~/.thunderbird",
	"~/.config/github-copilot", "~/.claude/.credentials.json", "~/.codex/auth.json",
	"~/.gemini/oauth_creds.json", "~/.config/Slack", "~/.config/discord", "~/.config/Signal",
	"~/.config/Element", "~/.config/1Password", "~/.config/Bitwarden",
	"~/.config/Bitwarden CLI", "~/.config/hcloud", "~/.config/configstore",
	"~/.config/glab-cli", "~/.config/composer/auth.json", "~/.composer/auth.json",
	"~/.config/sops", "~/.config/ngrok", "~/.config/stripe", "~/.fly",
	"~/.pulumi/credentials.json", "~/.wrangler", "~/.config/.wrangler", "~/.databrickscfg",
	"~/.kaggle", "~/.config/netlify", "~/.local/share/com.vercel.cli",
	"~/.config/io.datasette.llm", "~/.cache/huggingface/token", "~/.huggingface",
	"~/.config/openstack", "~/.config/linode-cli", "~/.config/scaleway",
	"~/.config/helm/registry", "~/.qwen/oauth_creds.json", "~/.local/share/opencode/auth.json",
	/* Round 8: registries' and tools' tokens
					      * under the default ~/.config grant, */
	"~/.config/pypoetry/auth.toml", "~/.config/argocd", "~/.config/tea",
	"~/.config/goose/secrets.yaml", "~/.config/Code/User/globalStorage",
	"~/.config/VSCodium/User/globalStorage", "~/.config/Cursor/User/globalStorage",
	"~/.config/JetBrains", "~/.config/microsoft-edge", "~/.config/vivaldi", "~/.config/opera",
	"~/.config/aerc/accounts.conf", "~/.config/solana",
	/* and in the home, read where a rule grants ~. (Not the package
	 * managers' configs that also say where packages come from: pip.conf,
	 * NuGet.Config, Maven's settings.xml, .yarnrc.yml: hidden, the tool
	 * goes to the public registry instead, where a private package's name
	 * may be someone else's: round 9.) */

	"~/.m2/settings-security.xml", "~/.sbt/.credentials", "~/.sbt/credentials",
	"~/.ivy2/.credentials", "~/.local/share/gem/credentials", "~/.local/share/uv/credentials",
	"~/.terraformrc", "~/.s3cfg", "~/.boto", "~/.aliyun", "~/.bluemix", "~/.tccli",
	"~/.minikube", "~/.talos", "~/.tsh", "~/.cloudflared", "~/.railway",
	"~/.supabase/access-token", "~/.sentryclirc", "~/.circleci/cli.yml", "~/.mylogin.cnf",
	"~/.pg_service.conf", "~/.dbt/profiles.yml", "~/.snowflake", "~/.snowsql/config",
	"~/.cassandra/cqlshrc", "~/.gemini/.env", "~/.cursor/mcp.json", "~/.codeium/config.json",
	"~/.continue/config.yaml", "~/.continue/config.json", "~/.aider.conf.yml",
	"~/.local/share/amazon-q", "~/.ollama/id_ed25519", "~/snap/firefox/common/.mozilla",
	"~/snap/chromium/common/chromium", "~/.var/app/org.mozilla.firefox/.mozilla",
	"~/.var/app/com.google.Chrome", "~/.var/app/org.chromium.Chromium", "~/.pki/nssdb",
	"~/.local/share/kwalletd", "~/.authinfo", "~/.msmtprc", "~/.mbsyncrc",
	"~/.ethereum/keystore",
	"~/.local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json",
	/* Round 10: where xdg-ninja moves the stores above (DOCKER_CONFIG=
	 * ~/.config/docker...; their variables are followed too, shim/homes.c),
	 * every VS Code fork's extension secrets, the browsers' other
	 * channels, and tokens and keys under the default ~/.config grant. */
	"~/.config/*/User/globalStorage", "~/.config/docker", "~/.config/kube", "~/.config/aws",
	"~/.config/azure", "~/.config/npm/npmrc", "~/.config/pg/pgpass", "~/.config/gnupg",
	"~/.local/share/gnupg", "~/.local/share/pass", "~/.local/share/password-store",
	"~/.local/share/cargo/credentials.toml", "~/.config/nix/nix.conf",
	"~/.config/helm/repositories.yaml", "~/.config/cachix/cachix.dhall", "~/.config/borg/keys",
	"~/.config/msmtp", "~/.config/isyncrc", "~/.config/mutt/muttrc",
	"~/.config/Claude/claude_desktop_config.json", "~/.config/filezilla",
	"~/.config/google-chrome-beta", "~/.config/google-chrome-unstable",
	"~/.config/microsoft-edge-beta", "~/.config/microsoft-edge-dev", "~/.config/syncthing",
	"~/.local/state/syncthing", "~/.config/weechat/sec.conf", "~/.config/hexchat/servlist.conf",
	"~/.config/remmina", "~/.local/share/remmina", "~/.config/exercism/user.json",
	"~/.config/hut/config", "~/.config/Mattermost", "~/.config/teams-for-linux",
	"~/.config/Postman", "~/.config/gopass", "~/.local/share/gopass",
	"~/.config/chezmoi/chezmoi.toml",
	/* with "~" read: Claude Code's account and its MCP servers' tokens,
	 * more tools' logins, atuin's sync key, more browsers' profiles */
	"~/.claude.json", "~/.wakatime.cfg", "~/.jfrog", "~/.doppler", "~/.local/share/atuin/key",
	"~/.zen", "~/.librewolf", "~/.var/app/*/.mozilla", "~/.var/app/*/.thunderbird",
	"~/snap/thunderbird/common/.thunderbird",
	/* Round 51b F4: AI command lines' API keys under the default
	 * ~/.config grant (aichat's config.yaml, shell_gpt's .sgptrc,
	 * fabric's .env, mods', gptme's), git's cookie file (Google's
	 * hosts), Subversion's saved logins, MinIO's client keys and the
	 * home's .env (aider, and many a script, read it). What the git and
	 * ssh config name besides, and a copy beside each of these, are
	 * hidden too (shim/secret-names.c). */
	"~/.config/aichat", "~/.config/shell_gpt", "~/.config/fabric/.env",
	"~/.config/mods/mods.yml", "~/.config/gptme/config.toml", "~/.gitcookies",
	"~/.subversion/auth", "~/.mc/config.json", "~/.env",
	/* Round 51d F4: pnpm's global rc (its registries' _authToken) and
	 * neomutt's (imap_pass, as mutt's above), under the default
	 * ~/.config grant; crush's provider keys, Windsurf's MCP servers'
	 * tokens, Continue's secrets, python-gitlab's private_token,
	 * fetchmail's and mutt's passwords, in the home. */
	"~/.config/pnpm/rc", "~/.config/neomutt/neomuttrc", "~/.config/crush/crush.json",
	"~/.local/share/crush/crush.json", "~/.codeium/windsurf/mcp_config.json",
	"~/.continue/.env", "~/.python-gitlab.cfg", "~/.config/python-gitlab.cfg", "~/.fetchmailrc",
	"~/.muttrc", "~/.mutt/muttrc", "~/.neomuttrc",
	/* Round 53c F2: Git Credential Manager's stores (plaintext, and the
	 * GPG one's pass store). */
	"~/.gcm",
	/* Round 54d: more tools' tokens and keys under the default ~/.config
	 * grant (F1: LXD's and Incus' client keys, HTTPie's sessions,
	 * pgcli's DSNs and history, Google's and OneDrive's tokens, …, and
	 * what Electron apps keep of their sessions, whichever the app); the
	 * copies editors and clipboard managers keep of files they opened
	 * (F2: VS Code's Local History and its forks', hot-exit backups,
	 * chat transcripts, Sublime's session, CopyQ's history, Neovim's
	 * swap, undo and registers, the Trash); home-level logins read where
	 * a rule grants ~ (F5); and the histories where passwords are typed,
	 * zsh's under a ZDOTDIR of ~/.config/zsh among them (F6). Not the
	 * package managers' configs that also say where packages come from
	 * (pdm's, cabal's, go env: round 9), nor a VCS's own config (hg's
	 * hgrc, as ~/.gitconfig). */
	"~/.config/lxc", "~/.config/incus", "~/.config/breezy/authentication.conf",
	"~/.config/httpie/sessions", "~/.config/pgcli", "~/.config/dart/pub-tokens.json",
	"~/.config/coursier/credentials.properties", "~/.config/binstar", "~/.config/earthengine",
	"~/.config/gspread", "~/.config/onedrive", "~/.config/gdrive3", "~/.config/toot",
	"~/.config/praw.ini", "~/.config/lab", "~/.config/vdirsyncer", "~/.config/kopia",
	"~/.config/Lens", "~/.config/Insomnia", "~/.config/curlrc", "~/.config/attic",
	"~/.config/getmail", "~/.config/libvirt/auth.conf", "~/.config/kaggle", "~/.config/neonctl",
	"~/.config/vastai", "~/.config/obs-studio", "~/.config/espanso", "~/.config/thorium",
	"~/.config/yandex-browser", "~/.config/falkon", "~/.config/vesktop", "~/.config/Ferdium",
	"~/.config/Notion", "~/.config/*/Cookies", "~/.config/*/Local Storage",
	"~/.config/*/Partitions", "~/.config/*/User/History", "~/.config/*/Backups",
	"~/.config/*/User/workspaceStorage", "~/.config/sublime-text/Local", "~/.config/copyq",
	"~/.local/state/nvim/swap", "~/.local/state/nvim/undo", "~/.local/state/nvim/shada",
	"~/.local/share/nvim/swap", "~/.local/share/Trash", "~/.op", "~/.ngrok2", "~/.netlify",
	"~/.now", "~/.vercel", "~/.cache/huggingface/stored_tokens",
	"~/.local/share/python_keyring", "~/.local/share/atuin/session",
	"~/.vscode-server/data/User/globalStorage", "~/.cursor-server/data/User/globalStorage",
	"~/.Renviron", "~/.modal.toml", "~/.rye/credentials", "~/.stack/upload/credentials.json",
	"~/.cf/config.json", "~/.rancher/cli2.json", "~/.dogrc", "~/.smbcredentials",
	"~/.davfs2/secrets", "~/.offlineimaprc", "~/.curlrc", "~/.wgetrc", "~/.irssi/config",
	"~/.vagrant.d/data/vagrant_login_token", "~/.copilot/config.json", "~/.ovh.conf",
	"~/.vultr-cli.yaml", "~/.travis/config.yml", "~/.newrelic/credentials.json",
	"~/.local/share/amp/secrets.json", "~/.twilio-cli/config.json",
	"~/.sbt/1.0/credentials.sbt", "~/.local/share/TelegramDesktop/tdata",
	"~/.local/share/qutebrowser", "~/.local/share/epiphany/cookies.sqlite",
	"~/.config/zsh/.zsh_history", "~/.config/fish/fish_history", "~/.psql_history",
	"~/.mysql_history", "~/.rediscli_history", "~/.mongosh/mongosh_repl_history", "~/.dbshell",
	/* Round 54g: editors' backups and autosaves under ~/.config (micro,
	 * Emacs, Doom), code-server's login (its terminal runs outside), more
	 * tools' keys and logins (Jupyter's runtime directory came later,
	 * round 60h: a session's own Jupyter is given one of its own), a Chromium
	 * profile's and an Electron app's other stores whichever the app,
	 * more histories, and CI runners' keys in the home. */
	"~/.config/micro/backups", "~/.config/emacs/backups", "~/.config/emacs/auto-save-list",
	"~/.config/emacs/.local/cache/autosave", "~/.emacs.d/.local/cache/autosave",
	"~/.config/code-server/config.yaml", "~/.config/pinniped", "~/.config/OpenLens",
	"~/.config/Freelens", "~/.config/kdeconnect", "~/.config/gsconnect",
	"~/.config/chezmoi/key.txt", "~/.config/usql", "~/.config/lazysql", "~/.config/gobang",
	"~/.config/mycli", "~/.myclirc", "~/.config/MongoDB Compass", "~/.config/beekeeper-studio",
	"~/.config/Insomnium", "~/.config/Duplicati", "~/.config/joplin-desktop",
	"~/.config/himalaya", "~/.config/meli", "~/.config/offlineimap", "~/.config/halloy",
	"~/.config/senpai", "~/.config/exoscale", "~/.config/gandi", "~/.config/planetscale",
	"~/.config/turso", "~/.config/*/Default", "~/.config/*/IndexedDB",
	"~/.config/*/Session Storage", "~/.config/*/Network", "~/.config/nushell/history.txt",
	"~/.config/nushell/history.sqlite3", "~/.config/zsh/.zhistory",
	"~/.local/state/zsh/history", "~/.local/state/bash/history", "~/.local/share/mcfly",
	"~/.local/share/powershell/PSReadLine", "~/.local/share/hishtory",
	"~/actions-runner/.credentials", "~/actions-runner/.credentials_rsaparams",
	"~/.gitlab-runner", "~/.buildkite-agent", "~/.azd", "~/.IdentityService", "~/.Azure",
	"~/.android/adbkey", "~/.local/share/pki/nssdb", "~/.duckdb/stored_secrets", "~/.passage",
	"~/.cache/JetBrains/*/LocalHistory", "~/.local/share/tmux/resurrect", "~/.tmux/resurrect",
	"~/.cache/thumbnails",
	/* (Round 60h: local servers' tokens, with which a session drives
	 * them over loopback: Jupyter's runtime files, VS Code Server's;
	 * editors' and agents' MCP configs with tokens in env; more tools'
	 * credentials; editors' swap, backup and undo copies of what they
	 * open, a hidden file among them; database clients' histories.) */
	"~/.local/share/jupyter/runtime", "~/.vscode-server/.*.token",
	"~/.vscode-server-insiders/.*.token", "~/.cursor-server/.*.token",
	"~/.windsurf-server/.*.token", "~/.config/*/User/mcp.json", "~/.config/zed/settings.json",
	"~/.config/goose/config.yaml", "~/.gemini/mcp-oauth-tokens.json",
	"~/.codex/.credentials.json", "~/.config/dart/pub-credentials.json",
	"~/.config/xh/sessions", "~/.config/legendary/user.json",
	"~/.config/twitch-cli/.twitch-cli.env", "~/.config/weechat/irc.conf", "~/.weechat/irc.conf",
	"~/.vim/swap", "~/.vim/backup", "~/.vim/undo", "~/.viminfo", "~/.emacs.d/backups",
	"~/.emacs.d/auto-save-list", "~/.local/share/nvim/shada", "~/.local/share/nvim/undo",
	"~/.local/share/nvim/backup", "~/.duckdb_history", "~/.mycli-history",
	"~/.clickhouse-client-history", "~/.sqlite_history",
	"~/.mongodb/mongosh/mongosh_repl_history", "~/.passwd-s3fs", "~/.ansible/galaxy_token",
	"~/.expo/state.json", "~/.mailrc", "~/.pub-cache/credentials.json", "~/.cache/rbw",
	/* Round 61a: tools' configs that hold a secret beside what the tool
	 * needs inside (cargo's registry tokens, hatch's and pdm's publish
	 * passwords, go env's GOPROXY with a password): where one holds a
	 * secret, the session reads a copy without it (shim/redact.c); where
	 * none, the file as it is. fish's history where fish 2.3 and later
	 * keep it (and a named session's, fish_history=NAME). */
	"~/.cargo/config.toml", "~/.cargo/config", "~/.config/hatch/config.toml",
	"~/.config/pdm/config.toml", "~/.config/go/env", "~/.local/share/fish/*_history",
	/* The system's secrets under the default /etc grant: a root session's
	 * capabilities read any file there (an ordinary user's cannot, and
	 * these cost it a cover each only where they exist). Password hashes,
	 * host and service keys, network and VPN secrets. */
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/security/opasswd",
	"/etc/ssh/ssh_host_*_key", "/etc/ssl/private", "/etc/pki/tls/private", "/etc/krb5.keytab",
	"/etc/NetworkManager/system-connections", "/etc/wireguard", "/etc/letsencrypt/archive",
	"/etc/letsencrypt/keys", "/etc/ipsec.secrets", "/etc/ipsec.d/private",
	"/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets", "/etc/mysql/debian.cnf", "/etc/openvpn",
	"/etc/dropbear", "/etc/credstore", "/etc/credstore.encrypted",
	/* (round 42b F3) */
	"/etc/ssh/ssh_host_key", "/etc/apt/auth.conf", "/etc/apt/auth.conf.d",
	"/etc/letsencrypt/accounts", "/etc/netplan", "/etc/wpa_supplicant", "/etc/sssd",
	"/etc/postfix/sasl_passwd", "/etc/rndc.key", "/etc/bind/rndc.key",
	"/etc/kubernetes/admin.conf", "/etc/kubernetes/pki", "/etc/cryptsetup-keys.d", NULL};

static const char *const linux_defaults[CORDON_CLASS_COUNT][24] = {
	[CORDON_CLASS_EXEC] = {"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64", "/usr/libexec",
			       "/usr/local/bin", "/usr/local/sbin", "/usr/local/lib", "/lib",
			       "/lib64", "/bin", "/sbin", NULL},
	[CORDON_CLASS_RO] = {"/etc", "/usr/etc", "/usr/share", "/usr/include", "/usr/lib/locale",
			     NULL},
	[CORDON_CLASS_RW] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
			     "/dev/tty", "/dev/ptmx", "/dev/shm", "/dev/fd", "/tmp", "/var/tmp",
			     "/run/user/%u", NULL},
};

static const char *const macos_defaults[CORDON_CLASS_COUNT][24] = {
	[CORDON_CLASS_EXEC] = {"/bin", "/usr/bin", "/usr/sbin", "/sbin", "/usr/lib", "/usr/libexec",
			       "/System/Library/dyld", "/System/Cryptexes",
			       "/Library/Developer/CommandLineTools/usr/bin",
			       "/Library/Developer/CommandLineTools/usr/lib",
			       "/Library/Apple/usr/bin", "/opt/homebrew/bin", "/opt/homebrew/sbin",
			       "/opt/homebrew/Cellar", "/opt/homebrew/lib", "/usr/local/bin",
			       "/usr/local/lib", NULL},
	[CORDON_CLASS_RO] = {"/private/etc", "/usr/share", "/System/Library/Keychains",
			     "/Library/Developer/CommandLineTools/SDKs",
			     "/Library/Preferences/SystemConfiguration", "/opt/homebrew/share",
			     "/opt/homebrew/etc", "/usr/local/share", "/usr/local/etc", NULL},
	[CORDON_CLASS_RW] = {"/dev", "/private/tmp", "/var/folders",
			     "/private/var/run/mDNSResponder", NULL},
};

int cordon_default_paths(enum cordon_os os, enum cordon_class c, uid_t uid, struct cordon_strv *out)
{
	if (c >= CORDON_CLASS_COUNT)
		return -EINVAL;
	const char *const *list = os == CORDON_OS_MACOS ? macos_defaults[c] : linux_defaults[c];
	for (size_t i = 0; list[i]; i++) {
		char *s;
		if (strcmp(list[i], "/run/user/%u") == 0) {
			if (asprintf(&s, "/run/user/%u", (unsigned)uid) < 0)
				return -ENOMEM;
		} else {
			s = strdup(list[i]);
		}
		int r = cordon_strv_push_take(out, s);
		if (r < 0)
			return r;
	}
	return 0;
}

void cordon_session_ttys(char *out[4])
{
	size_t n = 0;
	for (int fd = 0; fd <= 2; fd++) {
		char name[64];
		if (ttyname_r(fd, name, sizeof(name)) != 0 || strncmp(name, "/dev/pts/", 9) != 0)
			continue;
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = strcmp(out[i], name) == 0;
		if (!seen && (out[n] = strdup(name)))
			n++;
	}
	out[n] = NULL;
}

int cordon_session_id(char out[CORDON_SESSION_ID_LEN + 1])
{
	unsigned char b[CORDON_SESSION_ID_LEN / 2];
	if (getentropy(b, sizeof(b)) < 0) /* glibc 2.25+, macOS 10.12+ */
		return errno ? -errno : -EIO;
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* The rules on PATH from SOURCE, taken out. */
static void drop_rules(struct cordon_policy *p, const char *path, const char *source)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n_rules; i++) {
		struct cordon_rule *r = &p->rules[i];
		if (strcmp(r->path, path) == 0 && strcmp(r->source, source) == 0) {
			free(r->path);
			free(r->source);
			free(r->written);
			continue;
		}
		p->rules[k++] = *r;
	}
	p->n_rules = k;
}

/* Read-write grants execute too: what a session may write it could run
 * anyway (through an interpreter, or by copying it into the project, which
 * is executable), so refusing execute on /tmp only broke `gcc -o /tmp/a.out`,
 * `go run` and `go test`, and protected nothing. */
static const unsigned class_access[CORDON_CLASS_COUNT] = {
	[CORDON_CLASS_EXEC] = CORDON_ACCESS_READ | CORDON_ACCESS_EXEC,
	[CORDON_CLASS_RO] = CORDON_ACCESS_READ,
	[CORDON_CLASS_RW] = CORDON_ACCESS_ALL,
};

static void guard_free(struct cordon_guard *g)
{
	free(g->path);
	free(g->source);
	free(g->by);
}

/* RULE, added after the hidden paths were planned, may reach one they
 * left unguarded as unreachable (a cordon learn proposal for the tool's
 * tree, ~/.local/share/uv, with uv's credentials missing at start: a login
 * outside made them and the session read them, round 9): guard it now. */
static int reach_late(struct cordon_policy *p, const struct cordon_rule *rule)
{
	size_t kept = 0;
	int r = 0;
	for (size_t i = 0; i < p->n_unreached; i++) {
		struct cordon_guard *g = &p->unreached[i];
		if (r == 0 && (cordon_path_under(g->by, rule->path) ||
			       cordon_path_under(rule->path, g->path))) {
			r = cordon_policy_add_guard(p, g->path, CORDON_GUARD_HIDE, g->source);
			if (r == 0) {
				guard_free(g);
				continue;
			}
		}
		p->unreached[kept++] = *g;
	}
	p->n_unreached = kept;
	return r;
}

/* Rule PATH (canonical) as it was written, TEXT (NULL: PATH itself), and
 * RAW (NULL: TEXT), where the policy keeps them (cordon_policy.written). */
static int add_written(struct cordon_policy *p, const char *path, const char *text, const char *raw,
		       unsigned access, const char *source)
{
	struct cordon_rule *nw =
		cordon_grow(p->written, &p->written_cap, p->n_written + 1, sizeof(*nw), 32);
	if (!nw)
		return -ENOMEM;
	p->written = nw;
	if (cordon_strv_push(&p->written_raw, raw ? raw : text ? text : path) < 0)
		return -ENOMEM;
	struct cordon_rule *w = &p->written[p->n_written];
	*w = (struct cordon_rule){
		.path = strdup(text ? text : path), .source = strdup(source), .access = access};
	if (!w->path || !w->source) {
		free(w->path);
		free(w->source);
		free(p->written_raw.v[--p->written_raw.n]);
		p->written_raw.v[p->written_raw.n] = NULL;
		return -ENOMEM;
	}
	p->n_written++;
	return 0;
}

static int add_rule_merged(struct cordon_policy *p, const char *path, unsigned access,
			   const char *source);

int cordon_policy_add_rule(struct cordon_policy *p, const char *path, unsigned access,
			   const char *source)
{
	int r = add_written(p, path, NULL, NULL, access, source);
	return r < 0 ? r : add_rule_merged(p, path, access, source);
}

static int add_rule_merged(struct cordon_policy *p, const char *path, unsigned access,
			   const char *source)
{
	/* A path already ruled: one rule with the union (explain listed /usr/bin
	 * twice, once as itself and once through /bin). Its source is the rule
	 * that grants the most, the first of equals. */
	for (size_t i = 0; i < p->n_rules; i++) {
		struct cordon_rule *old = &p->rules[i];
		if (strcmp(old->path, path) != 0)
			continue;
		if ((access & ~old->access) && !(old->access & ~access)) {
			char *s = strdup(source);
			if (!s)
				return -ENOMEM;
			free(old->source);
			old->source = s;
		}
		if (access & ~old->access)
			old->prepared = false; /* a prepared ruleset lacks the new rights */
		old->access |= access;
		/* Another grant: sockets too (not the project's: a shared
		 * directory named as the project stays shared, 43a F2). */
		if (old->shared && (access & CORDON_ACCESS_WRITE) &&
		    strcmp(source, "project") != 0) {
			old->shared = false;
			old->prepared = false;
		}
		return 0;
	}
	struct cordon_rule *nr =
		cordon_grow(p->rules, &p->rules_cap, p->n_rules + 1, sizeof(*nr), 32);
	if (!nr)
		return -ENOMEM;
	p->rules = nr;
	struct cordon_rule *r = &p->rules[p->n_rules];
	r->path = strdup(path);
	r->source = strdup(source);
	r->access = access;
	r->prepared = false;
	r->shared = false;
	r->nofollow = false;
	r->written = NULL;
	if (!r->path || !r->source) {
		free(r->path);
		free(r->source);
		return -ENOMEM;
	}
	p->n_rules++;
	return reach_late(p, r);
}

int cordon_policy_add_socket(struct cordon_policy *p, const char *path, const char *source)
{
	struct cordon_socket *ns =
		cordon_grow(p->sockets, &p->sockets_cap, p->n_sockets + 1, sizeof(*ns), 4);
	if (!ns)
		return -ENOMEM;
	p->sockets = ns;
	struct cordon_socket *s = &p->sockets[p->n_sockets];
	s->path = strdup(path);
	s->source = strdup(source);
	if (!s->path || !s->source) {
		free(s->path);
		free(s->source);
		return -ENOMEM;
	}
	p->n_sockets++;
	return 0;
}

static size_t path_hash(const char *s)
{
	size_t h = 14695981039346656037ULL & SIZE_MAX;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (1099511628211ULL & SIZE_MAX);
	return h;
}

/* The slot of PATH in P's guard index: the guard's (slot value != 0) or
 * the free one where it would go. */
static size_t *guard_slot(const struct cordon_policy *p, const char *path)
{
	size_t mask = p->n_guard_slots - 1;
	for (size_t i = path_hash(path) & mask;; i = (i + 1) & mask) {
		size_t *slot = &p->guard_slots[i];
		if (!*slot || strcmp(p->guards[*slot - 1].path, path) == 0)
			return slot;
	}
}

/* Room in the index for one more (kept at most half full). */
static int guard_index_grow(struct cordon_policy *p)
{
	if (2 * (p->n_guards + 1) <= p->n_guard_slots)
		return 0;
	size_t n = p->n_guard_slots ? 2 * p->n_guard_slots : 256;
	size_t *slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	free(p->guard_slots);
	p->guard_slots = slots;
	p->n_guard_slots = n;
	for (size_t i = 0; i < p->n_guards; i++)
		*guard_slot(p, p->guards[i].path) = i + 1;
	return 0;
}

int cordon_policy_add_guard(struct cordon_policy *p, const char *path, unsigned kind,
			    const char *source)
{
	/* (A few hundred guards, each added once or more: the index keeps
	 * this from comparing each with all before it.) */
	if (guard_index_grow(p) < 0)
		return -ENOMEM;
	size_t *slot = guard_slot(p, path);
	if (*slot) {
		struct cordon_guard *g = &p->guards[*slot - 1];
		/* Hidden wins over protected (.envrc, ~/.claude.json listed in
		 * hidden_paths too): hidden is read-only as well, and more. */
		if (kind == CORDON_GUARD_HIDE && g->kind != CORDON_GUARD_HIDE) {
			char *s = strdup(source);
			if (!s)
				return -ENOMEM;
			free(g->source);
			g->source = s;
			g->protected_too = g->kind;
			g->kind = CORDON_GUARD_HIDE;
		} else if (kind != CORDON_GUARD_HIDE && g->kind == CORDON_GUARD_HIDE) {
			g->protected_too |= kind;
		}
		return 0;
	}
	struct cordon_guard *ng =
		cordon_grow(p->guards, &p->guards_cap, p->n_guards + 1, sizeof(*ng), 16);
	if (!ng)
		return -ENOMEM;
	p->guards = ng;
	struct cordon_guard *g = &p->guards[p->n_guards];
	*g = (struct cordon_guard){.path = strdup(path), .kind = kind, .source = strdup(source)};
	if (!g->path || !g->source) {
		guard_free(g);
		return -ENOMEM;
	}
	*slot = ++p->n_guards;
	return 0;
}

void cordon_policy_drop_guards(struct cordon_policy *p, const struct cordon_strv *paths)
{
	size_t kept = 0;
	for (size_t i = 0; i < p->n_guards; i++) {
		struct cordon_guard *g = &p->guards[i];
		cleanup_free char *canon = realpath(g->path, NULL);
		if (cordon_strv_contains(paths, g->path) ||
		    (canon && cordon_strv_contains(paths, canon))) {
			guard_free(g);
			continue;
		}
		p->guards[kept++] = *g;
	}
	p->n_guards = kept;
	/* (The index is made again at the next add.) */
	free(p->guard_slots);
	p->guard_slots = NULL;
	p->n_guard_slots = 0;
}

const struct cordon_guard *cordon_policy_guard(const struct cordon_policy *p, const char *path)
{
	if (p->n_guard_slots) {
		size_t i = *guard_slot(p, path);
		return i ? &p->guards[i - 1] : NULL;
	}
	for (size_t i = 0; i < p->n_guards; i++)
		if (strcmp(p->guards[i].path, path) == 0)
			return &p->guards[i];
	return NULL;
}

const struct cordon_guard *cordon_policy_hidden(const struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_guards; i++) {
		const struct cordon_guard *g = &p->guards[i];
		if (g->kind == CORDON_GUARD_HIDE && cordon_path_under(path, g->path))
			return g;
	}
	for (size_t i = 0; i < p->n_exposed; i++)
		if (cordon_path_under(path, p->exposed[i].path))
			return &p->exposed[i];
	/* A pattern's match made since (the sieve keeps it from every
	 * rule): what learn and explain see denied is no less a store. */
	static _Thread_local struct cordon_guard as_glob;
	static _Thread_local char match[PATH_MAX];
	static char label[] = "hidden_paths";
	for (size_t i = 0; i < p->hidden_globs.n; i++) {
		const char *glob = p->hidden_globs.v[i];
		enum cordon_glob_meet m = cordon_glob_meet(glob, path);
		if (m != CORDON_GLOB_AT && m != CORDON_GLOB_BELOW)
			continue;
		/* (The match itself, PATH's first parts: naming it in a rule
		 * exposes it, as a fixed entry.) */
		size_t parts = 0, end = 0;
		for (const char *c = glob; *c; c++)
			parts += *c == '/' && c[1] && c[1] != '/';
		while (path[end] && parts) {
			end += strspn(path + end, "/");
			end += strcspn(path + end, "/");
			parts--;
		}
		snprintf(match, sizeof(match), "%.*s", (int)end, path);
		as_glob = (struct cordon_guard){
			.path = match, .kind = CORDON_GUARD_HIDE, .source = label};
		return &as_glob;
	}
	return NULL;
}

const struct cordon_guard *cordon_policy_hidden_unmade(const struct cordon_policy *p,
						       const char *path)
{
	for (size_t i = 0; i < p->n_unreached; i++)
		if (cordon_path_under(path, p->unreached[i].path))
			return &p->unreached[i];
	return NULL;
}

/* A hidden path's entry {PATH, SOURCE, BY} pushed to the list *V (*N
 * entries, *CAP slots): cordon_policy.exposed's and .unreached's. */
static int push_hidden(struct cordon_guard **v, size_t *n, size_t *cap, const char *path,
		       const char *source, const char *by)
{
	struct cordon_guard *nv = cordon_grow(*v, cap, *n + 1, sizeof(*nv), 8);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	struct cordon_guard *g = &nv[*n];
	*g = (struct cordon_guard){.path = strdup(path),
				   .kind = CORDON_GUARD_HIDE,
				   .source = strdup(source),
				   .by = strdup(by)};
	if (!g->path || !g->source || !g->by) {
		guard_free(g);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

/* The hidden path PATH (from SOURCE) is not hidden: the rule BY names it. */
static int add_exposed(struct cordon_policy *p, const char *path, const char *source,
		       const char *by)
{
	for (size_t i = 0; i < p->n_exposed; i++)
		if (strcmp(p->exposed[i].path, path) == 0)
			return 0;
	return push_hidden(&p->exposed, &p->n_exposed, &p->exposed_cap, path, source, by);
}

static int skip(struct cordon_policy *p, const char *what, const char *source, const char *why)
{
	char *note;
	if (asprintf(&note, "%s (%s): %s", what, source, why) < 0)
		return -ENOMEM;
	return cordon_strv_push_take(&p->skipped, note);
}

/* A config path that is neither absolute nor "~": taken against the project. */
static bool project_relative(const char *path)
{
	return path[0] != '/' && !(path[0] == '~' && (path[1] == '\0' || path[1] == '/'));
}

/* The allowed sockets of LIST (from SOURCE, in ORIGIN: the config file,
 * or NULL for the command line): "$NAME" read from the environment,
 * paths made canonical; what does not exist or is not a socket now is
 * skipped (and said in explain, and at launch: sockets_unapplied).
 * Sockets are few, and the supervisor compares what a connect reaches
 * with them: always canonical. */
static int add_sockets(struct cordon_policy *p, const struct cordon_strv *list, const char *source,
		       const char *origin, const struct cordon_context *ctx)
{
	bool from_config = origin != NULL;
	for (size_t i = 0; i < list->n; i++) {
		const char *entry = list->v[i];
		const char *path = entry;
		cleanup_free char *src = NULL;
		const char *why = NULL;
		if (entry[0] == '$') {
			path = ctx->getenv_fn ? ctx->getenv_fn(entry + 1) : NULL;
			if (asprintf(&src, "%s (%s)", source, entry) < 0)
				return -ENOMEM;
			if (!path || !*path) {
				why = path ? "set but empty in the environment cordon was started "
					     "with"
					   : "not set in the environment cordon was started with";
				path = entry;
			}
		}
		if (!why && from_config && !p->project && entry[0] != '$' && project_relative(path))
			why = "relative to the project, and there is none";
		cleanup_free char *canon = NULL;
		struct stat st;
		if (!why) {
			int r = cordon_path_resolve(path, ctx->home, p->project, &canon);
			if (r == -ENOMEM)
				return r;
			why = r < 0 ? strerror(-r) : NULL;
			if (!why && (stat(canon, &st) < 0 || !S_ISSOCK(st.st_mode)))
				why = "not a socket";
		}
		if (why) {
			char *line;
			if (skip(p, path, src && path != entry ? src : source, why) < 0 ||
			    (p->sandbox &&
			     (asprintf(&line,
				       "%s%s%s: \"%s\"%s%s%s: %s: no socket is allowed for it in "
				       "this session",
				       origin ? origin : "", origin ? ": " : "", source, entry,
				       path != entry ? " (" : "", path != entry ? path : "",
				       path != entry ? ")" : "", why) < 0 ||
			      cordon_strv_push_take(&p->sockets_unapplied, line) < 0)))
				return -ENOMEM;
			continue;
		}
		if (cordon_policy_add_socket(p, canon, src ? src : source) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* SOURCE is a preset's ("toolchains: NAME", "--toolchain NAME"). */
static bool toolchain_source(const char *source)
{
	return strncmp(source, "toolchains: ", 12) == 0 || strncmp(source, "--toolchain ", 12) == 0;
}

bool cordon_policy_users_rule(const struct cordon_rule *r)
{
	return strncmp(r->source, "additional_", 11) == 0 ||
	       strncmp(r->source, "--allow-", 8) == 0 ||
	       (strncmp(r->source, "system_paths.", 13) == 0 && !strstr(r->source, "(default)"));
}

/* Whether a rule from SOURCE is the user's own or a preset's (what the
 * links a session could lay are looked for in). */
static bool lays_own(const char *source)
{
	return strncmp(source, "additional_", 11) == 0 || strncmp(source, "--allow-", 8) == 0 ||
	       toolchain_source(source);
}

/* The user's rules and the presets' as they are resolved, kept for the
 * end (add_later): whether their way passes a link a session could have
 * laid depends on every writable rule, theirs among them. */
struct cordon_rules_later {
	struct later_rule {
		char *entry; /* as the list has it, for a skipped one's note */
		char *raw;   /* absolute, "." and ".." and all */
		char *text;  /* the same, those taken away as text */
		unsigned access;
		char *source;
	} * v;
	size_t n, cap;
};

static int defer(struct cordon_rules_later *l, const char *entry, const char *raw, const char *text,
		 unsigned access, const char *source)
{
	struct later_rule *nv = cordon_grow(l->v, &l->cap, l->n + 1, sizeof(*nv), 8);
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	struct later_rule *d = &l->v[l->n];
	*d = (struct later_rule){strdup(entry), strdup(raw), strdup(text), access, strdup(source)};
	if (!d->entry || !d->raw || !d->text || !d->source) {
		free(d->entry), free(d->raw), free(d->text), free(d->source);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

static void later_free(struct cordon_rules_later *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].entry), free(l->v[i].raw), free(l->v[i].text), free(l->v[i].source);
	free(l->v);
	*l = (struct cordon_rules_later){0};
}

/* Resolve each entry of LIST and add it with ACCESS; unresolvable ones are
 * recorded in p->skipped. BASE NULL: relative entries are taken against the
 * current directory, unless FROM_CONFIG (they are the project's, and there
 * is none: skipped). The user's and the presets' are kept for the end
 * (P->later: add_later). */
static int add_list(struct cordon_policy *p, const struct cordon_strv *list, unsigned access,
		    const char *source, const char *home, const char *base, bool from_config,
		    struct cordon_path_cache *cache)
{
	for (size_t i = 0; i < list->n; i++) {
		if (from_config && !base && project_relative(list->v[i])) {
			if (skip(p, list->v[i], source,
				 "relative to the project, and there is none") < 0)
				return -ENOMEM;
			continue;
		}
		/* The rule as it was written (absolute), RAW: the way the
		 * kernel walks, for the links on it; TEXT, for the hidden paths
		 * it names, "." and ".." taken away as text (not by where a
		 * link on the way leads, round 34 Q2). */
		cleanup_free char *raw = NULL, *lexical = NULL;
		int r = cordon_path_absolute(list->v[i], home, base, &raw);
		if (r == -ENOMEM)
			return r;
		bool dotted = r == 0 && cordon_path_dotted(raw);
		if (dotted && !(lexical = cordon_path_lexical(raw)))
			return -ENOMEM;
		const char *text = dotted ? lexical : raw;
		/* The user's and the presets': kept for the end, when every
		 * writable rule is known (add_later). Not a descriptor's name
		 * (/dev/stdout: what it leads to is the launcher's descriptor,
		 * round 34b R6), told by its text as it reads (34c S1). */
		if (r == 0 && p->later && lays_own(source) && !cordon_path_descriptor_name(text)) {
			r = defer(p->later, list->v[i], raw, text, access, source);
			if (r < 0)
				return r;
			continue;
		}
		cleanup_free char *canon = NULL;
		if (r == 0)
			r = cache ? cordon_path_resolve_cached(raw, NULL, NULL, cache, &canon)
			    : (canon = strdup(raw)) ? 0
						    : -ENOMEM;
		if (r == -ENOMEM)
			return r;
		/* Where the kernel resolves the rest (a run), one with a "." or
		 * ".." in it is resolved here: rules are compared as text, and
		 * --allow-write .. was taken for a part of the project, so never
		 * swept (round 33b K2). */
		if (r == 0 && !cache && dotted) {
			free(canon);
			canon = NULL;
			r = cordon_path_resolve(raw, NULL, NULL, &canon);
			if (r == -ENOMEM)
				return r;
		}
		/* (No file has a longer name: what explain skips, run skips too.) */
		if (r == 0 && strlen(canon) >= PATH_MAX)
			r = -ENAMETOOLONG;
		if (r < 0) {
			char *note;
			if (asprintf(&note, "%s (%s): %s", list->v[i], source, strerror(-r)) < 0)
				return -ENOMEM;
			if (cordon_strv_push_take(&p->skipped, note) < 0)
				return -ENOMEM;
			continue;
		}
		r = add_written(p, canon, text, raw, access, source);
		if (r >= 0)
			r = add_rule_merged(p, canon, access, source);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The toolchain presets being resolved: where their rules go, and what
 * keeps a preset path out. */
struct presets {
	struct cordon_policy *p;
	const struct cordon_context *ctx;
	struct cordon_path_cache *cache;
	struct cordon_strv hidden; /* hidden_paths, absolute (and canonical where they exist) */
	const char *source;        /* "toolchains: NAME" or "--toolchain NAME" */
};

/* Why preset path PATH is not granted: a credential store (at or under a
 * hidden path), or, taken from $VAR, the home, a directory above it or a
 * system directory; NULL when it may be. */
static const char *preset_refusal(const struct presets *ps, const char *path, const char *var)
{
	cleanup_free char *canon = realpath(path, NULL);
	for (size_t i = 0; i < ps->hidden.n; i++)
		if (cordon_path_under(path, ps->hidden.v[i]) ||
		    (canon && cordon_path_under(canon, ps->hidden.v[i])))
			return "a hidden path (credentials): not granted";
	if (var && (cordon_never_project(path, ps->ctx->home) ||
		    (canon && cordon_never_project(canon, ps->ctx->home))))
		return "your home, above it or a system directory: not granted";
	return NULL;
}

static int add_preset_entry(const struct cordon_toolchain_entry *e, void *data)
{
	struct presets *ps = data;
	cleanup_free char *src = NULL;
	if (e->var && asprintf(&src, "%s ($%s)", ps->source, e->var) < 0)
		return -ENOMEM;
	const char *source = src ? src : ps->source;
	const char *why = preset_refusal(ps, e->path, e->var);
	if (why)
		return skip(ps->p, e->path, source, why);
	if (ps->ctx->make_toolchain_dirs)
		(void)cordon_toolchain_make(e, ps->ctx->home, false); /* not made: skipped */
	else if (cordon_toolchain_make(e, ps->ctx->home, true) == 1)
		return skip(ps->p, e->path, source,
			    "absent; made (0700) when a session starts"); /* explain */
	cleanup_free char *path = strdup(e->path);
	if (!path)
		return -ENOMEM;
	struct cordon_strv one = {.v = (char *[]){path, NULL}, .n = 1};
	return add_list(ps->p, &one, class_access[e->cls], source, ps->ctx->home, NULL, false,
			ps->cache);
}

static int add_presets(struct presets *ps, const struct cordon_strv *names, const char *how,
		       struct cordon_strv *done)
{
	for (size_t i = 0; i < names->n; i++) {
		if (cordon_strv_contains(done, names->v[i]))
			continue;
		cleanup_free char *source = NULL;
		if (asprintf(&source, "%s%s", how, names->v[i]) < 0 ||
		    cordon_strv_push(done, names->v[i]) < 0)
			return -ENOMEM;
		ps->source = source;
		int r = cordon_toolchain_each(names->v[i], ps->ctx->home, ps->ctx->getenv_fn,
					      add_preset_entry, ps);
		if (r == -EINVAL) /* --toolchain is checked as it is parsed, the config too */
			r = skip(ps->p, names->v[i], how, "unknown toolchain");
		if (r < 0)
			return r;
	}
	return 0;
}

/* PATH (from LABEL) into OUT and WHY (may be NULL), once; a pattern as
 * what it matches now (PROJECT: what a relative one is taken against). */
/* Where push_hidden_path puts each pattern too, absolute (hidden_list's
 * GLOBS, while it makes the list); NULL: nowhere. */
static struct cordon_strv *glob_sink;

/* PATH (a hidden entry's form: "~/...", relative to PROJECT, or
 * absolute) as a pattern, into *OUT: the home or the project put before
 * its text escaped, a name of its own and no pattern (round 58a F-A: a
 * home at /home/a[1] made every default pattern match nothing); an
 * absolute one's directory was escaped by whoever put it there. */
static int pattern_absolute(const char *path, const char *home, const char *project, char **out)
{
	char base[PATH_MAX * 2];
	bool tilde = path[0] == '~';
	const char *dir = tilde ? home : project;
	if (path[0] == '/')
		return (*out = strdup(path)) ? 0 : -ENOMEM;
	if (!dir || dir[0] != '/')
		return -ENOENT;
	if (!cordon_glob_escape(dir, base, sizeof(base)))
		return -ENAMETOOLONG;
	return asprintf(out, "%s%s%s", base, tilde ? "" : "/", tilde ? path + 1 : path) < 0
		       ? -ENOMEM
		       : 0;
}

/* PATH, a hidden entry's form (PATTERN: the entry is a pattern, and any
 * directory put before its text is escaped), into OUT with LABEL into
 * WHY: a pattern as what it matches now, and (glob_sink) as itself. */
static int push_hidden_path(const char *path, bool pattern, const char *label,
			    const struct cordon_context *ctx, const char *project,
			    struct cordon_strv *out, struct cordon_strv *why)
{
	if (!pattern) /* (a path twice is guarded once: add_guard) */
		return cordon_strv_push(out, path) < 0 || (why && cordon_strv_push(why, label) < 0)
			       ? -ENOMEM
			       : 0;
	cleanup_free char *abs = NULL, *source = NULL;
	if (project_relative(path) && !project)
		return 0;
	int e = pattern_absolute(path, ctx->home, project, &abs);
	if (e < 0)
		return e == -ENOMEM ? e : 0;
	char written[PATH_MAX];
	if (asprintf(&source, "%s: %s", label, path) < 0 ||
	    (glob_sink && cordon_strv_push_new(glob_sink, abs) < 0))
		return -ENOMEM;
	struct cordon_strv matched = {0};
	e = cordon_home_glob(
		abs, cordon_glob_unescape(abs, SIZE_MAX, written, sizeof(written)) ? written : NULL,
		&matched);
	for (size_t i = 0; e >= 0 && i < matched.n; i++)
		if (cordon_strv_push(out, matched.v[i]) < 0 ||
		    (why && cordon_strv_push(why, source) < 0))
			e = -ENOMEM;
	cordon_strv_free(&matched);
	return e;
}

/* The other names the hidden paths in OUT (with their sources in WHY, may
 * be NULL) have through other mounts (a bind of the home, ~/.ssh bound
 * from /persist): hidden too, as "SOURCE: PATH, mounted here too". A rule
 * on such a name reaches the same files (round 13 read ~/.ssh's key
 * through both). */
static int push_mount_aliases(const struct cordon_context *ctx, const char *project,
			      struct cordon_strv *out, struct cordon_strv *why)
{
	struct cordon_strv canon = {0}, label = {0}, aliases = {0}, of = {0};
	int e = 0;
	for (size_t i = 0; e >= 0 && i < out->n; i++) {
		char *abs = NULL;
		int a = cordon_path_absolute(out->v[i], ctx->home, project, &abs);
		if (a == -ENOMEM)
			e = a;
		else if (a == 0 && (e = cordon_strv_push_take(&canon, abs)) >= 0)
			e = cordon_strv_push(&label, why ? why->v[i] : "hidden_paths");
		else
			free(abs);
	}
	/* (And those of mounts below them: ~/.ssh/keys bound from elsewhere,
	 * round 50e F2.) */
	if (e >= 0)
		e = cordon_mount_aliases_below(&canon, &aliases, &of);
	for (size_t i = 0; e >= 0 && i < aliases.n; i++) {
		size_t k = 0;
		while (k < canon.n && !cordon_path_under(of.v[i], canon.v[k]))
			k++;
		cleanup_free char *source = NULL;
		if (asprintf(&source, "%s: %s, mounted here too", k < label.n ? label.v[k] : "",
			     of.v[i]) < 0 ||
		    cordon_strv_push(out, aliases.v[i]) < 0 ||
		    (why && cordon_strv_push(why, source) < 0))
			e = -ENOMEM;
	}
	cordon_strv_free(&canon);
	cordon_strv_free(&label);
	cordon_strv_free(&aliases);
	cordon_strv_free(&of);
	return e;
}

/* hidden_paths (or the default list) as the session's hiding applies it:
 * each entry; where XDG moves it (one under ~/.config, ~/.local/share or
 * ~/.cache: gh, gcloud, rclone and the rest keep their tokens in
 * $XDG_CONFIG_HOME then); where the tool's own variable moves it
 * ($KUBECONFIG, $GNUPGHOME: round 10 read six stores moved so); a pattern
 * as what it matches now. PROJECT: what relative entries are taken
 * against. Into OUT (NULL-terminated), with each one's source into WHY
 * (may be NULL); 0 or -ENOMEM. */
/* A "~/..." ENTRY of hidden_paths (LABEL's) in the passwd home too, where
 * $HOME names another directory: a rule reaching it (/, /home, /root)
 * read root's real ~/.npmrc with HOME set to a per-tool home (round 37c
 * F2). As its text reads too where it holds "..", and a pattern as what it
 * matches there now; not where a variable moves it (that follows $HOME's
 * tools). A rule naming one of these itself exposes it, as for $HOME's. */
static int passwd_home_entry(const char *entry, const char *label, const struct cordon_context *ctx,
			     struct cordon_strv *out, struct cordon_strv *why)
{
	if (!ctx->passwd_home || entry[0] != '~' || entry[1] != '/')
		return 0;
	cleanup_free char *abs = NULL, *source = NULL;
	bool pattern = cordon_home_pattern(entry);
	if ((pattern ? pattern_absolute(entry, ctx->passwd_home, NULL, &abs)
		     : asprintf(&abs, "%s%s", ctx->passwd_home, entry + 1)) < 0 ||
	    asprintf(&source, "%s: %s, in the passwd home", label, entry) < 0)
		return -ENOMEM;
	int r = push_hidden_path(abs, pattern, source, ctx, NULL, out, why);
	if (r >= 0 && cordon_path_dotted(entry)) {
		cleanup_free char *plain = cordon_path_lexical(abs);
		r = !plain ? -ENOMEM
			   : push_hidden_path(plain, pattern, source, ctx, NULL, out, why);
	}
	return r;
}

/* One entry of hidden_paths (LABEL's) as hidden_list takes it. */
static int hidden_entry(const char *entry, const char *label, const struct cordon_context *ctx,
			const char *project, struct cordon_strv *out, struct cordon_strv *why)
{
	struct cordon_strv at = {0}, moved = {0}, by = {0};
	int r = cordon_strv_push(&at, entry);
	bool pattern = cordon_home_pattern(entry);
	/* ~/x/../.secret hid nothing where ~/x is missing (the kernel
	 * resolves no name past a missing one): its text's meaning, hidden
	 * too (round 32 I2). */
	cleanup_free char *abs = NULL;
	if (r >= 0 && cordon_path_dotted(entry) && !(project_relative(entry) && !project) &&
	    (pattern ? pattern_absolute(entry, ctx->home, project, &abs)
		     : cordon_path_absolute(entry, ctx->home, project, &abs)) == 0) {
		cleanup_free char *plain = cordon_path_lexical(abs);
		r = plain ? cordon_strv_push(&at, plain) : -ENOMEM;
	}
	if (r >= 0)
		r = cordon_home_xdg(entry, ctx->home, ctx, &at);
	for (size_t k = 0; r >= 0 && k < at.n; k++)
		r = push_hidden_path(at.v[k], pattern, label, ctx, project, out, why);
	if (r >= 0)
		r = cordon_home_moved(entry, ctx->getenv_fn, &moved, &by);
	for (size_t k = 0; r >= 0 && k < moved.n; k++) {
		cleanup_free char *source = NULL;
		r = asprintf(&source, "%s: %s", label, by.v[k]) < 0
			    ? -ENOMEM
			    : push_hidden_path(moved.v[k], false, source, ctx, project, out, why);
	}
	cordon_strv_free(&at);
	cordon_strv_free(&moved);
	cordon_strv_free(&by);
	return r < 0 ? r : passwd_home_entry(entry, label, ctx, out, why);
}

/* hidden_list's last answer, within one cordon_policy_resolve: its
 * callers ask for the same list two or three times (the current
 * directory's check, the toolchains, the guards), 1.7 M instructions
 * each in the launcher (the XDG and moved-store look-ups of ~150
 * entries). */
static struct {
	bool on;
	const struct cordon_config *cfg;
	const struct cordon_context *ctx;
	char *project; /* (NULL: none) */
	struct cordon_strv list, why, globs;
	bool have;
} hidden_memo;

static void hidden_memo_clear(void)
{
	free(hidden_memo.project);
	cordon_strv_free(&hidden_memo.list);
	cordon_strv_free(&hidden_memo.why);
	cordon_strv_free(&hidden_memo.globs);
	memset(&hidden_memo, 0, sizeof(hidden_memo));
}

static int hidden_list_made(const struct cordon_config *cfg, const struct cordon_context *ctx,
			    const char *project, struct cordon_strv *out, struct cordon_strv *why);

/* The hidden list (OUT, with WHY: may be NULL), and the patterns in it
 * into GLOBS (may be NULL). */
static int hidden_list_globs(const struct cordon_config *cfg, const struct cordon_context *ctx,
			     const char *project, struct cordon_strv *out, struct cordon_strv *why,
			     struct cordon_strv *globs)
{
	if (!hidden_memo.on) {
		glob_sink = globs;
		int e = hidden_list_made(cfg, ctx, project, out, why);
		glob_sink = NULL;
		return e;
	}
	bool same = hidden_memo.have && hidden_memo.cfg == cfg && hidden_memo.ctx == ctx &&
		    (project && hidden_memo.project ? strcmp(project, hidden_memo.project) == 0
						    : project == hidden_memo.project);
	if (!same) {
		bool on = hidden_memo.on;
		hidden_memo_clear();
		hidden_memo.on = on;
		glob_sink = &hidden_memo.globs;
		int e = hidden_list_made(cfg, ctx, project, &hidden_memo.list, &hidden_memo.why);
		glob_sink = NULL;
		if (e < 0 || (project && !(hidden_memo.project = strdup(project)))) {
			hidden_memo_clear();
			hidden_memo.on = on;
			return e < 0 ? e : -ENOMEM;
		}
		hidden_memo.cfg = cfg, hidden_memo.ctx = ctx, hidden_memo.have = true;
	}
	if (cordon_strv_copy(out, &hidden_memo.list) < 0 ||
	    (why && cordon_strv_copy(why, &hidden_memo.why) < 0) ||
	    (globs && cordon_strv_copy(globs, &hidden_memo.globs) < 0))
		return -ENOMEM;
	return 0;
}

static int hidden_list(const struct cordon_config *cfg, const struct cordon_context *ctx,
		       const char *project, struct cordon_strv *out, struct cordon_strv *why)
{
	return hidden_list_globs(cfg, ctx, project, out, why, NULL);
}

struct named_secret {
	const struct cordon_context *ctx;
	const char *project;
	struct cordon_strv *out, *why;
	const char *label;
};

static int push_named_secret(const char *path, const char *file, void *arg)
{
	struct named_secret *ns = arg;
	cleanup_free char *source = NULL;
	if (asprintf(&source, "%s: named by %s", ns->label, file) < 0)
		return -ENOMEM;
	return push_hidden_path(path, cordon_home_pattern(path), source, ns->ctx, ns->project,
				ns->out, ns->why);
}

struct backups {
	struct cordon_strv *out, *why;
	const struct cordon_strv *abs;
	struct cordon_strv *label;
};

static int push_backup(const char *copy, size_t i, void *arg)
{
	struct backups *b = arg;
	cleanup_free char *source = NULL;
	if (asprintf(&source, "%s: a copy of %s beside it", b->label->v[i], b->abs->v[i]) < 0 ||
	    cordon_strv_push(b->out, copy) < 0 || (b->why && cordon_strv_push(b->why, source) < 0))
		return -ENOMEM;
	return 0;
}

/* The copies beside each hidden path in OUT (its editor's backup and swap
 * files, auth.json.bak: cordon_backup_name), as they are now: hidden too,
 * as "SOURCE: a copy of PATH beside it" (round 51b F4 read
 * ~/.config/composer/auth.json~ under the default ~/.config grant). One
 * made later in a sieved directory has no rule (see the sieve). */
static int push_backups(const struct cordon_context *ctx, const char *project,
			struct cordon_strv *out, struct cordon_strv *why)
{
	struct cordon_strv abs = {0}, label = {0};
	int e = 0;
	for (size_t i = 0; e >= 0 && i < out->n; i++) {
		char *a = NULL;
		int k = cordon_path_absolute(out->v[i], ctx->home, project, &a);
		if (k == -ENOMEM)
			e = k;
		else if (k == 0 && (e = cordon_strv_push_take(&abs, a)) >= 0)
			e = cordon_strv_push(&label, why ? why->v[i] : "hidden_paths");
		else
			free(a);
	}
	struct backups b = {out, why, &abs, &label};
	if (e >= 0)
		e = cordon_backups_of((const char *const *)abs.v, abs.n, push_backup, &b);
	cordon_strv_free(&abs);
	cordon_strv_free(&label);
	return e;
}

/* A bare repository the home is kept in (~/.cfg with git --git-dir=~/.cfg
 * --work-tree=~, yadm's, vcsh's) whose index lists a hidden path of OUT:
 * the file's bytes are in its objects, which a rule reading the home
 * whole (additional_read_only_paths: ["~"]) gave the session (`git
 * --git-dir=~/.cfg show HEAD:.ssh/id_ed25519`). Hidden itself, as its
 * secrets are; not where the project is its worktree or holds it (the
 * user's work on the dotfiles: the plan's warning says it), and a rule
 * naming it exposes it as any hidden path. The few places
 * cordon_hidden_bare looks: a stat each where there is none. */
static int push_bare_trackers(const struct cordon_context *ctx, const char *project,
			      struct cordon_strv *out, struct cordon_strv *why)
{
	if (!ctx->home || !out->n || !cordon_hidden_bare_there(ctx->home))
		return 0;
	struct cordon_strv abs = {0}, gitdirs = {0}, entries = {0};
	int r = 0;
	for (size_t i = 0; r >= 0 && i < out->n; i++) {
		cleanup_free char *a = NULL;
		int e = cordon_path_absolute(out->v[i], ctx->home, project, &a);
		if (e == -ENOMEM)
			r = e;
		char *canon = e == 0 ? realpath(a, NULL) : NULL;
		if (canon)
			r = cordon_strv_push_take(&abs, canon);
	}
	cleanup_free char *home = realpath(ctx->home, NULL);
	cleanup_free char *proj = project ? realpath(project, NULL) : NULL;
	if (r >= 0 && home)
		r = cordon_hidden_bare(home, proj ? proj : project, &abs, &gitdirs, &entries);
	for (size_t i = 0; r >= 0 && i < gitdirs.n; i++) {
		cleanup_free char *label = NULL;
		r = asprintf(&label, "hidden_paths (a bare repository tracking %s)", entries.v[i]) <
				    0
			    ? -ENOMEM
			    : push_hidden_path(gitdirs.v[i], false, label, ctx, project, out, why);
	}
	cordon_strv_free(&abs);
	cordon_strv_free(&gitdirs);
	cordon_strv_free(&entries);
	return r;
}

static int hidden_list_made(const struct cordon_config *cfg, const struct cordon_context *ctx,
			    const char *project, struct cordon_strv *out, struct cordon_strv *why)
{
	const char *const *list =
		cfg->has_hidden ? (const char *const *)cfg->hidden_paths.v : cordon_default_hidden;
	const char *label = cfg->has_hidden ? "hidden_paths" : "hidden_paths (default)";
	int r = 0;
	for (size_t i = 0; list && list[i] && r >= 0; i++)
		r = hidden_entry(list[i], label, ctx, project, out, why);
	for (size_t i = 0; i < cfg->additional_hidden.n && r >= 0; i++)
		r = hidden_entry(cfg->additional_hidden.v[i],
				 "hidden_paths (additional_hidden_paths)", ctx, project, out, why);
	/* What the user's git and ssh config name as keys, with the
	 * default list (round 51b F4). */
	struct named_secret ns = {ctx, project, out, why, label};
	/* (The config directories earlier launches had too, as the plan's
	 * git_env names them.) */
	struct cordon_strv config_homes = {0};
	if (r >= 0 && ctx->home)
		r = cordon_home_xdg("~/.config", ctx->home, ctx, &config_homes);
	if (r >= 0 && !cfg->has_hidden && ctx->home)
		r = cordon_config_secrets(ctx->home, project, &config_homes, ctx->getenv_fn,
					  push_named_secret, &ns);
	cordon_strv_free(&config_homes);
	if (r >= 0)
		r = push_backups(ctx, project, out, why);
	if (r >= 0)
		r = push_mount_aliases(ctx, project, out, why);
	return r < 0 ? r : push_bare_trackers(ctx, project, out, why);
}

/* toolchains and --toolchain: each preset's paths as rules (shim/toolchain.c),
 * none at or under a hidden path. */
static int resolve_toolchains(const struct cordon_config *cfg, const struct cordon_context *ctx,
			      struct cordon_policy *p, struct cordon_path_cache *cache)
{
	if (!cfg->toolchains.n && !ctx->extra_toolchains.n)
		return 0;
	struct presets ps = {.p = p, .ctx = ctx, .cache = cache};
	struct cordon_strv done = {0}, list = {0};
	int r = hidden_list(cfg, ctx, p->project, &list, NULL);
	const char *const *hidden = (const char *const *)list.v;
	for (size_t i = 0; hidden && hidden[i] && r >= 0; i++) {
		char *abs = NULL;
		int e = cordon_path_absolute(hidden[i], ctx->home, p->project, &abs);
		if (e == -ENOMEM)
			r = e;
		if (e < 0)
			continue;
		char *canon = realpath(abs, NULL);
		r = cordon_strv_push_take(&ps.hidden, abs);
		if (r >= 0 && canon)
			r = cordon_strv_push_take(&ps.hidden, canon);
		else
			free(canon);
	}
	if (r >= 0)
		r = add_presets(&ps, &cfg->toolchains, "toolchains: ", &done);
	if (r >= 0)
		r = add_presets(&ps, &ctx->extra_toolchains, "--toolchain ", &done);
	cordon_strv_free(&ps.hidden);
	cordon_strv_free(&done);
	cordon_strv_free(&list);
	return r;
}

static int resolve_paths_with(const struct cordon_config *cfg, const struct cordon_context *ctx,
			      struct cordon_policy *p, struct cordon_path_cache *cache)
{
	for (int c = 0; c < CORDON_CLASS_COUNT; c++) {
		char source[64];
		struct cordon_strv defaults = {0};
		const struct cordon_strv *list = &cfg->system[c];
		if (!cfg->has_system[c]) {
			int r = cordon_default_paths(ctx->os, c, ctx->uid, &defaults);
			if (r < 0) {
				cordon_strv_free(&defaults);
				return r;
			}
			list = &defaults;
			snprintf(source, sizeof(source), "system_paths.%s (default)",
				 cordon_class_key(c));
		} else {
			snprintf(source, sizeof(source), "system_paths.%s", cordon_class_key(c));
		}
		int r = add_list(p, list, class_access[c], source, ctx->home, p->project, true,
				 cache);
		cordon_strv_free(&defaults);
		if (r < 0)
			return r;
		if (ctx->no_tty)
			drop_rules(p, "/dev/tty", source);
		/* The runtime directory is where the desktop's servers listen
		 * (D-Bus, Wayland, PulseAudio, gpg-agent, keyring agents), and
		 * /tmp and /var/tmp are where clients outside look for many
		 * more, at names no server may hold yet (an ssh ControlPath,
		 * PostgreSQL's .s.PGSQL.5432: round 42c F1): no socket of the
		 * session's there, where an outside client would find it in
		 * its server's place. A session's own sockets go to its
		 * temporary directory (TMPDIR, session.c
		 * cordon_session_tmp_dir) and its socket directory. */
		for (size_t i = 0; c == CORDON_CLASS_RW && i < p->n_rules; i++) {
			struct stat st;
			if (strcmp(p->rules[i].source, source) == 0 &&
			    (cordon_path_under(p->rules[i].path, "/run/user") ||
			     (stat(p->rules[i].path, &st) == 0 &&
			      cordon_guard_shared_dir(p->rules[i].path, &st))))
				p->rules[i].shared = true;
		}
	}
	for (int c = 0; c < CORDON_CLASS_COUNT; c++) {
		int r = add_list(p, &cfg->additional[c], class_access[c], cordon_class_extra_key(c),
				 ctx->home, p->project, true, cache);
		if (r < 0)
			return r;
	}
	static const char *const cli_names[CORDON_CLASS_COUNT] = {"--allow-exec", "--allow-read",
								  "--allow-write"};
	for (int c = 0; c < CORDON_CLASS_COUNT; c++) {
		int r = add_list(p, &ctx->extra[c], class_access[c], cli_names[c], ctx->home,
				 ctx->cwd, false, cache);
		if (r < 0)
			return r;
	}
	int tr = resolve_toolchains(cfg, ctx, p, cache);
	if (tr < 0)
		return tr;
	if (ctx->home) {
		struct cordon_strv dots = {0};
		for (size_t i = 0; cordon_dotfiles[i]; i++) {
			char *s;
			if (asprintf(&s, "~/%s", cordon_dotfiles[i]) < 0 ||
			    cordon_strv_push_take(&dots, s) < 0 ||
			    cordon_home_xdg(s, ctx->home, ctx, &dots) < 0) {
				cordon_strv_free(&dots);
				return -ENOMEM;
			}
		}
		int r = add_list(p, &dots, CORDON_ACCESS_READ, "dotfiles", ctx->home, NULL, false,
				 cache);
		cordon_strv_free(&dots);
		if (r < 0)
			return r;
	}
	/* (A terminal of the session's own is added as the session starts.) */
	for (size_t i = 0; !p->own_terminal && ctx->ttys && ctx->ttys[i]; i++)
		if (cordon_policy_add_rule(p, ctx->ttys[i],
					   CORDON_ACCESS_READ | CORDON_ACCESS_WRITE,
					   "the session's terminal") < 0)
			return -ENOMEM;
	if (ctx->os == CORDON_OS_LINUX) {
		/* Every process must read its own /proc/self (a rule on /proc/self
		 * would cover only the process that made the ruleset); outside
		 * processes stay unreadable — see shim/linux/platform.c. */
		int r = cordon_policy_add_rule(p, "/proc", CORDON_ACCESS_READ, "proc");
		/* CPU topology, read by nproc, lscpu, and runtimes sizing thread pools. */
		if (r >= 0)
			r = cordon_policy_add_rule(p, "/sys/devices/system/cpu", CORDON_ACCESS_READ,
						   "sys");
		if (r < 0)
			return r;
	}
	if (!p->project)
		return 0;
	int r = cordon_policy_add_rule(p, p->project, CORDON_ACCESS_ALL, "project");
	/* Opened following no link, as the later rules are: one swapped in
	 * on its way since it was walked (project_unfollowed) is not
	 * followed (round 36b F1). */
	for (size_t i = 0; r >= 0 && i < p->n_rules; i++)
		if (strcmp(p->rules[i].path, p->project) == 0)
			p->rules[i].nofollow = ctx->kernel_resolves;
	return r;
}

/* A rule a preset made: it never names a hidden path for the user. */
static bool toolchain_rule(const struct cordon_rule *r)
{
	return toolchain_source(r->source);
}

/* What the user's and the presets' rules are walked against: the
 * writable rules, resolved (none in /proc: no session lays a link there),
 * the home's .config (never writable but where a rule names a directory
 * in it) and the home itself (its top: no rule lets a session make a name
 * there, but where it lies in a system directory shared with outside
 * programs, HOME=/tmp/ci), resolved, or NULL. NOTED: where layable last
 * took a directory for one an earlier session could write, cordon's note
 * that says so (else ""; NOTED_SIZE bytes), for unfollow's line. */
#define NOTED_SIZE (PATH_MAX + 80)
struct walk_with {
	struct cordon_strv writable;
	char *config, *home;
	char *noted;
};

/* LINK (resolved but its last name) is a directory cordon makes where it
 * is missing, and pins, in the home W->home (~/.local/bin and the rest of
 * home_run_dirs): no session could have laid a link there (round 34c S2).
 * Not cordon_home_code's: one missing as a killed session started, and
 * laid by it, is moved aside only as the next session ends. (A dotfile
 * lies at the home's top, where no session makes names.) */
static bool pinned_in_home(const char *link, const struct walk_with *w)
{
	size_t hn = w->home ? strlen(w->home) : 0;
	if (!hn || strncmp(link, w->home, hn) != 0 || link[hn] != '/')
		return false;
	for (size_t i = 0; home_run_dirs[i]; i++)
		if (strcmp(link + hn + 1, home_run_dirs[i] + 2) == 0)
			return true;
	return false;
}

/* Whether a session may have laid a link in DIR (resolved): DIR lies
 * beneath a rule of W's that lets this one write there (but the home's
 * .config, kept read-only in every launch, for one above it), or one an
 * earlier session could write (of another project: round 35b U1), noted
 * in the registry, or, where there is no registry at all, one this user
 * could write (cordon_sweep_layable). (Not "a link older than the note is the user's": a session
 * renames the directory holding the user's old link onto a rule's way,
 * and a registry that lost its notes dates the next one now: 35e Y1, Y2.) */
static bool layable(const char *dir, const struct walk_with *w)
{
	if (cordon_path_under(dir, "/proc") || (w->home && strcmp(dir, w->home) == 0))
		return false;
	bool in_config = w->config && cordon_path_under(dir, w->config);
	w->noted[0] = '\0';
	for (size_t i = 0; i < w->writable.n; i++)
		if (cordon_path_under(dir, w->writable.v[i]) &&
		    !(in_config && !cordon_path_under(w->writable.v[i], w->config)))
			return true;
	return cordon_sweep_layable(dir, in_config ? w->config : NULL, w->noted, NOTED_SIZE);
}

enum walked { WALKED, WALKED_LINK, WALKED_MISSING };

/* PATH (absolute, as written) walked as the kernel walks it, "." and ".."
 * and links, into RESOLVED (PATH_MAX bytes): WALKED_LINK at the first link
 * that lies in a directory a session may make names in (layable), into
 * LINK (PATH_MAX bytes), with the directory into DIR (PATH_MAX bytes);
 * WALKED_MISSING where a name on the way is missing (or the walk goes on
 * too long). */
static enum walked walk(const char *path, const struct walk_with *w, char *resolved, char *link,
			char *dir)
{
	char rest[2 * PATH_MAX], next[PATH_MAX];
	resolved[0] = '\0';
	errno = ENAMETOOLONG;
	if ((size_t)snprintf(rest, sizeof(rest), "%s", path) >= sizeof(rest))
		return WALKED_MISSING;
	const char *at = rest;
	for (int hops = 0; *at;) {
		while (*at == '/')
			at++;
		size_t n = strcspn(at, "/"), cn = strlen(resolved);
		if (!n)
			break;
		if (n == 1 && at[0] == '.') {
			at += n;
			continue;
		}
		if (n == 2 && at[0] == '.' && at[1] == '.') {
			char *slash = strrchr(resolved, '/');
			if (slash)
				*slash = '\0';
			at += n;
			continue;
		}
		if (cn + 1 + n >= sizeof(next)) {
			errno = ENAMETOOLONG;
			return WALKED_MISSING;
		}
		memcpy(next, resolved, cn);
		next[cn] = '/';
		memcpy(next + cn + 1, at, n);
		next[cn + 1 + n] = '\0';
		at += n;
		struct stat st;
		if (lstat(next, &st) < 0)
			return WALKED_MISSING;
		if (!S_ISLNK(st.st_mode)) {
			memcpy(resolved, next, cn + n + 2);
			continue;
		}
		if (layable(cn ? resolved : "/", w) && !pinned_in_home(next, w)) {
			memcpy(link, next, cn + n + 2);
			memcpy(dir, cn ? resolved : "/", cn ? cn + 1 : 2);
			return WALKED_LINK;
		}
		char target[PATH_MAX], more[2 * PATH_MAX];
		ssize_t t = readlink(next, target, sizeof(target) - 1);
		if (t <= 0 || ++hops > 40) {
			errno = t <= 0 ? errno : ELOOP;
			return WALKED_MISSING;
		}
		target[t] = '\0';
		errno = ENAMETOOLONG;
		if ((size_t)snprintf(more, sizeof(more), "%s/%s", target, at) >= sizeof(more))
			return WALKED_MISSING;
		memcpy(rest, more, strlen(more) + 1);
		at = rest;
		if (target[0] == '/')
			resolved[0] = '\0';
	}
	if (!resolved[0])
		memcpy(resolved, "/", 2);
	return WALKED;
}

/* D not granted: its way passes LINK, in DIR, where a session may write.
 * Said into SAID (printable: the session chose the link's target). */
static int unfollow(struct cordon_strv *said, const struct later_rule *d, const char *link,
		    const char *dir, const struct walk_with *w)
{
	/* (Where no rule of this launch lets a session write: an earlier
	 * one could, and cordon's note says so, as layable found it; 35f Z1.) */
	char shown[NOTED_SIZE + 8], where[PATH_MAX + 240] = "where a session may write";
	if (w->noted[0] && cordon_printable(w->noted, SIZE_MAX, shown, sizeof(shown)))
		snprintf(
			where, sizeof(where),
			"where an earlier session could write (cordon's note %s: remove it, outside "
			"any session, only if none could have laid the link)",
			shown);
	char real[PATH_MAX];
	const char *to = realpath(link, real) ? real
			 : errno == ELOOP     ? "itself, in a loop"
					      : "a name not made yet";
	char at[PATH_MAX + 8], via[PATH_MAX + 8], target[PATH_MAX + 8], in[PATH_MAX + 8];
	cordon_printable(d->raw, SIZE_MAX, at, sizeof(at));
	cordon_printable(link, SIZE_MAX, via, sizeof(via));
	cordon_printable(to, SIZE_MAX, target, sizeof(target));
	cordon_printable(dir, SIZE_MAX, in, sizeof(in));
	char *note;
	if ((strcmp(link, d->raw) == 0
		     ? asprintf(&note,
				"%s (%s): a link (to %s) in %s, %s: not followed; name %s itself",
				at, d->source, target, in, where,
				to == real ? target : "where it leads")
		     : asprintf(&note,
				"%s (%s): through %s, a link (to %s) in %s, %s: not followed; name "
				"the path it leads to itself",
				at, d->source, via, target, in, where)) < 0)
		return -ENOMEM;
	return cordon_strv_push_take(said, note);
}

/* W for P's walks: the directories P's rules let a session write
 * (resolved), the home's .config and the home. */
static int walk_with_init(struct walk_with *w, const struct cordon_policy *p,
			  const struct cordon_context *ctx)
{
	int e = 0;
	for (size_t i = 0; e >= 0 && i < p->n_rules; i++) {
		if (!(p->rules[i].access & CORDON_ACCESS_WRITE) ||
		    cordon_path_under(p->rules[i].path, "/proc"))
			continue;
		char *canon = realpath(p->rules[i].path, NULL);
		e = canon ? cordon_strv_push_take(&w->writable, canon)
			  : cordon_strv_push(&w->writable, p->rules[i].path);
	}
	/* (~/.config is kept read-only in every launch; $XDG_CONFIG_HOME
	 * only in those it is set for: one before, without it, may have had
	 * a link laid there, round 34c S5. And only a directory: a link
	 * made later into a project leads where sessions wrote, 35b U2.) */
	cleanup_free char *dot = NULL;
	struct stat st;
	if (ctx->home && asprintf(&dot, "%s/.config", ctx->home) >= 0 && lstat(dot, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		w->config = realpath(dot, NULL);
	/* (Its top stays open where it lies in a shared directory.) */
	w->home = ctx->home ? realpath(ctx->home, NULL) : NULL;
	for (size_t i = 0; w->home && i < p->n_rules; i++)
		if ((p->rules[i].access & CORDON_ACCESS_WRITE) &&
		    strncmp(p->rules[i].source, "system_paths.read_write", 23) == 0 &&
		    cordon_path_under(w->home, p->rules[i].path)) {
			free(w->home);
			w->home = NULL;
		}
	return e;
}

static void walk_with_free(struct walk_with *w)
{
	cordon_strv_free(&w->writable);
	free(w->config);
	free(w->home);
}

/* The user's rules and the presets' (P->later), added last: each walked
 * as written, as the kernel walks it, and not granted where its way
 * passes a link in a directory a session may write (the project, /tmp, a
 * writable ~/go, by whatever name the rule reaches it): a session could
 * have laid it, to lead this session's rule to the user's other files
 * (additional_read_only_paths ["docs"] read a private directory after a
 * session made docs a link to it). The path walked is the rule's, and is
 * opened following no link (cordon_rule.nofollow, where the kernel
 * resolves: a run): one laid since is not followed either (round 34 Q5).
 * The writable ones first, against the others' (and again with all). */
static int add_later(struct cordon_policy *p, const struct cordon_context *ctx,
		     struct cordon_rules_later *l, bool run)
{
	char noted[NOTED_SIZE] = "";
	struct walk_with w = {.noted = noted};
	int e = walk_with_init(&w, p, ctx);
	char resolved[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	for (size_t i = 0; e >= 0 && i < l->n; i++)
		if ((l->v[i].access & CORDON_ACCESS_WRITE) &&
		    walk(l->v[i].raw, &w, resolved, link, dir) == WALKED)
			e = cordon_strv_push(&w.writable, resolved);
	for (size_t i = 0; e >= 0 && i < l->n; i++) {
		const struct later_rule *d = &l->v[i];
		enum walked k = walk(d->raw, &w, resolved, link, dir);
		int why = errno ? errno : ENOENT;
		if (k == WALKED_LINK) {
			e = unfollow(&p->unfollowed, d, link, dir, &w);
			continue;
		}
		/* (Missing: explain says so; a run keeps the rule as written,
		 * opened following no link, as the kernel would skip it.) */
		if (k == WALKED_MISSING && !run) {
			e = skip(p, d->entry, d->source, strerror(why));
			continue;
		}
		const char *path = k == WALKED ? resolved : d->raw;
		if (strlen(path) >= PATH_MAX) {
			e = skip(p, d->entry, d->source, strerror(ENAMETOOLONG));
			continue;
		}
		e = add_written(p, path, d->text, d->raw, d->access, d->source);
		if (e >= 0)
			e = add_rule_merged(p, path, d->access, d->source);
		for (size_t r = p->n_rules; e >= 0 && r-- > 0;) {
			struct cordon_rule *rule = &p->rules[r];
			if (strcmp(rule->path, path) != 0)
				continue;
			rule->nofollow = run;
			/* (Named through a link: said as written, round 34c S4.) */
			if (k == WALKED && !rule->written && strcmp(path, d->text) != 0 &&
			    !(rule->written = strdup(d->raw)))
				e = -ENOMEM;
			break;
		}
	}
	walk_with_free(&w);
	return e;
}

/* An explicit project, walked as the kernel walks it: where its way passes
 * a link an earlier session could have laid, the launch is refused (round
 * 36 F2: --project A/sub, a link a session made in A, made the directory
 * it led to writable: /etc, the user's private one). A project from the
 * current directory is where the user already is. */
static int project_unfollowed(const struct cordon_policy *p, const struct cordon_context *ctx,
			      struct cordon_error *err)
{
	if (ctx->project_from_cwd || !p->sandbox)
		return 0;
	cleanup_free char *abs = NULL;
	if (cordon_path_absolute(ctx->project, ctx->home, ctx->cwd, &abs) < 0 || !abs)
		return cordon_err(err, ENOMEM, "out of memory");
	char noted[NOTED_SIZE] = "";
	struct walk_with w = {.noted = noted};
	int e = walk_with_init(&w, p, ctx);
	char resolved[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	struct cordon_strv said = {0};
	char source[] = "--project";
	struct later_rule d = {.raw = abs, .source = source};
	enum walked k = e >= 0 ? walk(abs, &w, resolved, link, dir) : WALKED_MISSING;
	if (e >= 0 && k == WALKED_LINK && (e = unfollow(&said, &d, link, dir, &w)) >= 0)
		e = cordon_err(err, EPERM, "%s", said.v[0]);
	/* (Resolved once, walked again: a link swapped in on the way
	 * meanwhile leads the one somewhere else than the other, round 36b
	 * F1; the rule is then opened following no link.) */
	else if (e >= 0 && (k != WALKED || strcmp(resolved, p->project) != 0))
		e = cordon_err(err, EAGAIN,
			       "%s (--project): its way changed while cordon looked at it (a "
			       "link swapped in, or out): not taken; start again",
			       cordon_printable(abs, SIZE_MAX, link, sizeof(link)));
	cordon_strv_free(&said);
	walk_with_free(&w);
	return e == -ENOMEM ? cordon_err(err, ENOMEM, "out of memory") : e;
}

static void rules_free(struct cordon_rule *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].source);
		free(v[i].written);
	}
	free(v);
}

static int resolve_paths(const struct cordon_config *cfg, const struct cordon_context *ctx,
			 struct cordon_policy *p)
{
	struct cordon_path_cache cache = {0};
	struct cordon_rules_later later = {0};
	p->later = &later;
	int r = resolve_paths_with(cfg, ctx, p, ctx->kernel_resolves ? NULL : &cache);
	p->later = NULL;
	if (r >= 0 && later.n)
		r = add_later(p, ctx, &later, ctx->kernel_resolves);
	later_free(&later);
	cordon_path_cache_free(&cache);
	return r;
}

/* LIST's guards of KIND, relative paths against BASE (with PLACEHOLDER:
 * a trailing "/" asks for a stand-in); a hidden path that a rule names
 * itself is left out, and so (YIELD) is a protected one that a write rule
 * names itself. */
/* ABS (absolute) is missing, and no rule reaches where it would be made:
 * not the nearest directory on its way that exists (resolved), nor a path
 * beneath it. Nothing can expose it in this session (Landlock's rules are
 * fixed as it starts), so it needs no guard: most of the default hidden
 * list on a given machine (~/.tsh, ~/.minikube in a home no rule reads). */
struct reach_memo {
	char *up;     /* the last nearest existing directory looked at, */
	char *dir;    /* resolved, */
	bool covered; /* and whether a rule reaches it */
};

static bool unreachable(const struct cordon_policy *p, const char *abs,
			struct cordon_path_cache *cache, struct reach_memo *memo)
{
	char up[PATH_MAX];
	struct stat st;
	/* (A link to a name not made yet is there: what it leads to counts.
	 * What the resolution just found missing, or real directories, are
	 * not asked about again: a launch asked about ~/.config 80 times.) */
	bool there = !cordon_path_cache_missing(cache, abs) && lstat(abs, &st) == 0;
	if (there || snprintf(up, sizeof(up), "%s", abs) >= (int)sizeof(up))
		return false;
	cleanup_free char *canon = NULL;
	char *slash;
	bool same = false;
	while (!canon && !same && (slash = strrchr(up, '/')) && slash != up) {
		*slash = '\0';
		/* (Most share theirs: the home, ~/.config.) */
		if ((same = memo->up && strcmp(memo->up, up) == 0))
			break;
		/* A dangling link on the way (~/.dbt -> PROJ/dbt, not made
		 * yet): the session may make where it leads (round 9). */
		if (!cordon_path_cache_dir(cache, up) && !cordon_path_cache_missing(cache, up) &&
		    lstat(up, &st) == 0 && S_ISLNK(st.st_mode) && stat(up, &st) < 0)
			return false;
		int r = cordon_path_resolve_cached(up, NULL, NULL, cache, &canon);
		if (r < 0 && r != -ENOENT)
			return false;
	}
	if (!canon && !same)
		return false;
	/* A link there (~/.dbt -> PROJ/dbt -> ~/private/dbt): the session may
	 * replace one on its way (round 10); the plan looks. */
	if (!same && !cordon_path_cache_dir(cache, up) && lstat(up, &st) == 0 &&
	    S_ISLNK(st.st_mode))
		return false;
	if (!same) {
		char *u = strdup(up);
		if (!u)
			return false;
		memo->covered = false;
		for (size_t i = 0; i < p->n_rules && !memo->covered; i++)
			memo->covered = cordon_path_under(canon, p->rules[i].path);
		free(memo->dir);
		free(memo->up);
		memo->dir = canon;
		memo->up = u;
		canon = NULL;
	}
	if (memo->covered)
		return false;
	for (size_t i = 0; i < p->n_rules; i++)
		if (cordon_path_under(p->rules[i].path, abs))
			return false;
	return true;
}

static int guard_list_memo(struct cordon_policy *p, const char *const *list, unsigned kind,
			   bool yield, const char *source, const char *home, const char *base,
			   struct cordon_path_cache *cache, struct reach_memo *memo)
{
	for (size_t i = 0; list && list[i]; i++) {
		cleanup_free char *abs = NULL;
		int r = cordon_path_absolute(list[i], home, base, &abs);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			continue; /* "~/..." without a home */
		/* protected_paths' ".vscode/": a stand-in while missing. */
		unsigned k = kind & ~(unsigned)CORDON_GUARD_PLACEHOLDER;
		size_t n = strlen(abs);
		if ((kind & CORDON_GUARD_PLACEHOLDER) && n > 1 && abs[n - 1] == '/') {
			while (n > 1 && abs[n - 1] == '/')
				abs[--n] = '\0';
			k |= CORDON_GUARD_PLACEHOLDER;
		}
		if (kind == CORDON_GUARD_HIDE || yield) {
			/* Named by a rule itself: the user means it. */
			cleanup_free char *canon = NULL;
			int rr = cordon_path_resolve_cached(abs, NULL, NULL, cache, &canon);
			if (rr == -ENOMEM)
				return -ENOMEM;
			if (rr == -ENOENT && kind == CORDON_GUARD_HIDE &&
			    unreachable(p, abs, cache, memo)) {
				if (push_hidden(&p->unreached, &p->n_unreached, &p->unreached_cap,
						abs, source, memo->dir) < 0)
					return -ENOMEM;
				continue;
			}
			const struct cordon_rule *named = NULL;
			const struct cordon_rule *rules = p->written;
			for (size_t j = 0; j < p->n_written && !named; j++)
				/* (A preset's cache is one: the python preset's
				 * ~/.cache/pip. Its programs' trees it only lets
				 * execute.) */
				if ((yield || !toolchain_rule(&rules[j])) &&
				    (!yield || (rules[j].access & CORDON_ACCESS_WRITE)) &&
				    (strcmp(rules[j].path, abs) == 0 ||
				     (canon && strcmp(rules[j].path, canon) == 0)))
					named = &rules[j];
			if (named && kind == CORDON_GUARD_HIDE &&
			    add_exposed(p, abs, source, named->source) < 0)
				return -ENOMEM;
			if (named)
				continue;
		}
		r = cordon_policy_add_guard(p, abs, k, source);
		if (r < 0)
			return r;
	}
	return 0;
}

static int guard_list_in(struct cordon_policy *p, const char *const *list, unsigned kind,
			 bool yield, const char *source, const char *home, const char *base,
			 struct cordon_path_cache *cache)
{
	struct reach_memo memo = {0};
	int r = guard_list_memo(p, list, kind, yield, source, home, base, cache, &memo);
	free(memo.dir);
	free(memo.up);
	return r;
}

static int guard_list_yield(struct cordon_policy *p, const char *const *list, unsigned kind,
			    bool yield, const char *source, const char *home,
			    struct cordon_path_cache *cache)
{
	return guard_list_in(p, list, kind, yield, source, home, p->project, cache);
}

static int guard_list(struct cordon_policy *p, const char *const *list, unsigned kind,
		      const char *source, const char *home, struct cordon_path_cache *cache)
{
	return guard_list_yield(p, list, kind, false, source, home, cache);
}

/* guard_list_yield over LIST and where XDG moves its entries
 * ($XDG_DATA_HOME/direnv for ~/.local/share/direnv: round 10 had direnv
 * and fish outside obey what a session wrote in a moved one). */
static int guard_home_list(struct cordon_policy *p, const char *const *list, unsigned kind,
			   bool yield, const char *source, const struct cordon_context *ctx,
			   struct cordon_path_cache *cache)
{
	struct cordon_strv all = {0};
	int r = cordon_home_xdg_list(list, ctx->home, ctx, &all);
	if (r >= 0)
		r = guard_list_yield(p, (const char *const *)all.v, kind, yield, source, ctx->home,
				     cache);
	cordon_strv_free(&all);
	return r;
}

bool cordon_policy_writable_root(const struct cordon_policy *p, const struct cordon_rule *r)
{
	struct stat st;
	return (r->access & CORDON_ACCESS_WRITE) &&
	       (strcmp(r->source, cordon_class_extra_key(CORDON_CLASS_RW)) == 0 ||
		strcmp(r->source, "--allow-write") == 0 ||
		strcmp(r->source, CORDON_ROOT_ABOVE) == 0) &&
	       (!p->project || !cordon_path_under(r->path, p->project)) &&
	       !cordon_never_project(r->path, p->home) && stat(r->path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

/* What a config directory ($XDG_CONFIG_HOME, ~/.config) holds, by the
 * names programs outside read there: one a project may well have by
 * chance (a git/ of its own), two seldom. cordon's own config counts
 * alone (config_home_like). */
static const char *const config_home_marks[] = {"cordon",
						"git/config",
						"git/ignore",
						"git/attributes",
						"fish/config.fish",
						"nvim/init.lua",
						"nvim/init.vim",
						"gh/hosts.yml",
						"gh/config.yml",
						"systemd/user",
						"user-dirs.dirs",
						"mimeapps.list",
						"autostart",
						"environment.d",
						"fontconfig",
						"htop/htoprc",
						"starship.toml",
						"kitty/kitty.conf",
						"alacritty",
						"tmux/tmux.conf",
						"pulse",
						"dconf/user",
						"Code/User",
						"direnv/direnvrc",
						NULL};

/* DIR holds what a config directory holds: cordon/config.json, or two of
 * config_home_marks; what it holds into *WHAT ("cordon/config.json", "git/config
 * and fish/config.fish"), malloc'd, else NULL. A launch started without
 * the user's XDG_CONFIG_HOME (an IDE's task, cron) cannot know that DIR is
 * theirs by the name (round 51d F1): it knows it by what is there. */
static int config_home_like(const char *dir, char **what)
{
	*what = NULL;
	struct stat st;
	/* (The marks whose first name DIR holds, from one listing: a project
	 * holds hundreds of directories, each asked 25 names else, 780 calls
	 * a launch in one of 30 submodules. One that cannot be listed is
	 * asked each.) */
	bool has[ARRAY_SIZE(config_home_marks)], any = false;
	DIR *d = opendir(dir);
	for (size_t i = 0; i < ARRAY_SIZE(config_home_marks); i++)
		has[i] = !d;
	for (struct dirent *e; d && (e = readdir(d));)
		for (size_t i = 0; config_home_marks[i]; i++) {
			size_t fn = strcspn(config_home_marks[i], "/");
			if (strlen(e->d_name) == fn &&
			    strncmp(e->d_name, config_home_marks[i], fn) == 0)
				has[i] = any = true;
		}
	if (d)
		closedir(d);
	if (d && !any)
		return 0;
	cleanup_free char *own = NULL;
	if (asprintf(&own, "%s/cordon/config.json", dir) < 0)
		return -ENOMEM;
	if (has[0] && lstat(own, &st) == 0)
		return (*what = strdup("cordon/config.json")) ? 0 : -ENOMEM;
	const char *found[2] = {NULL, NULL};
	size_t n = 0;
	for (size_t i = 0; n < 2 && config_home_marks[i]; i++) {
		if (!has[i])
			continue;
		cleanup_free char *m = NULL;
		if (asprintf(&m, "%s/%s", dir, config_home_marks[i]) < 0)
			return -ENOMEM;
		if (lstat(m, &st) == 0)
			found[n++] = config_home_marks[i];
	}
	if (n == 2 && asprintf(what, "%s and %s", found[0], found[1]) < 0) {
		*what = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A config directory the session can write at the project's top or one
 * below (config_home_like): its cordon/ (made where missing) and the
 * directories of config_home_marks there (git/, fish/, ...) are kept
 * read-only, as $XDG_CONFIG_HOME's are, whether or not this launch
 * knows the variable (round 51d F1: a session wrote cordon/config.json and
 * git/config in the directory the user's XDG_CONFIG_HOME names). A
 * --project naming it keeps the rest writable. */
static int guard_config_homes(struct cordon_policy *p, const struct cordon_context *ctx,
			      struct cordon_path_cache *cache)
{
	if (!p->project || !p->sandbox)
		return 0;
	struct cordon_strv dirs = {0}, tops = {0};
	int r = cordon_strv_push(&dirs, p->project);
	DIR *d = r >= 0 ? opendir(p->project) : NULL;
	struct dirent *e;
	for (int n = 0; r >= 0 && d && n < 512 && (e = readdir(d)); n++) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, ".git") == 0 ||
		    (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		cleanup_free char *sub = NULL;
		struct stat st;
		if (asprintf(&sub, "%s/%s", strcmp(p->project, "/") ? p->project : "", e->d_name) <
		    0)
			r = -ENOMEM;
		else if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			r = cordon_strv_push(&dirs, sub);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; r >= 0 && i < dirs.n; i++) {
		cleanup_free char *what = NULL, *own = NULL;
		r = config_home_like(dirs.v[i], &what);
		if (r < 0 || !what)
			continue;
		if (asprintf(&own, "%s/cordon", dirs.v[i]) < 0)
			r = -ENOMEM;
		if (r >= 0)
			r = guard_list(p, (const char *const[]){own, NULL}, CORDON_GUARD_PROTECT,
				       "cordon's config", ctx->home, cache);
		/* (And the programs' directories there: git/, fish/, ...) */
		for (size_t m = 0; r >= 0 && config_home_marks[m]; m++) {
			cleanup_free char *top = NULL;
			struct stat st;
			int n = (int)strcspn(config_home_marks[m], "/");
			if (asprintf(&top, "%s/%.*s", dirs.v[i], n, config_home_marks[m]) < 0)
				r = -ENOMEM;
			else if (strcmp(top, own) != 0 && !cordon_strv_contains(&tops, top) &&
				 lstat(top, &st) == 0)
				r = cordon_strv_push(&tops, top);
		}
	}
	if (r >= 0)
		r = guard_list(p, (const char *const *)tops.v, CORDON_GUARD_PROTECT,
			       "a config directory's (XDG_CONFIG_HOME)", ctx->home, cache);
	cordon_strv_free(&tops);
	cordon_strv_free(&dirs);
	return r;
}

/* Where the config a later session reads lives: the file read now, and
 * the directories a session with none would look in ($CORDON_CONFIG's file,
 * $XDG_CONFIG_HOME/cordon, ~/.config/cordon). */
static int guard_config(const struct cordon_config *cfg, const struct cordon_context *ctx,
			struct cordon_policy *p, struct cordon_path_cache *cache)
{
	static const char source[] = "cordon's config";
	int r = cfg->file ? guard_list(p, (const char *const[]){cfg->file, NULL},
				       CORDON_GUARD_PROTECT, source, ctx->home, cache)
			  : 0;
	const char *env = ctx->getenv_fn ? ctx->getenv_fn("CORDON_CONFIG") : NULL;
	if (r >= 0 && env && env[0] == '/')
		r = guard_list(p, (const char *const[]){env, NULL}, CORDON_GUARD_PROTECT, source,
			       ctx->home, cache);
	const char *xdg = ctx->getenv_fn ? ctx->getenv_fn("XDG_CONFIG_HOME") : NULL;
	cleanup_free char *xdir = NULL;
	if (r >= 0 && xdg && xdg[0] == '/') {
		if (asprintf(&xdir, "%s/cordon", xdg) < 0)
			return -ENOMEM;
		r = guard_list(p, (const char *const[]){xdir, NULL}, CORDON_GUARD_PROTECT, source,
			       ctx->home, cache);
	}
	if (r >= 0)
		r = guard_list(p, (const char *const[]){"~/.config/cordon", NULL},
			       CORDON_GUARD_PROTECT, source, ctx->home, cache);
	if (r >= 0)
		r = guard_config_homes(p, ctx, cache);
	/* cordon's state: the session registry (root's is /run/cordon, and
	 * what must outlast a reboot /var/lib/cordon):
	 * cordon list and kill, run outside, act on its records, so one
	 * planted there would have them signal or remove what it names; the
	 * sweep keeps its record of each project's directories there, and
	 * the notes of what sessions may write, which later launches trust
	 * (shim/sweep.c); and the shells' history directories, which a later
	 * session is granted writing (a link planted for one would grant it
	 * where it leads; launcher/history.c takes none, and keeps no history
	 * there for a session that could write them). */
	/* Where XDG_STATE_HOME puts it, ~/.local/state's whatever the variable
	 * says (round 52c F2: the notes a launch without it reads are kept
	 * there too, and a session with it and --project ~ removed them), and
	 * where earlier launches' XDG_STATE_HOME put it (52a F2: a launch
	 * without the variable wrote the registry, the records and the
	 * shells' directories the launches with it use). The registry itself
	 * is hidden: the sweep's records there hold the tree of every project
	 * the user ran a session in (names of files included), readable from
	 * inside wherever a rule granted ~/.local (round 27c). Nothing inside
	 * reads it: the launcher does, outside. */
	struct cordon_strv states = {0};
	if (r >= 0)
		r = cordon_home_xdg_list((const char *const[]){"~/.local/state/cordon", NULL},
					 ctx->home, ctx, &states);
	for (size_t i = 0; r >= 0 && i < states.n; i++) {
		cleanup_free char *reg = NULL;
		r = guard_list(p, (const char *const[]){states.v[i], NULL},
			       CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE, "cordon's state",
			       ctx->home, cache);
		if (r >= 0 && ctx->uid != 0 && asprintf(&reg, "%s/sessions", states.v[i]) < 0)
			r = -ENOMEM;
		if (r >= 0 && reg)
			r = guard_list(p, (const char *const[]){reg, NULL}, CORDON_GUARD_HIDE,
				       "cordon's state", ctx->home, cache);
	}
	cordon_strv_free(&states);
	if (r >= 0 && ctx->uid == 0)
		r = guard_list(p,
			       (const char *const[]){CORDON_ROOT_REGISTRY, CORDON_ROOT_STATE, NULL},
			       CORDON_GUARD_HIDE, "cordon's state", ctx->home, cache);
	/* And an ordinary user's state below the passwd home, where the notes
	 * later launches trust are kept too whatever XDG_STATE_HOME and HOME
	 * say (shim/sweep.c, uid_records_dir: round 37c F3). */
	cleanup_free char *uid_own = NULL, *uid_registry = NULL;
	struct stat home_st;
	if (r >= 0 && ctx->uid != 0 && ctx->passwd_home && ctx->passwd_home[0] == '/' &&
	    lstat(ctx->passwd_home, &home_st) == 0 && S_ISDIR(home_st.st_mode) &&
	    (asprintf(&uid_own, "%s/.local/state/cordon", ctx->passwd_home) < 0 ||
	     asprintf(&uid_registry, "%s/sessions", uid_own) < 0))
		return -ENOMEM;
	if (r >= 0 && uid_own)
		r = guard_list(p, (const char *const[]){uid_own, NULL}, CORDON_GUARD_PROTECT,
			       "cordon's state", ctx->home, cache);
	if (r >= 0 && uid_registry)
		r = guard_list(p, (const char *const[]){uid_registry, NULL}, CORDON_GUARD_HIDE,
			       "cordon's state", ctx->home, cache);
	return r;
}

static bool guarded(const struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_guards; i++)
		if (strcmp(p->guards[i].path, path) == 0)
			return true;
	return false;
}

enum { MAX_ENTRIES_LOOKED_AT = 512, UNIX_ACCEPTCON = 0x10000 };

/* The sockets in DIR (/tmp, /var/tmp, the runtime directory) and, DEPTH 0,
 * in the directories there that the session's user keeps to itself (mode
 * 0700: emacs's server directory, an ssh agent's), into OUT: where
 * /proc/net/unix cannot be read. At most MAX_ENTRIES_LOOKED_AT a directory
 * (each directory costs an lstat: a /tmp full of build directories would
 * cost a launch milliseconds). */
static int sockets_in(const struct cordon_policy *p, const struct cordon_context *ctx,
		      const char *dir, int depth, struct cordon_strv *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int r = 0;
	size_t seen = 0;
	for (struct dirent *e; r >= 0 && (e = readdir(d));) {
		if (++seen > MAX_ENTRIES_LOOKED_AT)
			break;
		char path[PATH_MAX];
		if (cordon_dot_or_dotdot(e->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		unsigned char type = e->d_type;
		struct stat st = {0};
		if (type == DT_UNKNOWN || (type == DT_DIR && depth == 0)) {
			if (lstat(path, &st) < 0)
				continue;
			type = S_ISSOCK(st.st_mode)  ? DT_SOCK
			       : S_ISDIR(st.st_mode) ? DT_DIR
						     : DT_REG;
		}
		if (type == DT_SOCK)
			r = cordon_strv_push(out, path);
		else if (type == DT_DIR && depth == 0 && st.st_uid == ctx->uid &&
			 (st.st_mode & 07777) == 0700 && !guarded(p, path))
			r = sockets_in(p, ctx, path, 1, out);
	}
	closedir(d);
	return r;
}

/* Field N (from 0) of a /proc/net/unix LINE, or NULL; the last, the path,
 * runs to the end of the line. */
static char *unix_field(char *line, int n)
{
	char *s = line;
	for (int i = 0;; i++) {
		s += strspn(s, " ");
		if (!*s || *s == '\n')
			return NULL;
		if (i == n)
			return s;
		s += strcspn(s, " \n");
	}
}

/* Every socket LIST (a /proc/.../net/unix) lists as listened on beneath
 * /tmp, /var/tmp or RUNTIME, into OUT: 1, 0 where it cannot be read, or
 * -ENOMEM. */
static int listened_on(const char *list, const char *runtime, struct cordon_strv *out)
{
	FILE *f = fopen(list, "re");
	if (!f)
		return 0;
	char line[PATH_MAX + 128];
	int r = 1;
	while (r >= 0 && fgets(line, sizeof(line), f)) {
		/* "Num: RefCount Protocol Flags Type St Inode Path" */
		char *flags = unix_field(line, 3), *path = unix_field(line, 7);
		if (!flags || !path || !(strtoul(flags, NULL, 16) & UNIX_ACCEPTCON))
			continue;
		path[strcspn(path, "\n")] = '\0';
		bool beneath = cordon_path_under(path, "/tmp") ||
			       cordon_path_under(path, "/var/tmp") ||
			       cordon_path_under(path, runtime);
		if (path[0] == '/' && beneath && !cordon_strv_contains(out, path))
			r = cordon_strv_push(out, path) < 0 ? -ENOMEM : 1;
	}
	(void)fclose(f); /* read only */
	return r;
}

struct in_sessions {
	const char *runtime;
	struct cordon_strv *out;
	struct stat ours; /* our network namespace */
	int r;
};

/* A process of the live session S: its command, else (it exited, its
 * servers run on) the first one its cgroup lists. 0 when none is found. */
static pid_t a_process_of(const struct cordon_session_info *s)
{
	char path[4200];
	if (s->shell > 0 && snprintf(path, sizeof(path), "/proc/%d", (int)s->shell) > 0 &&
	    access(path, F_OK) == 0)
		return s->shell;
	if (!s->cgroup[0] ||
	    snprintf(path, sizeof(path), "%s/cgroup.procs", s->cgroup) >= (int)sizeof(path))
		return 0;
	pid_t *pids = NULL, pid = 0;
	size_t n = 0;
	if (cordon_read_pids(path, &pids, &n) == 0 && n > 0)
		pid = pids[0];
	free(pids);
	return pid;
}

static bool listened_in(const struct cordon_session_info *s, void *arg)
{
	struct in_sessions *in = arg;
	pid_t pid = a_process_of(s);
	char ns[64], list[64];
	struct stat st;
	snprintf(ns, sizeof(ns), "/proc/%d/ns/net", (int)pid);
	if (pid <= 0 || stat(ns, &st) < 0 ||
	    (st.st_dev == in->ours.st_dev && st.st_ino == in->ours.st_ino))
		return false;
	snprintf(list, sizeof(list), "/proc/%d/net/unix", (int)pid);
	int r = listened_on(list, in->runtime, in->out);
	if (r < 0)
		in->r = r;
	return r < 0;
}

/* The servers of the user's other live sessions, each in its network
 * namespace of its own (netns.c), where /proc/net/unix does not see them:
 * outside this one, they are servers outside too. 0 or -ENOMEM. A session
 * whose processes are all gone has none. */
static int listened_on_in_sessions(const char *runtime, struct cordon_strv *out)
{
	struct in_sessions in = {runtime, out, {0}, 0};
	if (cordon_sandbox_nested() || stat("/proc/self/ns/net", &in.ours) < 0)
		return 0;
	(void)cordon_registry_each_live(listened_in, &in);
	return in.r;
}

/* Each socket a server outside listens on in /tmp, /var/tmp and the
 * runtime directory is kept in its place (a mount point is neither removed
 * nor renamed over), so that no server of the session's takes its name (a
 * postgres in /tmp would get psql's password), and none is removed (the
 * runtime directory's bus, wayland-0, pulse/native: nothing is bound there
 * inside, but the desktop lost its servers, round 42c F2). Only the ones
 * listened on: sockets a session left behind would otherwise be mounts in
 * every later session. At any depth, and the directories on the way pinned
 * (guard.c pin_parents): a server in a 0755 directory of the user's, or
 * deeper (Neovim's nvim.USER/XXXXXX/), had its directory renamed aside and
 * its name taken (round 42e F1). */
static int guard_servers_sockets(struct cordon_policy *p, const struct cordon_context *ctx,
				 struct cordon_path_cache *cache)
{
	struct cordon_strv live = {0};
	char runtime[64];
	snprintf(runtime, sizeof(runtime), "/run/user/%u", (unsigned)ctx->uid);
	int r = listened_on("/proc/net/unix", runtime, &live);
	if (r > 0 && (r = listened_on_in_sessions(runtime, &live)) >= 0)
		r = 1;
	if (r == 0) { /* no /proc/net/unix: every socket where the scan looks */
		r = sockets_in(p, ctx, "/tmp", 0, &live);
		if (r >= 0)
			r = sockets_in(p, ctx, "/var/tmp", 0, &live);
		if (r >= 0)
			r = sockets_in(p, ctx, runtime, 0, &live);
	}
	for (size_t i = 0; r >= 0 && i < live.n; i++) {
		struct stat st;
		if (lstat(live.v[i], &st) == 0 && S_ISSOCK(st.st_mode))
			r = guard_list(p, (const char *const[]){live.v[i], NULL},
				       CORDON_GUARD_PROTECT, CORDON_GUARD_SERVERS, ctx->home,
				       cache);
	}
	cordon_strv_free(&live);
	return r;
}

/* DIR is what git takes for a git dir: HEAD, and objects and refs, or a
 * commondir. */
static bool is_git_dir(const char *dir)
{
	char f[PATH_MAX + 16];
	struct stat st;
	snprintf(f, sizeof(f), "%s/HEAD", dir);
	if (stat(f, &st) < 0)
		return false;
	snprintf(f, sizeof(f), "%s/commondir", dir);
	if (stat(f, &st) == 0)
		return true;
	snprintf(f, sizeof(f), "%s/objects", dir);
	bool objects = stat(f, &st) == 0;
	snprintf(f, sizeof(f), "%s/refs", dir);
	return objects && stat(f, &st) == 0;
}

/* PROTECTED kept in ROOT, a directory made writable besides the project,
 * as in the project; in a root that is a git dir itself (a bare
 * repository the session pushes to, a repository's .git), the .git
 * entries are its own files (a .git one: with all protect_git follows). */
static int guard_root(struct cordon_policy *p, const char *const *protected, const char *source,
		      const char *home, const char *root, struct cordon_path_cache *cache)
{
	if (!is_git_dir(root))
		return guard_list_in(p, protected, CORDON_GUARD_PROTECT | CORDON_GUARD_PLACEHOLDER,
				     false, source, home, root, cache);
	int r = 0;
	for (size_t i = 0; r >= 0 && protected[i]; i++) {
		if (strncmp(protected[i], ".git/", 5) != 0)
			continue;
		cleanup_free char *own = NULL;
		if (asprintf(&own, "%s/%s", root, protected[i] + 5) < 0)
			return -ENOMEM;
		r = guard_list_in(p, (const char *const[]){own, NULL}, CORDON_GUARD_PROTECT, false,
				  source, home, root, cache);
	}
	return r;
}

/* Whether a write rule of P covers DIR (canonical). */
static bool written_by_a_rule(const struct cordon_policy *p, const char *dir,
			      struct cordon_path_cache *cache)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct cordon_rule *r = &p->rules[i];
		if (!(r->access & CORDON_ACCESS_WRITE))
			continue;
		if (cordon_path_under(dir, r->path))
			return true;
		cleanup_free char *canon = NULL;
		if (cordon_path_resolve_cached(r->path, NULL, NULL, cache, &canon) >= 0 && canon &&
		    cordon_path_under(dir, canon))
			return true;
	}
	return false;
}

/* home_code_names' guards in DIR ("~" or a cache directory; CACHE: which
 * of the patterns), when a rule makes it writable: each entry there that
 * matches, and (NAMES) the names given, which the session could make. */
static int guard_code_names(struct cordon_policy *p, const struct cordon_context *ctx,
			    const char *dir, bool cache_dir, const char *const *names,
			    struct cordon_path_cache *cache)
{
	cleanup_free char *canon = NULL;
	int r = cordon_path_resolve_cached(dir, ctx->home, NULL, cache, &canon);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || !canon || !written_by_a_rule(p, canon, cache))
		return 0;
	static const char source[] = CORDON_GUARD_HOME_CODE;
	DIR *d = opendir(canon);
	for (struct dirent *e; r >= 0 && d && (e = readdir(d));) {
		bool match = false;
		for (size_t i = 0; !match && i < ARRAY_SIZE(home_code_names); i++)
			match = home_code_names[i].cache == cache_dir &&
				fnmatch(home_code_names[i].pattern, e->d_name, FNM_PERIOD) == 0;
		cleanup_free char *path = NULL;
		if (!match || cordon_dot_or_dotdot(e->d_name))
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			r = -ENOMEM;
		else
			r = guard_list_yield(p, (const char *const[]){path, NULL},
					     CORDON_GUARD_PROTECT, true, source, ctx->home, cache);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; r >= 0 && names && names[i]; i++) {
		cleanup_free char *path = NULL;
		if (asprintf(&path, "%s/%s", dir, names[i]) < 0)
			return -ENOMEM;
		r = guard_list_yield(p, (const char *const[]){path, NULL}, CORDON_GUARD_PROTECT,
				     true, source, ctx->home, cache);
	}
	return r;
}

/* The files zsh and its prompt keep by name (home_code_names), in a
 * writable home or cache directory. powerlevel10k names its instant
 * prompt after the user (zsh's %n): one missing that the session makes is
 * moved aside as it ends, like any protected name no mount can guard. */
static int guard_home_code_names(struct cordon_policy *p, const struct cordon_context *ctx,
				 struct cordon_path_cache *cache)
{
	int r = guard_code_names(p, ctx, "~", false, NULL, cache);
	const char *user = ctx->getenv_fn ? ctx->getenv_fn("USER") : NULL;
	if ((!user || !*user) && ctx->getenv_fn)
		user = ctx->getenv_fn("LOGNAME");
	if ((!user || !*user) && ctx->uid == 0)
		user = "root";
	char own[4][NAME_MAX + 1];
	const char *names[5] = {NULL};
	if (user && *user && !strchr(user, '/') && strlen(user) < NAME_MAX - 32) {
		static const char *const kinds[] = {"instant-prompt", "dump"};
		for (size_t i = 0; i < 4; i++) {
			snprintf(own[i], sizeof(own[i]), "p10k-%s-%s.zsh%s", kinds[i / 2], user,
				 i % 2 ? ".zwc" : "");
			names[i] = own[i];
		}
	}
	const char *xdg = ctx->getenv_fn ? ctx->getenv_fn("XDG_CACHE_HOME") : NULL;
	if (r >= 0 && xdg && xdg[0] == '/')
		r = guard_code_names(p, ctx, xdg, true, names, cache);
	if (r >= 0)
		r = guard_code_names(p, ctx, "~/.cache", true, names, cache);
	return r;
}

/* The links in ~/.config (and $XDG_CONFIG_HOME where it is elsewhere),
 * to CONFIG_LINKS_DEPTH directories down and CONFIG_LINKS_BUDGET entries,
 * each level whole before the next, hidden paths left out: EACH (LINK,
 * ARG) for each. GNU stow links each file where the directory exists
 * (fish makes ~/.config/fish), a tool's directory where it does not
 * (~/.config/fish -> ~/dotfiles/fish). The cover on ~/.config keeps the
 * links, not what they lead to: a session with the dotfiles repository
 * as its project wrote config.fish, fish's functions and git's config,
 * and fish and git outside ran them (round 10). */
#define CONFIG_LINKS_DEPTH  3
#define CONFIG_LINKS_BUDGET 2048

static int config_links(const struct cordon_policy *p, const char *home,
			char *(*getenv_fn)(const char *), int (*each)(const char *, void *),
			void *arg)
{
	struct cordon_strv queue = {0};
	char top[PATH_MAX];
	int e = 0;
	if (home && snprintf(top, sizeof(top), "%s/.config", home) < (int)sizeof(top))
		e = cordon_strv_push(&queue, top);
	const char *xdg = getenv_fn ? getenv_fn("XDG_CONFIG_HOME") : NULL;
	if (e >= 0 && xdg && xdg[0] == '/' && strcmp(xdg, top) != 0)
		e = cordon_strv_push(&queue, xdg);
	size_t level_end = queue.n;
	int depth = 0, budget = CONFIG_LINKS_BUDGET;
	for (size_t q = 0; e >= 0 && q < queue.n && budget > 0; q++) {
		if (q == level_end) {
			depth++;
			level_end = queue.n;
		}
		DIR *d = opendir(queue.v[q]);
		for (struct dirent *de; d && e >= 0 && --budget > 0 && (de = readdir(d));) {
			if (cordon_dot_or_dotdot(de->d_name))
				continue;
			char path[PATH_MAX];
			if (snprintf(path, sizeof(path), "%s/%s", queue.v[q], de->d_name) >=
			    (int)sizeof(path))
				continue;
			unsigned char type = de->d_type;
			struct stat st;
			if (type == DT_UNKNOWN)
				type = lstat(path, &st) < 0  ? DT_UNKNOWN
				       : S_ISLNK(st.st_mode) ? DT_LNK
				       : S_ISDIR(st.st_mode) ? DT_DIR
							     : DT_REG;
			if ((type != DT_LNK && type != DT_DIR) ||
			    (p && cordon_policy_hidden(p, path)))
				continue;
			if (type == DT_LNK)
				e = each(path, arg);
			else if (depth < CONFIG_LINKS_DEPTH)
				e = cordon_strv_push(&queue, path);
		}
		if (d)
			closedir(d);
	}
	cordon_strv_free(&queue);
	return e;
}

struct named {
	struct cordon_policy *p;
	const char *home;
	struct cordon_path_cache *cache;
};

static int guard_one_named(const char *path, const char *file, void *arg)
{
	struct named *n = arg;
	cleanup_free char *abs = NULL, *canon = NULL;
	int r = cordon_path_absolute(path, n->home, NULL, &abs);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	/* Beneath a hidden path (IdentityFile ~/.ssh/id_work): kept by it.
	 * (Not ~/.ssh/../dotfiles/x: beneath it only as written, round 10.) */
	size_t an = strlen(abs);
	bool dotdot = strstr(abs, "/../") || (an >= 3 && strcmp(abs + an - 3, "/..") == 0);
	if ((!dotdot && cordon_policy_hidden(n->p, abs)) ||
	    (cordon_path_resolve_cached(abs, NULL, NULL, n->cache, &canon) == 0 &&
	     cordon_policy_hidden(n->p, canon)))
		return 0;
	char source[PATH_MAX + 16];
	snprintf(source, sizeof(source), CORDON_GUARD_NAMED "%s", file);
	/* zsh reads FILE.zwc (or DIR.zwc for an fpath directory) instead,
	 * when it is newer: a compiled one planted beside it. Whatever names
	 * it: a common.sh that ~/.bashrc and ~/.zshrc both source is sourced
	 * by zsh too (round 10 had it named by ~/.bashrc first). */
	/* Missing where the session could make it, an empty directory stands
	 * in for it (zsh skips one, silently): made inside and moved aside
	 * only as the session ended, it ran in a zsh started outside
	 * meanwhile (round 10). */
	char zwc[PATH_MAX + 8];
	snprintf(zwc, sizeof(zwc), "%s.zwc/", abs);
	r = guard_list_yield(n->p, (const char *const[]){abs, NULL}, CORDON_GUARD_PROTECT, true,
			     source, n->home, n->cache);
	return r < 0 ? r
		     : guard_list_yield(n->p, (const char *const[]){zwc, NULL},
					CORDON_GUARD_PROTECT | CORDON_GUARD_PLACEHOLDER, true,
					source, n->home, n->cache);
}

/* LINK, in ~/.config: kept read-only where it leads (a directory whole),
 * said as what it names. */
static int guard_config_link(const char *link, void *arg)
{
	struct named *n = arg;
	char source[PATH_MAX + 32];
	snprintf(source, sizeof(source), CORDON_GUARD_NAMED "%s (a link to it)", link);
	return guard_list_yield(n->p, (const char *const[]){link, NULL}, CORDON_GUARD_PROTECT, true,
				source, n->home, n->cache);
}

/* What the home's startup and config files source, run, include or put on
 * a search path by name (shim/dotfile-refs.c): kept as the dotfiles are,
 * yielding to a rule naming it. A review had bash, zsh, fish, ssh, git,
 * tmux and vim outside run what a session wrote there, in a writable home
 * and with a dotfiles repository as the project. */
static char *known_config_home;
static char *(*known_real_getenv)(const char *);

/* The environment with known_config_home as XDG_CONFIG_HOME. */
static char *known_getenv(const char *name)
{
	if (strcmp(name, "XDG_CONFIG_HOME") == 0)
		return known_config_home;
	return known_real_getenv ? known_real_getenv(name) : NULL;
}

static int guard_named(struct cordon_policy *p, const struct cordon_context *ctx,
		       struct cordon_path_cache *cache)
{
	struct named n = {.p = p, .home = ctx->home, .cache = cache};
	int r = cordon_dotfile_refs(ctx->home, ctx->getenv_fn, guard_one_named, &n);
	if (r >= 0)
		r = config_links(p, ctx->home, ctx->getenv_fn, guard_config_link, &n);
	/* And in each config directory earlier launches had as
	 * XDG_CONFIG_HOME (cordon_home_xdg): a core.hooksPath its git/config
	 * names in the project was written by a launch without the variable,
	 * and git commit outside, with it, ran the hook. */
	struct cordon_strv dirs = {0};
	const char *now = ctx->getenv_fn ? ctx->getenv_fn("XDG_CONFIG_HOME") : NULL;
	if (r >= 0 && ctx->home)
		r = cordon_home_xdg("~/.config", ctx->home, ctx, &dirs);
	for (size_t i = 0; r >= 0 && i < dirs.n; i++) {
		if (now && strcmp(now, dirs.v[i]) == 0)
			continue;
		r = cordon_dotfile_refs_config(ctx->home, dirs.v[i], guard_one_named, &n);
		known_config_home = dirs.v[i];
		known_real_getenv = ctx->getenv_fn;
		if (r >= 0)
			r = config_links(p, ctx->home, known_getenv, guard_config_link, &n);
		known_config_home = NULL;
	}
	cordon_strv_free(&dirs);
	return r;
}

/* LIST kept as protected_paths are (SOURCE): in the project, and in each
 * directory the user made writable besides it (a sibling repository). */
static int guard_protected(struct cordon_policy *p, const char *const *list, const char *source,
			   const char *home, struct cordon_path_cache *cache)
{
	int r = guard_list(p, list, CORDON_GUARD_PROTECT | CORDON_GUARD_PLACEHOLDER, source, home,
			   cache);
	for (size_t i = 0, n = p->n_rules; r >= 0 && i < n; i++)
		if (cordon_policy_writable_root(p, &p->rules[i]))
			r = guard_root(p, list, source, home, p->rules[i].path, cache);
	return r;
}

/* mise's config environments: with MISE_ENV=staging (or MISE_PROFILE,
 * MISE_ENVIRONMENT, a list separated by commas, or an `env` a
 * .miserc.toml sets), mise reads mise.staging.toml and its kin in every
 * directory from where it runs up, hooks and tasks included, as it reads
 * mise.toml. Those names of the environments the user's own settings
 * name (the launcher's environment, the miserc files at the project's top
 * and above it, the user's and the system's) and those whose files the
 * project's top already holds are protected as mise.toml is, where the
 * protected list has it. (What `mise -E NAME` names on a command line is
 * not known here: the file of any other environment that a session made
 * or changed is moved aside as it ends, judge_mise_envs_at in sweep.c;
 * one made at a root's top as it appears, add_mise_envs in reguard.c.) */
static const char *const mise_env_forms[][2] = {
	{"mise.", ".toml"},         {"mise.", ".local.toml"},
	{".mise.", ".toml"},        {".mise.", ".local.toml"},
	{"mise/config.", ".toml"},  {"mise/config.", ".local.toml"},
	{".config/mise.", ".toml"}, {".config/mise.", ".local.toml"}};
#define MISE_ENVS_MAX 64

bool cordon_mise_env_file(const char *dir, const char *name, char *out, size_t size)
{
	static const char *const heads[] = {"mise.", ".mise.", "config."};
	size_t n = strlen(name), k = 0;
	while (k < ARRAY_SIZE(heads) && strncmp(name, heads[k], strlen(heads[k])) != 0)
		k++;
	if (k == ARRAY_SIZE(heads) || (k == 2 && strcmp(dir, "mise") != 0))
		return false;
	size_t hn = strlen(heads[k]);
	/* (Not mise.toml itself: no environment's.) */
	if (n <= hn + 5 || strcmp(name + n - 5, ".toml") != 0)
		return false;
	const char *env = name + hn;
	size_t en = n - hn - 5;
	if (en == 5 && strncmp(env, "local", 5) == 0)
		en = 0; /* mise.local.toml: the local file, no environment's */
	else if (en > 6 && strncmp(env + en - 6, ".local", 6) == 0)
		en -= 6; /* mise.ENV.local.toml */
	else if (en >= 6 && strncmp(env + en - 6, ".local", 6) == 0)
		return false; /* (mise..local.toml: none mise reads) */
	if (out && size)
		snprintf(out, size, "%.*s", (int)en, env);
	return true;
}

struct mise_envs {
	struct cordon_strv names;
	size_t dropped; /* past MISE_ENVS_MAX */
	size_t refused; /* names that are no file's part (mise_env_push) */
};

/* The environment name in the N bytes at S, pushed to OUT: not one with a
 * slash, a template's braces or percent signs (not a file's part), or a
 * control character (said as is by explain: round 32b G6). */
static int mise_env_push(const char *s, size_t n, struct mise_envs *out)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	if (n > 64) {
		out->refused++;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f || strchr("/{}%", s[i])) {
			out->refused++;
			return 0;
		}
	cleanup_free char *name = strndup(s, n);
	if (!name)
		return -ENOMEM;
	if (cordon_strv_contains(&out->names, name))
		return 0;
	if (out->names.n >= MISE_ENVS_MAX) {
		out->dropped++;
		return 0;
	}
	return cordon_strv_push(&out->names, name);
}

static int mise_env_list(const char *v, struct mise_envs *out)
{
	int r = 0;
	while (r >= 0 && v && *v) {
		size_t n = strcspn(v, ",");
		r = mise_env_push(v, n, out);
		v += n + (v[n] == ',');
	}
	return r;
}

/* The `env` a miserc file at PATH sets, read as text: `env = "a"`, or
 * `env = [...]` over as many lines as it takes (round 32b G3), each
 * quoted string in it; a comment (#) outside quotes ends a line. */
static int mise_rc_envs(const char *path, struct mise_envs *out)
{
	size_t len = 0;
	cleanup_free char *text = cordon_read_regular(path, 64 << 10, &len);
	if (!text)
		return 0;
	int r = 0;
	for (const char *line = text; r >= 0 && line && *line;) {
		const char *at = line + strspn(line, " \t");
		const char *eol = strchr(line, '\n');
		line = eol ? eol + 1 : NULL;
		/* (The key bare or quoted: "env" is TOML's too, round 32c H3.) */
		size_t k = strncmp(at, "env", 3) == 0                                       ? 3
			   : strncmp(at, "\"env\"", 5) == 0 || strncmp(at, "'env'", 5) == 0 ? 5
											    : 0;
		if (!k || (at += k + strspn(at + k, " \t"))[0] != '=')
			continue;
		at++;
		bool list = false;
		for (int depth = 0; r >= 0 && *at;) {
			char c = *at++;
			if (c == '#') { /* (to the end of the line) */
				at += strcspn(at, "\n");
				continue;
			}
			if (c == '\n' && !list)
				break;
			if (c == '[') {
				list = true;
				depth++;
			} else if (c == ']' && --depth <= 0) {
				break;
			} else if (c == '"' || c == '\'') {
				const char *close = strchr(at, c);
				const char *nl = strchr(at, '\n');
				if (!close || (nl && nl < close))
					break; /* (not closed on its line: not TOML) */
				r = mise_env_push(at, (size_t)(close - at), out);
				at = close + 1;
				if (!list)
					break;
			}
		}
		/* (From the line after the value: where it ended at a line's
		 * end, the very next one.) */
		if (at > text && at[-1] == '\n')
			line = at;
		else if ((line = *at ? strchr(at, '\n') : NULL))
			line++;
	}
	return r;
}

/* The environments whose files (cordon_mise_env_file) are in the
 * directory PATH, whose own name is NAME, pushed to OUT: the user's
 * own mise.production.toml is protected though no setting names it as
 * cordon starts (mise -E production, later, outside). */
static int mise_env_files_in(const char *path, const char *name, struct mise_envs *out)
{
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int r = 0;
	char env[NAME_MAX + 1];
	for (struct dirent *e; r >= 0 && (e = readdir(d));)
		if (cordon_mise_env_file(name, e->d_name, env, sizeof(env)) && env[0])
			r = mise_env_push(env, strlen(env), out);
	closedir(d);
	return r;
}

static int guard_mise_env(struct cordon_policy *p, const struct cordon_context *ctx,
			  const char *const *protected, struct cordon_path_cache *cache)
{
	bool mise = false;
	for (size_t i = 0; protected && protected[i] && !mise; i++)
		mise = strcmp(protected[i], "mise.toml") == 0;
	if (!mise || !p->project)
		return 0;
	struct mise_envs envs = {0};
	static const char *const vars[] = {"MISE_PROFILE", "MISE_ENV", "MISE_ENVIRONMENT"};
	int r = 0;
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(vars) && ctx->getenv_fn; i++)
		r = mise_env_list(ctx->getenv_fn(vars[i]), &envs);
	/* (The project's top and each directory above it, then the user's
	 * and the system's.) */
	char dir[PATH_MAX], f[PATH_MAX + 32];
	snprintf(dir, sizeof(dir), "%s", p->project);
	for (bool more = true; r >= 0 && more;) {
		static const char *const rcs[] = {".miserc.toml", ".config/miserc.toml"};
		for (size_t k = 0; r >= 0 && k < ARRAY_SIZE(rcs); k++) {
			snprintf(f, sizeof(f), "%s/%s", strcmp(dir, "/") ? dir : "", rcs[k]);
			r = mise_rc_envs(f, &envs);
		}
		char *slash = strrchr(dir, '/');
		more = slash && strcmp(dir, "/") != 0;
		if (more)
			slash[slash == dir] = '\0';
	}
	const char *mise_dir = ctx->getenv_fn ? ctx->getenv_fn("MISE_CONFIG_DIR") : NULL;
	if (r >= 0 && mise_dir && mise_dir[0] == '/') {
		snprintf(f, sizeof(f), "%s/miserc.toml", mise_dir);
		r = mise_rc_envs(f, &envs);
	} else if (r >= 0 && ctx->home) {
		struct cordon_strv at = {0};
		r = cordon_home_xdg_list((const char *const[]){"~/.config/mise/miserc.toml", NULL},
					 ctx->home, ctx, &at);
		for (size_t i = 0; r >= 0 && i < at.n; i++) {
			cleanup_free char *abs = NULL;
			if (cordon_path_absolute(at.v[i], ctx->home, NULL, &abs) == 0)
				r = mise_rc_envs(abs, &envs);
		}
		cordon_strv_free(&at);
	}
	const char *sys = ctx->getenv_fn ? ctx->getenv_fn("MISE_SYSTEM_CONFIG_DIR") : NULL;
	if (!sys || sys[0] != '/')
		sys = ctx->getenv_fn ? ctx->getenv_fn("MISE_SYSTEM_DIR") : NULL;
	if (r >= 0 && sys && sys[0] == '/') {
		snprintf(f, sizeof(f), "%s/miserc.toml", sys);
		r = mise_rc_envs(f, &envs);
	} else if (r >= 0) {
		r = mise_rc_envs("/etc/mise/miserc.toml", &envs);
	}
	/* (Then those whose files the project's top holds, or the top of
	 * another directory the user made writable, after the ones named:
	 * marked, CORDON_MISE_FOUND.) */
	size_t named = envs.names.n;
	static const char *const holding[] = {"", ".config", "mise"};
	for (size_t i = 0; r >= 0 && i <= p->n_rules; i++) {
		const char *top = i == 0 ? p->project : p->rules[i - 1].path;
		if (i > 0 && (!cordon_policy_writable_root(p, &p->rules[i - 1]) ||
			      strcmp(top, p->project) == 0))
			continue;
		for (size_t k = 0; r >= 0 && k < ARRAY_SIZE(holding); k++) {
			snprintf(f, sizeof(f), "%s/%s", top, holding[k]);
			r = mise_env_files_in(f, holding[k], &envs);
		}
	}
	if (r >= 0 && envs.dropped) {
		char *note;
		r = asprintf(&note,
			     "mise's config environments past the first %d (%zu more): their files "
			     "(mise.NAME.toml, ...) are not kept read-only; one a session makes or "
			     "changes is moved aside as it ends",
			     MISE_ENVS_MAX, envs.dropped) < 0
			    ? -ENOMEM
			    : cordon_strv_push_take(&p->skipped, note);
	}
	if (r >= 0 && envs.refused) {
		char *note;
		r = asprintf(
			    &note,
			    "mise's config environments named with a /, {}, %%, a control "
			    "character or past 64 bytes (%zu): their files are not kept read-only; "
			    "one a session makes or changes is moved aside as it ends",
			    envs.refused) < 0
			    ? -ENOMEM
			    : cordon_strv_push_take(&p->skipped, note);
	}
	for (size_t i = 0; r >= 0 && i < envs.names.n; i++) {
		char names[ARRAY_SIZE(mise_env_forms)][128];
		const char *list[ARRAY_SIZE(mise_env_forms) + 1] = {NULL};
		for (size_t k = 0; k < ARRAY_SIZE(mise_env_forms); k++) {
			snprintf(names[k], sizeof(names[k]), "%s%s%s", mise_env_forms[k][0],
				 envs.names.v[i], mise_env_forms[k][1]);
			list[k] = names[k];
		}
		cleanup_free char *source = NULL;
		if (asprintf(&source, "protected_paths: mise's config environment \"%s\"%s",
			     envs.names.v[i], i < named ? "" : CORDON_MISE_FOUND) < 0)
			r = -ENOMEM;
		else
			r = guard_protected(p, list, source, ctx->home, cache);
	}
	cordon_strv_free(&envs.names);
	return r;
}

/* A relative $XDG_CONFIG_HOME or $XDG_DATA_HOME (".cfg"), which the XDG
 * rules say to ignore: git takes it from the top of the repository it runs
 * in, and reads .cfg/git/config there, in any repository (round 11 ran the
 * core.fsmonitor a session wrote so); other tools from where they run. Its
 * first name is kept as a protected name is: read-only at the project's
 * top (an empty stand-in while it is missing), moved aside from any
 * directory below (a nested repository's top) where the session made or
 * changed it. */
static int guard_relative_xdg(struct cordon_policy *p, const struct cordon_context *ctx,
			      struct cordon_path_cache *cache)
{
	static const char *const vars[] = {"XDG_CONFIG_HOME", "XDG_DATA_HOME"};
	int r = 0;
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(vars) && ctx->getenv_fn; i++) {
		const char *v = ctx->getenv_fn(vars[i]);
		while (v && v[0] == '.' && v[1] == '/')
			v += 2;
		size_t n = v ? strcspn(v, "/") : 0;
		if (!v || v[0] == '/' || n == 0 || (n == 1 && v[0] == '.') ||
		    (n == 2 && v[0] == '.' && v[1] == '.'))
			continue;
		cleanup_free char *name = NULL, *source = NULL;
		if (asprintf(&name, "%.*s/", (int)n, v) < 0 ||
		    asprintf(&source, "protected_paths: $%s, relative", vars[i]) < 0)
			return -ENOMEM;
		r = guard_protected(p, (const char *const[]){name, NULL}, source, ctx->home, cache);
	}
	return r;
}

/* What direnv runs in the directories a write rule of P reaches (its
 * allow list and its whitelist), being read: those directories as the
 * rules name them and as resolved (direnv records resolved paths: a root
 * named through a link lost its entries, round 26b). */
struct direnv_read {
	struct cordon_policy *p;
	struct cordon_strv writable;
};

static bool reached_by_write(const struct direnv_read *d, const char *path)
{
	for (size_t k = 0; path[0] == '/' && k < d->writable.n; k++)
		if (cordon_path_under(path, d->writable.v[k]))
			return true;
	return false;
}

/* The end of the TOML string at T opened by Q (QQQ: TRIPLE): its closing
 * quote, a backslash in a basic ("") one escaping what follows it; NULL
 * where it does not close. */
static const char *toml_string_end(const char *t, char q, bool triple)
{
	for (; *t; t++) {
		if (q == '"' && *t == '\\' && t[1])
			t++;
		else if (!triple && *t == '\n')
			return NULL;
		else if (*t == q && (!triple || (t[1] == q && t[2] == q)))
			return t;
	}
	return NULL;
}

/* The UTF-8 bytes of the code point CP into OUT at *O (SIZE bytes): false
 * where it is none (a surrogate, past U+10FFFF, NUL) or does not fit. */
static bool put_utf8(unsigned long cp, char *out, size_t *o, size_t size)
{
	unsigned char b[4];
	size_t n;
	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return false;
	if (cp < 0x80) {
		b[0] = (unsigned char)cp, n = 1;
	} else if (cp < 0x800) {
		b[0] = (unsigned char)(0xC0 | cp >> 6), n = 2;
	} else if (cp < 0x10000) {
		b[0] = (unsigned char)(0xE0 | cp >> 12), n = 3;
	} else {
		b[0] = (unsigned char)(0xF0 | cp >> 18), n = 4;
	}
	for (size_t i = 1; i < n; i++)
		b[i] = (unsigned char)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3F));
	if (*o + n >= size)
		return false;
	memcpy(out + *o, b, n);
	*o += n;
	return true;
}

/* The body S (N bytes) of a TOML basic string, its escapes decoded as
 * direnv 2.32 decodes them (\b \t \n \f \r \" \\, \uXXXX, \UXXXXXXXX,
 * and in a multi-line one a backslash ending a line, which takes the
 * blanks after it), into OUT (SIZE bytes): false where one is not (\x and
 * \e fail its whole config) or it does not fit. */
static bool toml_unescape(const char *s, size_t n, char *out, size_t size)
{
	static const char plain[] = "b\bt\tn\nf\fr\r\"\"\\\\";
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			const char *p = strchr(plain, c);
			size_t digits = c == 'u' ? 4 : c == 'U' ? 8 : 0;
			if (digits) {
				unsigned long cp = 0;
				for (size_t k = 1; k <= digits; k++) {
					if (i + k >= n || !isxdigit((unsigned char)s[i + k]))
						return false;
					char hex[2] = {s[i + k], '\0'};
					cp = cp << 4 | strtoul(hex, NULL, 16);
				}
				if (!put_utf8(cp, out, &o, size))
					return false;
				i += digits;
				continue;
			}
			if (strchr(" \t\r\n", c)) { /* a line's end */
				size_t j = i + strspn(s + i, " \t\r");
				if (j >= n || s[j] != '\n')
					return false;
				i = j + strspn(s + j, " \t\r\n") - 1;
				continue;
			}
			if (!p || (p - plain) % 2 != 0)
				return false;
			c = p[1];
		} else if (c == '\\') {
			return false;
		}
		if (o + 1 >= size)
			return false;
		out[o++] = c;
	}
	out[o] = '\0';
	return true;
}

/* The quoted strings of the TOML array (or string) after "KEY =" at T,
 * up to its "]" (a line, or more for an array), each to FN: a basic
 * ("") one with its escapes decoded (one that cannot be is left out). */
static int toml_strings(const char *t, struct direnv_read *d,
			int (*fn)(struct direnv_read *d, const char *s))
{
	bool array = false;
	t += strspn(t, " \t");
	if (*t == '[') {
		array = true;
		t++;
	}
	int e = 0;
	while (e >= 0 && *t && (array ? *t != ']' : *t != '\n')) {
		if (*t == '#') {
			t += strcspn(t, "\n");
			continue;
		}
		if (*t != '"' && *t != '\'') {
			t++;
			continue;
		}
		char q = *t++;
		/* (A multi-line string, """x""": taken to its closing three.) */
		bool triple = t[0] == q && t[1] == q;
		if (triple) {
			t += 2;
			t += *t == '\n';
		}
		const char *end = toml_string_end(t, q, triple);
		if (!end)
			break;
		size_t n = (size_t)(end - t);
		char s[PATH_MAX];
		if (q == '"' ? toml_unescape(t, n, s, sizeof(s)) : n < sizeof(s)) {
			if (q != '"') {
				memcpy(s, t, n);
				s[n] = '\0';
			}
			e = fn(d, s);
		}
		t = end + (triple ? 3 : 1);
		if (!array)
			break;
	}
	return e;
}

/* direnv's [whitelist] exact entry S: an .envrc (a directory names its
 * .envrc) it runs whatever it holds. */
static int whitelisted_exact(struct direnv_read *d, const char *s)
{
	char path[PATH_MAX];
	size_t n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		n--;
	const char *base = memrchr(s, '/', n);
	bool file = base && ((n - (size_t)(base - s) == 7 && strncmp(base, "/.envrc", 7) == 0) ||
			     (n - (size_t)(base - s) == 5 && strncmp(base, "/.env", 5) == 0));
	if (s[0] != '/' ||
	    (size_t)snprintf(path, sizeof(path), "%.*s%s", (int)n, s, file ? "" : "/.envrc") >=
		    sizeof(path) ||
	    !reached_by_write(d, path))
		return 0;
	return cordon_strv_push_new(&d->p->envrc_whitelisted, path);
}

/* direnv's [whitelist] prefix entry S: it runs any .envrc whose path
 * starts with it. Kept where a write rule reaches below it, or it is
 * below one. */
static int whitelisted_prefix(struct direnv_read *d, const char *s)
{
	if (s[0] != '/')
		return 0;
	bool near = reached_by_write(d, s);
	for (size_t k = 0; !near && k < d->writable.n; k++)
		near = strncmp(d->writable.v[k], s, strlen(s)) == 0;
	return near ? cordon_strv_push_new(&d->p->envrc_prefixes, s) : 0;
}

/* The TOML key at T, up to the first of ENDS outside quotes, without its
 * quotes and blanks (["whitelist"] and [ whitelist ] are [whitelist];
 * whitelist."exact" is whitelist.exact), into OUT: where it ends. */
static const char *toml_key(const char *t, const char *ends, char *out, size_t size)
{
	size_t n = 0;
	char q = 0;
	for (; *t && *t != '\n' && (q || !strchr(ends, *t)); t++) {
		if ((*t == '"' || *t == '\'') && (!q || q == *t)) {
			if (q)
				q = 0;
			else
				q = *t;
		} else if ((q || (*t != ' ' && *t != '\t')) && n + 1 < size)
			out[n++] = *t;
	}
	out[n] = '\0';
	return t;
}

/* One line of direnv's config, in SECTION (or none): an exact or a prefix
 * of its whitelist, as a table's key (exact = [...] in [whitelist]), a
 * dotted key (whitelist.exact = [...]) or an inline table (whitelist = {
 * exact = [...], prefix = "..." }), all of which direnv 2.32 obeys. */
static int whitelist_line(struct direnv_read *d, const char *section, const char *t)
{
	char key[64], full[140];
	const char *eq = toml_key(t, "=", key, sizeof(key));
	if (*eq != '=')
		return 0;
	snprintf(full, sizeof(full), "%s%s%s", section, section[0] ? "." : "", key);
	const char *v = eq + 1 + strspn(eq + 1, " \t");
	if (strcmp(full, "whitelist.exact") == 0)
		return toml_strings(v, d, whitelisted_exact);
	if (strcmp(full, "whitelist.prefix") == 0)
		return toml_strings(v, d, whitelisted_prefix);
	if (strcmp(full, "whitelist") != 0 || *v != '{')
		return 0;
	int e = 0;
	for (const char *c = v + 1; e >= 0 && *c && *c != '}' && *c != '\n';) {
		c += strspn(c, " \t,");
		const char *at = toml_key(c, "=,}", key, sizeof(key));
		if (*at != '=')
			break;
		at++;
		if (strcmp(key, "exact") == 0 || strcmp(key, "prefix") == 0)
			e = toml_strings(at, d,
					 key[0] == 'e' ? whitelisted_exact : whitelisted_prefix);
		/* (Past the value: an array's "]", or a string's end.) */
		at += strspn(at, " \t");
		const char *close = *at == '[' ? strchr(at, ']') : strpbrk(at + 1, "\"'");
		if (!close)
			break;
		c = close + 1;
	}
	return e;
}

/* direnv's config ($XDG_CONFIG_HOME/direnv/direnv.toml or config.toml,
 * else in ~/.config): its [whitelist] exact and prefix entries, into P's
 * lists (the launcher cannot be told otherwise that direnv runs an
 * .envrc nobody allowed). Read as text: a section header, then KEY = a
 * string or an array of strings. */
/* ENTRY ("~/...") in CTX's home and where XDG moves it (this launch's
 * variable, earlier launches': cordon_home_xdg), absolute, into OUT once
 * each. 0 or -ENOMEM. */
static int push_kept(struct cordon_strv *out, const char *entry, const char *home);

static int home_xdg_dirs(const char *entry, const struct cordon_context *ctx,
			 struct cordon_strv *out)
{
	struct cordon_strv at = {0};
	int e = cordon_home_xdg_list((const char *const[]){entry, NULL}, ctx->home, ctx, &at);
	for (size_t i = 0; e >= 0 && i < at.n; i++)
		e = push_kept(out, at.v[i], ctx->home);
	cordon_strv_free(&at);
	return e;
}

/* The whitelist of direnv's config in DIR (direnv.toml, config.toml). */
static int read_direnv_toml(struct direnv_read *d, const char *dir)
{
	int e = 0;
	static const char *const names[] = {"direnv.toml", "config.toml"};
	for (size_t i = 0; e >= 0 && i < ARRAY_SIZE(names); i++) {
		char path[PATH_MAX + 16];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* (Whole, to 1 MiB: a longer one is no config anyone writes,
		 * and 64 KiB left its end unread: round 26c.) */
		size_t n = 0;
		char *text = cordon_read_regular(path, 1 << 20, &n);
		if (!text && errno == ENOMEM)
			return -ENOMEM;
		if (!text)
			continue;
		char section[64] = "";
		for (char *line = text; e >= 0 && line && *line;) {
			char *t = line + strspn(line, " \t");
			if (*t == '[' && t[1] != '[')
				toml_key(t + 1, "]", section, sizeof(section));
			else if (*t != '#' && *t != '[')
				e = whitelist_line(d, section, t);
			line = strchr(line, '\n');
			line = line ? line + 1 : NULL;
		}
		free(text);
	}
	return e;
}

static int read_direnv_whitelist(struct direnv_read *d, const struct cordon_context *ctx)
{
	/* (Where direnv looks: $DIRENV_CONFIG first: round 26c.) */
	const char *conf = ctx->getenv_fn ? ctx->getenv_fn("DIRENV_CONFIG") : NULL;
	/* (Else ~/.config's, $XDG_CONFIG_HOME's and those of earlier
	 * launches': direnv outside may be run with either.) */
	struct cordon_strv dirs = {0};
	int e = conf && conf[0] == '/' ? cordon_strv_push(&dirs, conf)
		: ctx->home            ? home_xdg_dirs("~/.config/direnv", ctx, &dirs)
				       : 0;
	for (size_t k = 0; e >= 0 && k < dirs.n; k++)
		e = read_direnv_toml(d, dirs.v[k]);
	cordon_strv_free(&dirs);
	return e;
}

/* The .envrc files direnv allows that a write rule of P reaches, into
 * P->envrc_allowed: direnv's allow list ($XDG_DATA_HOME/direnv/allow,
 * ~/.local/share/direnv/allow) holds a file for each version of each it
 * allowed, named by the hash of its path and its bytes and holding its
 * path; direnv runs no other (but what its whitelist names: above). What
 * those below a root's top load is protected (shim/guard.c). A session
 * cannot write the list: ~/.local/share/direnv is protected and hidden.
 * Each entry is read (~6 us a launch; direnv prune removes stale ones):
 * a cap would leave out, unsaid, whatever came past it in the
 * directory's order (round 26b). */
/* The path the allow list entry NAME in the directory DFD holds (its
 * first line), into PATH (SIZE bytes): false where it is no regular file
 * or empty. */
static bool allow_entry(int dfd, const char *name, char *path, size_t size)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	ssize_t n = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, path, size - 1)
									  : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	path[n] = '\0';
	path[strcspn(path, "\n")] = '\0';
	return path[0] != '\0';
}

static int read_direnv_allowed(struct direnv_read *d, const struct cordon_context *ctx)
{
	/* ($XDG_DATA_HOME's, ~/.local/share's and those of earlier
	 * launches'.) */
	struct cordon_strv dirs = {0};
	int e = ctx->home ? home_xdg_dirs("~/.local/share/direnv/allow", ctx, &dirs) : 0;
	for (size_t i = 0; e >= 0 && i < dirs.n; i++) {
		e = cordon_strv_push_new(&d->p->direnv_allow_dirs, dirs.v[i]);
		int dfd = e < 0 ? -1 : open(dirs.v[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
		if (!dir) {
			if (dfd >= 0)
				close(dfd);
			continue;
		}
		for (struct dirent *de; e >= 0 && (de = readdir(dir));) {
			char path[PATH_MAX];
			/* (Those of other projects, most of the list, are left:
			 * only one a write rule reaches can be below a root.) */
			if (de->d_name[0] != '.' &&
			    allow_entry(dfd, de->d_name, path, sizeof(path)) &&
			    reached_by_write(d, path))
				e = cordon_strv_push_new(&d->p->envrc_allowed, path);
		}
		closedir(dir);
	}
	cordon_strv_free(&dirs);
	return e;
}

/* P's write rules, as named and as resolved, into D->writable. */
static int direnv_writable(struct direnv_read *d, const struct cordon_policy *p)
{
	int e = 0;
	for (size_t k = 0; e >= 0 && k < p->n_rules; k++) {
		if (!(p->rules[k].access & CORDON_ACCESS_WRITE))
			continue;
		e = cordon_strv_push_new(&d->writable, p->rules[k].path);
		char *real = e >= 0 ? realpath(p->rules[k].path, NULL) : NULL;
		if (real)
			e = cordon_strv_push_new(&d->writable, real);
		free(real);
	}
	return e;
}

int cordon_policy_direnv_entry(const struct cordon_policy *p, const char *dir, const char *name,
			       char *out, size_t size)
{
	struct direnv_read d = {0};
	int dfd = name[0] == '.' ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool got = dfd >= 0 && allow_entry(dfd, name, out, size);
	if (dfd >= 0)
		close(dfd);
	int e = got ? direnv_writable(&d, p) : 0;
	int r = e < 0 ? e : got && reached_by_write(&d, out);
	cordon_strv_free(&d.writable);
	return r;
}

static int read_envrc_allowed(struct cordon_policy *p, const struct cordon_context *ctx)
{
	struct direnv_read d = {.p = p};
	int e = direnv_writable(&d, p);
	if (e >= 0)
		e = read_direnv_allowed(&d, ctx);
	if (e >= 0)
		e = read_direnv_whitelist(&d, ctx);
	cordon_strv_free(&d.writable);
	return e;
}

/* A, B and C joined, pushed to V (once): 0 or -ENOMEM. */
static int push_path(struct cordon_strv *v, const char *a, const char *b, const char *c)
{
	cleanup_free char *s = cordon_join3(a, b, c);
	return !s ? -ENOMEM : cordon_strv_push_new(v, s);
}

int cordon_policy_omz_envs(const struct cordon_policy *p, const char *list, struct cordon_strv *out)
{
	struct direnv_read d = {0};
	size_t len = 0;
	cleanup_free char *text =
		p->omz_dotenv_name ? cordon_read_regular(list, 1u << 20, &len) : NULL;
	int e = text ? direnv_writable(&d, p) : 0;
	for (char *line = text, *next; e >= 0 && line && line < text + len; line = next) {
		next = line + strcspn(line, "\n");
		*next++ = '\0';
		if (line[0] == '/' && reached_by_write(&d, line))
			e = push_path(out, strcmp(line, "/") ? line : "", "/", p->omz_dotenv_name);
	}
	cordon_strv_free(&d.writable);
	return e;
}

/* The value LINE gives VAR, as zsh would take it, into OUT (SIZE bytes):
 * wherever VAR stands as a name (not part of a longer one) followed by
 * "=" (an assignment, export, typeset, readonly, after a ";" or another
 * assignment) or ":=" (${VAR:=value}), the value bare or quoted; the
 * last one on the line. A line that is a comment sets nothing. Reading
 * more than zsh would only keeps more. */
static bool zsh_sets(const char *line, const char *var, char *out, size_t size)
{
	size_t vn = strlen(var);
	bool found = false;
	if (line[strspn(line, " \t")] == '#')
		return false;
	for (const char *at = strstr(line, var); at; at = strstr(at + 1, var)) {
		unsigned char before = at > line ? (unsigned char)at[-1] : ' ';
		if (isalnum(before) || before == '_')
			continue;
		const char *v = at + vn;
		if (v[0] == ':' && v[1] == '=')
			v++;
		if (v[0] != '=')
			continue;
		v++;
		const char *ends = v[0] == '"' ? "\"" : v[0] == '\'' ? "'" : " \t;}#)|&";
		v += ends[1] == '\0'; /* (quoted) */
		size_t n = strcspn(v, ends);
		if (n + 1 > size)
			continue;
		memcpy(out, v, n);
		out[n] = '\0';
		found = true;
	}
	return found;
}

/* What zsh's startup files (the system's, the home's, $ZDOTDIR's) and
 * oh-my-zsh's custom *.zsh files say of its dotenv plugin: where
 * ZSH_DOTENV_PROMPT is set to false (the plugin then asks nothing before
 * it exports a directory's .env) into *OFF (malloc'd, or NULL), and the
 * name ZSH_DOTENV_FILE is set to there into NAME (SIZE bytes; left as it
 * is where none is). The environment's own settings come first. */
static int omz_settings(const struct cordon_context *ctx, char **off, char *name, size_t size)
{
	char *(*env)(const char *) = ctx->getenv_fn;
	*off = NULL;
	const char *v = env ? env("ZSH_DOTENV_PROMPT") : NULL;
	if (v && strcmp(v, "false") == 0 && !(*off = strdup("the environment")))
		return -ENOMEM;
	const char *named = env ? env("ZSH_DOTENV_FILE") : NULL;
	struct cordon_strv files = {0};
	static const char *const sys[] = {"/etc/zsh/zshenv", "/etc/zsh/zprofile", "/etc/zsh/zshrc",
					  "/etc/zsh/zlogin", "/etc/zshenv",       "/etc/zprofile",
					  "/etc/zshrc",      "/etc/zlogin"};
	static const char *const startup[] = {"/.zshenv", "/.zprofile", "/.zshrc", "/.zlogin"};
	int e = 0;
	for (size_t i = 0; e >= 0 && i < ARRAY_SIZE(sys); i++)
		e = cordon_strv_push(&files, sys[i]);
	/* ($ZDOTDIR's when set, and the home's: ~/.zshenv is where it is
	 * usually set.) */
	const char *zdot = env ? env("ZDOTDIR") : NULL;
	const char *dirs[] = {ctx->home, zdot && zdot[0] == '/' ? zdot : NULL};
	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++)
		for (size_t i = 0; e >= 0 && dirs[d] && i < ARRAY_SIZE(startup); i++)
			e = push_path(&files, dirs[d], startup[i], "");
	const char *custom = env ? env("ZSH_CUSTOM") : NULL, *omz = env ? env("ZSH") : NULL;
	cleanup_free char *dir = NULL;
	if (custom && custom[0] == '/')
		dir = strdup(custom);
	else if (omz && omz[0] == '/')
		dir = cordon_join3(omz, "/custom", "");
	else if (ctx->home)
		dir = cordon_join3(ctx->home, "/.oh-my-zsh/custom", "");
	DIR *dd = dir ? opendir(dir) : NULL;
	for (struct dirent *de; e >= 0 && dd && (de = readdir(dd));) {
		size_t n = strlen(de->d_name);
		if (n > 4 && strcmp(de->d_name + n - 4, ".zsh") == 0)
			e = push_path(&files, dir, "/", de->d_name);
	}
	if (dd)
		closedir(dd);
	for (size_t i = 0; e >= 0 && i < files.n; i++) {
		size_t len = 0;
		cleanup_free char *text = cordon_read_regular(files.v[i], 1u << 20, &len);
		for (char *line = text; line && line < text + len;) {
			char *next = line + strcspn(line, "\n");
			bool last = !*next;
			*next = '\0';
			char value[NAME_MAX + 1];
			if (!*off && zsh_sets(line, "ZSH_DOTENV_PROMPT", value, sizeof(value)) &&
			    strcmp(value, "false") == 0 && !(*off = strdup(files.v[i])))
				e = -ENOMEM;
			if (!named && zsh_sets(line, "ZSH_DOTENV_FILE", value, sizeof(value)) &&
			    value[0] && !strpbrk(value, "/$`") && strcmp(value, "..") != 0 &&
			    strcmp(value, ".") != 0)
				snprintf(name, size, "%s", value);
			line = last ? NULL : next + 1;
		}
	}
	cordon_strv_free(&files);
	return e;
}

/* Whether aider is at work here: its config or state in the home, its
 * histories in the project, or an aider on the caller's PATH. */
static bool aider_used(const struct cordon_policy *p, const struct cordon_context *ctx)
{
	struct stat st;
	char path[PATH_MAX];
	static const char *const home[] = {"/.aider.conf.yml", "/.aider"};
	for (size_t i = 0; ctx->home && i < ARRAY_SIZE(home); i++)
		if (snprintf(path, sizeof(path), "%s%s", ctx->home, home[i]) < (int)sizeof(path) &&
		    lstat(path, &st) == 0)
			return true;
	static const char *const proj[] = {"/.aider.input.history", "/.aider.chat.history.md"};
	for (size_t i = 0; p->project && i < ARRAY_SIZE(proj); i++)
		if (snprintf(path, sizeof(path), "%s%s", p->project, proj[i]) < (int)sizeof(path) &&
		    lstat(path, &st) == 0)
			return true;
	const char *env = ctx->getenv_fn ? ctx->getenv_fn("PATH") : NULL;
	cleanup_free char *found = NULL;
	return env && cordon_exec_find("aider", env, &found) == 0;
}

/* aider reads the .env at the git root as its own settings (round 59b F5:
 * AIDER_LINT_CMD, a command it runs after each edit, and OPENAI_API_BASE,
 * over the user's own): where aider is at work, the project's .env (and
 * each writable root's) is protected as oh-my-zsh's are; a write rule
 * naming it leaves it to the session. */
static int guard_aider_dotenv(struct cordon_policy *p, const struct cordon_context *ctx,
			      struct cordon_path_cache *cache)
{
	if (!p->project || !aider_used(p, ctx))
		return 0;
	struct cordon_strv envs = {0};
	int e = push_path(&envs, p->project, "/", ".env");
	for (size_t i = 0; e >= 0 && i < p->n_rules; i++)
		if (cordon_policy_writable_root(p, &p->rules[i]))
			e = push_path(&envs, p->rules[i].path, "/", ".env");
	for (size_t i = 0; e >= 0 && i < envs.n; i++)
		e = guard_list_in(p, (const char *const[]){envs.v[i], NULL}, CORDON_GUARD_PROTECT,
				  true, "protected_paths (a .env aider reads)", ctx->home, NULL,
				  cache);
	cordon_strv_free(&envs);
	return e;
}

/* oh-my-zsh's dotenv plugin: on each cd into a directory its allow list
 * names (the user answered "always" there once), it exports what the
 * .env there holds now, whatever that is (round 27: PROMPT='$(cmd)',
 * GIT_CONFIG_* naming a core.fsmonitor, CORDON_CONFIG naming a config
 * that turns cordon off). The .env (or $ZSH_DOTENV_FILE, when exported)
 * of each listed directory a write rule reaches is protected: read-only,
 * moved aside as it appears where missing; a write rule naming it itself
 * leaves it to the session. The lists are looked for where the plugin
 * keeps them ($ZSH_DOTENV_ALLOWED_LIST, $ZSH_CACHE_DIR, $ZSH/cache,
 * ~/.oh-my-zsh/cache, ~/.cache/oh-my-zsh). */
static int guard_omz_dotenv(struct cordon_policy *p, const struct cordon_context *ctx,
			    struct cordon_path_cache *cache)
{
	char *(*env)(const char *) = ctx->getenv_fn;
	const char *vars[][2] = {{"ZSH_DOTENV_ALLOWED_LIST", ""},
				 {"ZSH_CACHE_DIR", "/dotenv-allowed.list"},
				 {"ZSH", "/cache/dotenv-allowed.list"},
				 {"XDG_CACHE_HOME", "/oh-my-zsh/dotenv-allowed.list"}};
	struct cordon_strv lists = {0}, envs = {0};
	int e = 0;
	for (size_t i = 0; e >= 0 && env && i < ARRAY_SIZE(vars); i++) {
		const char *v = env(vars[i][0]);
		if (v && v[0] == '/')
			e = push_path(&lists, v, "", vars[i][1]);
	}
	static const char *const at_home[] = {"/.oh-my-zsh/cache/dotenv-allowed.list",
					      "/.cache/oh-my-zsh/dotenv-allowed.list"};
	for (size_t i = 0; e >= 0 && ctx->home && i < ARRAY_SIZE(at_home); i++)
		e = push_path(&lists, ctx->home, "", at_home[i]);
	const char *exported = env ? env("ZSH_DOTENV_FILE") : NULL;
	char name[NAME_MAX + 1] = ".env";
	if (exported && exported[0] && !strchr(exported, '/') && strcmp(exported, "..") != 0 &&
	    strcmp(exported, ".") != 0)
		snprintf(name, sizeof(name), "%s", exported);
	/* (Set in .zshrc, as the plugin's README says, it is not exported:
	 * read there, round 28b F5; and where the question is turned off.) */
	if (e >= 0)
		e = omz_settings(ctx, &p->omz_unasked, name, sizeof(name));
	if (e >= 0 && (cordon_strv_copy(&p->omz_dotenv_lists, &lists) < 0 ||
		       !(p->omz_dotenv_name = strdup(name))))
		e = -ENOMEM;
	for (size_t i = 0; e >= 0 && i < lists.n; i++)
		e = cordon_policy_omz_envs(p, lists.v[i], &envs);
	if (e >= 0)
		e = cordon_strv_copy(&p->omz_dotenv_kept, &envs);
	/* Told not to ask, it exports the .env of every directory entered:
	 * each root's top one is protected, and (a protected name at a root's
	 * top: shim/sweep.c) one made or changed below is moved aside as the
	 * session ends. */
	if (e >= 0 && p->omz_unasked && p->project)
		e = push_path(&envs, p->project, "/", name);
	for (size_t i = 0; e >= 0 && p->omz_unasked && i < p->n_rules; i++)
		if (cordon_policy_writable_root(p, &p->rules[i]))
			e = push_path(&envs, p->rules[i].path, "/", name);
	for (size_t i = 0; e >= 0 && i < envs.n; i++)
		e = guard_list_in(p, (const char *const[]){envs.v[i], NULL}, CORDON_GUARD_PROTECT,
				  true,
				  "protected_paths (a .env oh-my-zsh's dotenv plugin exports)",
				  ctx->home, NULL, cache);
	cordon_strv_free(&lists);
	cordon_strv_free(&envs);
	return e;
}

/* Whether DIR holds a repository: a .git or a .hg, or is a bare one
 * (HEAD). Not a session's stand-in for one (round 29c F1: another
 * session's, or a killed one's, made the directory a root, and the
 * names looked for above were not kept there). */
static bool holds_repository(const char *dir)
{
	static const char *const names[] = {".git", ".hg", "HEAD"};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct stat st;
		cleanup_free char *path = cordon_join3(dir, "/", names[i]);
		if (path && lstat(path, &st) == 0 && !cordon_is_stand_in_stat(&st))
			return true;
	}
	return false;
}

/* Each repository above the project that a write rule reaches (the
 * monorepo a project in /tmp/mono/web is a package of), made a root the
 * user made writable (a rule of its own, its access the same): the
 * session could write all of it, not only its .git (round 29 F3 made a
 * sibling repository with a core.fsmonitor and added it to the index as
 * a submodule: git status in the project ran it; round 29b F1, the same
 * with Mercurial's .hgsub and an extension its hgrc loads), so
 * protected_paths are kept in it and the sweep walks it, as in the
 * project. */
static int roots_above(struct cordon_policy *p)
{
	char up[PATH_MAX];
	if (!p->project || (size_t)snprintf(up, sizeof(up), "%s", p->project) >= sizeof(up))
		return 0;
	int r = 0;
	for (char *slash = strrchr(up, '/'); r >= 0 && slash && slash != up;
	     slash = strrchr(up, '/')) {
		*slash = '\0';
		unsigned access = cordon_policy_access(p, up, NULL);
		if ((access & CORDON_ACCESS_WRITE) && !cordon_never_project(up, p->home) &&
		    holds_repository(up))
			r = cordon_policy_add_rule(p, up, access, CORDON_ROOT_ABOVE);
	}
	return r;
}

/* Whether DIR is, or lies in, a root the user made writable (the sweep
 * walks it as the project). */
static bool in_root(const struct cordon_policy *p, const char *dir)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (cordon_path_under(dir, p->rules[i].path) &&
		    cordon_policy_writable_root(p, &p->rules[i]))
			return true;
	return false;
}

/* The names looked for above (cordon_found_above) in each directory a
 * system_paths.read_write rule makes writable (/tmp, /var/tmp, /dev/shm,
 * the runtime directory; the sticky ones are P's shared, which the sweep
 * walks below their top), and in each
 * directory above the project that a
 * write rule reaches and that is in no root (a project in /tmp/a/web:
 * /tmp/a and /tmp; a repository above the project is a root, its own
 * as the project's are, where npm install makes node_modules): a
 * program run below it outside, in a directory of the user's or in the
 * project, obeys one made there. Missing, each is moved aside as it
 * appears (shim/linux/reguard.c) and as the session ends. There as the
 * session starts, it is read-only at such a directory's top (no one's
 * work is /tmp/node_modules), and left writable above the project (the
 * user's), but for a repository's hooks, config and info (kept as
 * protected_paths keeps the project's) and Mercurial's hgrc, where that
 * repository is no root (a home holding one, which is never a root).
 * (Linux: the missing ones in P's above, the rest guards; macOS: all
 * guards, each a deny rule by path.) */
static int guard_found_above(struct cordon_policy *p, const struct cordon_context *ctx,
			     struct cordon_path_cache *cache)
{
	struct cordon_strv dirs = {0};
	int r = 0;
	char system_rw[64];
	snprintf(system_rw, sizeof(system_rw), "system_paths.%s",
		 cordon_class_key(CORDON_CLASS_RW));
	for (size_t i = 0; r >= 0 && i < p->n_rules; i++) {
		const struct cordon_rule *rule = &p->rules[i];
		struct stat st;
		/* (Not /dev/fd, a link to /proc/self/fd.) */
		if ((rule->access & CORDON_ACCESS_WRITE) &&
		    strncmp(rule->source, system_rw, strlen(system_rw)) == 0 &&
		    !cordon_path_under(rule->path, "/proc") &&
		    !cordon_path_under(rule->path, "/sys") &&
		    (!p->project || !cordon_path_under(rule->path, p->project)) &&
		    lstat(rule->path, &st) == 0 && S_ISDIR(st.st_mode)) {
			r = cordon_strv_push_new(&dirs, rule->path);
			/* Swept below the top where everyone works: a sticky
			 * directory (/tmp, /var/tmp, /dev/shm), and the user's
			 * runtime directory, its servers', where a session
			 * may leave a repository a link in the project leads
			 * git into (round 51c F1; 0.3 ms a launch a directory
			 * swept; the file systems mounted below it are not). */
			char runtime[64];
			snprintf(runtime, sizeof(runtime), "/run/user/%u", (unsigned)ctx->uid);
			if (r >= 0 && ((st.st_mode & S_ISVTX) || strcmp(rule->path, runtime) == 0))
				r = cordon_strv_push_new(&p->shared, rule->path);
		}
	}
	size_t tops = dirs.n;
	char up[PATH_MAX];
	if (p->project && (size_t)snprintf(up, sizeof(up), "%s", p->project) < sizeof(up))
		for (char *slash = strrchr(up, '/'); r >= 0 && slash && slash != up;
		     slash = strrchr(up, '/')) {
			*slash = '\0';
			if ((cordon_policy_access(p, up, NULL) & CORDON_ACCESS_WRITE) &&
			    !in_root(p, up))
				r = cordon_strv_push_new(&dirs, up);
		}
	static const char *const git[] = {".git/hooks", ".git/config", ".git/info", NULL};
	static const char *const bare[] = {"hooks", "config", "info", NULL};
	static const char *const hg[] = {".hg/hgrc", ".hg/hgrc-not-shared", ".hg/sharedpath", NULL};
	for (size_t i = 0; r >= 0 && i < dirs.n; i++) {
		struct cordon_strv names = {0};
		/* (Read once; where it cannot be, each asked.) */
		cordon_above_set present, missing = {0};
		bool listed = cordon_found_above_in(dirs.v[i], &present) == 0;
		char path[PATH_MAX];
		size_t dn = strlen(dirs.v[i]);
		if (dn + 2 + NAME_MAX >= sizeof(path))
			continue;
		memcpy(path, dirs.v[i], dn);
		path[dn] = '/';
		for (size_t k = 0; r >= 0 && cordon_found_above[k]; k++) {
			const char *name = cordon_found_above[k];
			struct stat st;
			memcpy(path + dn + 1, name, strlen(name) + 1);
			/* (Kept already: a root's protected_paths, .envrc/'s
			 * stand-in among them, which the watch would take for
			 * one made.) */
			if (cordon_policy_guard(p, path))
				continue;
			/* (Another session's stand-in is a name missing: it
			 * goes as that session ends: round 29c F1.) */
			bool there = (!listed || cordon_above_has(&present, k)) &&
				     lstat(path, &st) == 0 && !cordon_is_stand_in_stat(&st);
			if (!there && CORDON_OS_NATIVE == CORDON_OS_LINUX) {
				cordon_above_add(&missing, k);
				continue;
			}
			const char *const *sub = strcmp(name, ".git") == 0            ? git
						 : there && strcmp(name, ".hg") == 0  ? hg
						 : there && strcmp(name, "HEAD") == 0 ? bare
										      : NULL;
			for (size_t j = 0; r >= 0 && sub && sub[j]; j++)
				r = push_path(&names, dirs.v[i], "/", sub[j]);
			if (r >= 0 && !sub && (!there || i < tops))
				r = cordon_strv_push_new(&names, path);
		}
		bool any = false;
		for (size_t w = 0; w < ARRAY_SIZE(missing.bits); w++)
			any |= missing.bits[w] != 0;
		if (r >= 0 && any) {
			struct cordon_above *nv = realloc(p->above, (p->n_above + 1) * sizeof(*nv));
			char *dir = nv ? strdup(dirs.v[i]) : NULL;
			if (nv)
				p->above = nv;
			if (!dir)
				r = -ENOMEM;
			else
				p->above[p->n_above++] = (struct cordon_above){dir, missing};
		}
		if (r >= 0)
			r = guard_list_in(p, (const char *const *)names.v, CORDON_GUARD_PROTECT,
					  false, CORDON_GUARD_ABOVE, ctx->home, NULL, cache);
		cordon_strv_free(&names);
	}
	cordon_strv_free(&dirs);
	return r;
}

/* A directory a rule lets the session write that another mount shows in a
 * shared directory too (the project a bind mount of /tmp/src): its rights
 * follow the directory, and there the session, or another, may rename it
 * (/tmp is writable), with its sockets, to where a client outside looks
 * (review 43e F4). It is shared too: no socket or link made in it, nothing
 * moved in (Linux; macOS has no shared rules). 0 or -ENOMEM. */
static int share_mounted_in_shared(struct cordon_policy *p)
{
	struct cordon_strv dirs = {0}, aliases = {0}, of = {0};
	int e = 0;
	for (size_t i = 0; e >= 0 && i < p->n_rules; i++) {
		struct stat st;
		if (!p->rules[i].shared && (p->rules[i].access & CORDON_ACCESS_WRITE) &&
		    stat(p->rules[i].path, &st) == 0 && S_ISDIR(st.st_mode))
			e = cordon_strv_push_new(&dirs, p->rules[i].path);
	}
	/* And what is mounted below them (the project's sub/ a bind of
	 * /tmp/src: Landlock cannot take rights away beneath a rule, so the
	 * whole rule is shared; review 45e F2). */
	if (e >= 0 && dirs.n)
		e = cordon_mount_aliases_below(&dirs, &aliases, &of);
	for (size_t i = 0; e >= 0 && i < aliases.n; i++) {
		if (!cordon_policy_in_shared(p, aliases.v[i], true))
			continue;
		/* (A mount point below a rule stands for that rule.) */
		const char *owner = of.v[i], *sub = NULL;
		if (!cordon_strv_contains(&dirs, owner))
			for (size_t j = 0; !sub && j < dirs.n; j++)
				if (cordon_path_under(of.v[i], dirs.v[j])) {
					owner = dirs.v[j];
					sub = of.v[i];
				}
		for (size_t k = 0; k < p->n_rules; k++) {
			struct cordon_rule *rule = &p->rules[k];
			if (rule->shared || strcmp(rule->path, owner) != 0)
				continue;
			rule->shared = true;
			rule->prepared = false;
			cleanup_free char *line = NULL;
			if ((sub ? asprintf(&line, "%s\tholds %s, which is also %s", rule->path,
					    sub, aliases.v[i])
				 : asprintf(&line, "%s\tis also %s", rule->path, aliases.v[i])) <
				    0 ||
			    cordon_strv_push_take(&p->shared_mounts, line) < 0)
				e = -ENOMEM;
			else
				line = NULL;
		}
	}
	cordon_strv_free(&dirs);
	cordon_strv_free(&aliases);
	cordon_strv_free(&of);
	return e;
}

/* The file or directory a Kerberos cache name CC names, into OUT (SIZE
 * bytes; "" where none): FILE:PATH, DIR:PATH (a collection), and DIR::PATH
 * (one cache in a collection: its directory, the collection, round 52e
 * F3: the "DIR::" form was taken for no path, and read). */
static void krb_cache_path(const char *cc, char *out, size_t size)
{
	out[0] = '\0';
	if (!cc)
		return;
	bool one = false;
	if (strncmp(cc, "FILE:", 5) == 0)
		cc += 5;
	else if (strncmp(cc, "DIR::", 5) == 0) {
		cc += 5;
		one = true;
	} else if (strncmp(cc, "DIR:", 4) == 0)
		cc += 4;
	if (cc[0] != '/' || (size_t)snprintf(out, size, "%s", cc) >= size) {
		out[0] = '\0';
		return;
	}
	char *slash = one ? strrchr(out, '/') : NULL;
	if (slash && slash != out)
		*slash = '\0';
}

/* krb5.conf's default_ccache_name ($KRB5_CONFIG's first file, else
 * /etc/krb5.conf), %{uid}, %{euid}, %{USERID} and %{TEMP} expanded, as
 * krb_cache_path takes it, into OUT ("" where none). */
static void krb_default_ccache(const struct cordon_context *ctx, char *out, size_t size)
{
	out[0] = '\0';
	const char *env = ctx->getenv_fn ? ctx->getenv_fn("KRB5_CONFIG") : NULL;
	char conf[PATH_MAX];
	snprintf(conf, sizeof(conf), "%s", env && env[0] == '/' ? env : "/etc/krb5.conf");
	conf[strcspn(conf, ":")] = '\0';
	size_t n = 0;
	cleanup_free char *text = cordon_read_regular(conf, 1 << 20, &n);
	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *t = line + strspn(line, " \t");
		if (strncmp(t, "default_ccache_name", 19) == 0) {
			t += 19;
			t += strspn(t, " \t");
			if (*t == '=') {
				t++;
				t += strspn(t, " \t");
				char name[PATH_MAX];
				size_t k = 0;
				for (const char *c = t;
				     *c && *c != ' ' && *c != '\t' && k + 16 < sizeof(name);) {
					if (strncmp(c, "%{uid}", 6) == 0 ||
					    strncmp(c, "%{euid}", 7) == 0 ||
					    strncmp(c, "%{USERID}", 9) == 0) {
						k += (size_t)snprintf(name + k, sizeof(name) - k,
								      "%u", (unsigned)ctx->uid);
						c = strchr(c, '}') + 1;
					} else if (strncmp(c, "%{TEMP}", 7) == 0) {
						k += (size_t)snprintf(name + k, sizeof(name) - k,
								      "/tmp");
						c += 7;
					} else
						name[k++] = *c++;
				}
				name[k] = '\0';
				krb_cache_path(name, out, size);
				return;
			}
		}
		line = next;
	}
}

/* What the guards keep in the writable home CTX->home (home_kept_in
 * lists the same). */
static int guard_home_kept(struct cordon_policy *p, const struct cordon_context *ctx,
			   struct cordon_path_cache *cache)
{
	int r = 0;
	for (size_t i = 0; r >= 0 && ctx->home && cordon_dotfiles[i]; i++) {
		cleanup_free char *s = NULL;
		if (asprintf(&s, "~/%s", cordon_dotfiles[i]) < 0)
			return -ENOMEM;
		r = guard_home_list(p, (const char *const[]){s, NULL}, CORDON_GUARD_PROTECT, false,
				    "dotfiles", ctx, cache);
	}
	/* What runs outside from a writable home: the directories a login puts
	 * on PATH (Debian's ~/.profile adds ~/.local/bin and ~/bin when they
	 * exist: an `ls` planted there runs at the next one), the systemd user
	 * manager's and the session bus's units and services, desktop entries
	 * (run when a file is opened). Made (0700) when missing, where the
	 * session could make them; ~/bin cannot be made in the closed home.
	 * Mounted only where a rule makes them writable. */
	if (r >= 0 && ctx->home)
		r = guard_home_list(p, home_run_dirs, CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE,
				    false, CORDON_GUARD_HOME_CODE, ctx, cache);
	if (r >= 0 && ctx->home)
		r = guard_list(p, (const char *const[]){"~/bin", NULL}, CORDON_GUARD_PROTECT,
			       CORDON_GUARD_HOME_CODE, ctx->home, cache);
	/* bash-completion sources a user's completion for CMD from here at the
	 * first CMD<TAB>, before the system's: made where it is installed. */
	struct stat st;
	bool completion = stat("/usr/share/bash-completion/bash_completion", &st) == 0 ||
			  stat("/etc/bash_completion", &st) == 0;
	if (r >= 0 && ctx->home)
		r = guard_home_list(p,
				    (const char *const[]){"~/.local/share/bash-completion", NULL},
				    CORDON_GUARD_PROTECT | (completion ? CORDON_GUARD_MAKE : 0),
				    true, CORDON_GUARD_HOME_CODE, ctx, cache);
	/* fish sources vendor_conf.d at every start and loads functions and
	 * completions from beside it: made where fish keeps its data. */
	cleanup_free char *fish = NULL;
	if (r >= 0 && ctx->home &&
	    cordon_path_absolute("~/.local/share/fish", ctx->home, NULL, &fish) == -ENOMEM)
		r = -ENOMEM;
	bool has_fish = fish && stat(fish, &st) == 0 && S_ISDIR(st.st_mode);
	if (r >= 0 && ctx->home)
		r = guard_home_list(p, fish_code,
				    CORDON_GUARD_PROTECT | (has_fish ? CORDON_GUARD_MAKE : 0), true,
				    CORDON_GUARD_HOME_CODE, ctx, cache);
	if (r >= 0 && ctx->home)
		r = guard_home_list(p, cordon_home_code, CORDON_GUARD_PROTECT, true,
				    CORDON_GUARD_HOME_CODE, ctx, cache);
	if (r >= 0 && ctx->home)
		r = guard_home_code_names(p, ctx, cache);
	/* The user-wide settings of coding agents and editors that keep them
	 * outside ~/.config: hooks, MCP servers and notify commands they run,
	 * editor extensions they load. A coding agent that starts cordon for
	 * its commands would run them outside. A rule naming one itself (to
	 * run that agent inside) keeps it writable. */
	if (r >= 0 && ctx->home)
		r = guard_home_list(p, agent_settings, CORDON_GUARD_PROTECT, true,
				    "agents' and editors' settings", ctx, cache);
	return r;
}

#define RUNTIME_MAX 320

/* $XDG_RUNTIME_DIR, resolved, where it is another directory than RUN
 * (/run/user/UID) that is the user's own (owned by the uid, whatever its
 * mode: a session that made it 0755 had later sessions leave it
 * unguarded, round 60f F2): where runc, podman, the session bus and
 * the user manager then keep what they trust. Not one in the project
 * (cordon would make its guards' directories there), nor one too long
 * for RUNTIME_MAX. Beneath a directory the session may write (Qt's
 * /tmp/runtime-USER) it is guarded all the same: protect() pins the
 * directories above a guard that a writable parent would let be renamed.
 * malloc'd, or NULL (errno ENOMEM when out of memory, else 0). */
static char *runtime_dir_own(const struct cordon_policy *p, const struct cordon_context *ctx,
			     const char *run)
{
	const char *v = ctx->getenv_fn ? ctx->getenv_fn("XDG_RUNTIME_DIR") : NULL;
	errno = 0;
	if (!v || v[0] != '/')
		return NULL;
	char *real = realpath(v, NULL);
	bool missing = !real && errno == ENOENT;
	if (missing) {
		/* Missing (Qt makes /tmp/runtime-USER when it needs it): a
		 * session could make it, where its parent is writable, and lay
		 * runc's state or units there for what trusts the variable
		 * later (round 60f F2). Its parent resolved, its name kept: its
		 * guards are made, and it with them, as the session starts. */
		const char *slash = strrchr(v, '/');
		cleanup_free char *parent = slash ? strndup(v, (size_t)(slash - v)) : NULL;
		cleanup_free char *up = parent ? realpath(parent[0] ? parent : "/", NULL) : NULL;
		if (!up || !slash[1] || strcmp(slash + 1, "..") == 0 ||
		    strcmp(slash + 1, ".") == 0 ||
		    asprintf(&real, "%s/%s", strcmp(up, "/") ? up : "", slash + 1) < 0)
			real = NULL;
		/* (Made by `cordon run` alone, 0700 as the spec asks: the flag
		 * it sets for what it makes before resolving; explain shows.) */
		if (real && ctx->make_toolchain_dirs &&
		    !(p->project && cordon_path_under(real, p->project)) && mkdir(real, 0700) == 0)
			missing = false;
	}
	if (!real)
		return errno = errno == ENOMEM ? ENOMEM : 0, NULL;
	cleanup_free char *run_real = realpath(run, NULL);
	struct stat st;
	if (strlen(real) + 32 > RUNTIME_MAX || strcmp(real, run_real ? run_real : run) == 0 ||
	    (!missing && (stat(real, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != ctx->uid)) ||
	    (p->project && cordon_path_under(real, p->project))) {
		free(real);
		errno = 0;
		return NULL;
	}
	return real;
}

/* The runtime directory BASE (/run/user/UID, or the user's own
 * $XDG_RUNTIME_DIR), read-write by default: the systemd user
 * manager loads units and drop-ins from its systemd/ (planted, they
 * would run outside at the next daemon-reload or login), GnuPG keeps
 * its servers' sockets in gnupg/, and podman keeps its registry
 * logins in containers/auth.json. */
static int guard_runtime_dir(struct cordon_policy *p, const struct cordon_context *ctx,
			     const char *base, struct cordon_path_cache *cache)
{
	static const char source[] = "the runtime directory";
	/* (BASE is short: runtime_dir_own.) */
	char units[RUNTIME_MAX], logins[RUNTIME_MAX], dbus[RUNTIME_MAX], gnupg[RUNTIME_MAX],
		gvfs[RUNTIME_MAX], doc[RUNTIME_MAX], psd[RUNTIME_MAX], creds[RUNTIME_MAX];
	snprintf(units, sizeof(units), "%s/systemd", base);
	snprintf(logins, sizeof(logins), "%s/containers/auth.json", base);
	snprintf(dbus, sizeof(dbus), "%s/dbus-1", base);
	snprintf(gnupg, sizeof(gnupg), "%s/gnupg", base);
	snprintf(gvfs, sizeof(gvfs), "%s/gvfs", base);
	snprintf(doc, sizeof(doc), "%s/doc", base);
	snprintf(psd, sizeof(psd), "%s/psd", base);
	snprintf(creds, sizeof(creds), "%s/credentials", base);
	/* The session bus takes services from dbus-1/services here
	 * before any other directory: one planted there would run
	 * outside when an outside program asks for its name. Both are
	 * made (0700) when missing, so that a mount keeps them: a
	 * missing one would be a name the watch moves aside as it
	 * appears, and the user manager makes systemd/ on its own
	 * (at a login while a session runs). gnupg/ holds the sockets
	 * of gpg-agent, dirmngr and keyboxd (in d.HASH/ for another
	 * GNUPGHOME), and libassuan follows a regular file at a socket's
	 * name that holds "%Assuan%\nsocket=PATH": one written there in
	 * place of S.gpg-agent would send gpg's passphrases outside to
	 * a server of the session's in /tmp, and stay after it. Made
	 * (0700, as gpg makes it) when missing; a GNUPGHOME whose d.HASH/
	 * is missing then keeps its sockets in itself inside, as gpg
	 * does where no socket directory can be made. */
	int r = guard_list(p, (const char *const[]){units, dbus, gnupg, NULL},
			   CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE, source, ctx->home, cache);
	/* Rootless container runtimes keep each container's state
	 * here and trust it: a poststop hook added to runc's
	 * runc/ID/state.json ran outside, unsandboxed, at the
	 * container's delete (round 59b F3). Read-only, made (0700)
	 * when missing: one missing was a name the watch moved aside
	 * as it appeared, the user's own runc's too, while any session
	 * ran (round 59d F3). Before the hidden ones: podman's
	 * containers/ is made before its auth.json is planned. */
	static const char *const runtimes[] = {"runc",       "crun",   "youki",
					       "containerd", "docker", "libpod",
					       "containers", "podman", "buildah"};
	char state[ARRAY_SIZE(runtimes)][RUNTIME_MAX];
	const char *list[ARRAY_SIZE(runtimes) + 1];
	for (size_t i = 0; i < ARRAY_SIZE(runtimes); i++) {
		snprintf(state[i], sizeof(state[i]), "%s/%s", base, runtimes[i]);
		list[i] = state[i];
	}
	list[ARRAY_SIZE(runtimes)] = NULL;
	if (r >= 0)
		r = guard_list(p, list, CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE,
			       "the runtime directory (container state)", ctx->home, cache);
	/* fnm's link for each shell that ran `fnm env`, whose bin/ is first
	 * on that shell's PATH: removed inside and replaced by a directory
	 * with a bin/node of the session's, the shell outside ran it at the
	 * next node (round 60e F2). A session makes no link here (the runtime
	 * directory takes none), so nothing that worked inside is lost.
	 * Made when missing, as the container state is. */
	char fnm[RUNTIME_MAX];
	snprintf(fnm, sizeof(fnm), "%s/fnm_multishells", base);
	if (r >= 0)
		r = guard_list(p, (const char *const[]){fnm, NULL},
			       CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE,
			       "the runtime directory (fnm's shell links)", ctx->home, cache);
	/* podman's registry logins; GVfs's mounts of the user's remote
	 * shares, and the document portal's files: both outside; the
	 * browser profiles profile-sync-daemon keeps here (what
	 * ~/.mozilla and ~/.config/chromium lead to: cookies, saved
	 * passwords); the credentials systemd gives user services. */
	if (r >= 0)
		r = guard_list(p, (const char *const[]){logins, gvfs, doc, psd, creds, NULL},
			       CORDON_GUARD_HIDE, source, ctx->home, cache);
	return r;
}

static int resolve_guards(const struct cordon_config *cfg, const struct cordon_context *ctx,
			  struct cordon_policy *p, struct cordon_path_cache *shared)
{
	struct cordon_path_cache cache = *shared;
	*shared = (struct cordon_path_cache){0};
	int r = guard_config(cfg, ctx, p, &cache);
	/* In the project, and in each directory the user made writable
	 * besides it (a sibling repository): what runs outside is kept as
	 * well there. */
	const char *const *protected = cfg->has_protected
					       ? (const char *const *)cfg->protected_paths.v
					       : cordon_default_protected;
	const char *psource = cfg->has_protected ? "protected_paths" : "protected_paths (default)";
	if (r >= 0 && protected && protected[0] && p->sandbox)
		r = roots_above(p);
	if (r >= 0)
		r = guard_protected(p, protected, psource, ctx->home, &cache);
	if (r >= 0 && cfg->additional_protected.n)
		r = guard_protected(p, (const char *const *)cfg->additional_protected.v,
				    "protected_paths (additional_protected_paths)", ctx->home,
				    &cache);
	if (r >= 0)
		r = guard_relative_xdg(p, ctx, &cache);
	if (r >= 0 && p->sandbox)
		r = guard_mise_env(p, ctx, protected, &cache);
	if (r >= 0 && protected && protected[0] && p->sandbox)
		r = guard_omz_dotenv(p, ctx, &cache);
	if (r >= 0 && protected && protected[0] && p->sandbox)
		r = guard_aider_dotenv(p, ctx, &cache);
	if (r >= 0 && protected && protected[0] && p->sandbox)
		r = guard_found_above(p, ctx, &cache);
	/* What a writable home keeps (home_kept_in): $HOME's, and the passwd
	 * home's where HOME names another (round 51b F2: a session wrote the
	 * passwd home's ~/.config/cordon/config.json, and the next launch ran
	 * unsandboxed). XDG's variables are $HOME's. */
	struct cordon_context pw = *ctx;
	pw.home = ctx->passwd_home;
	pw.getenv_fn = NULL;
	if (r >= 0)
		r = guard_home_kept(p, ctx, &cache);
	if (r >= 0 && pw.home)
		r = guard_home_kept(p, &pw, &cache);
	/* The runtime directory: /run/user/UID, and $XDG_RUNTIME_DIR where it
	 * names another directory of the user's own (round 59d F6: a system
	 * without logind, WSL, a container, Qt's /tmp/runtime-USER; runc,
	 * podman, the bus and the user manager use the variable's). */
	if (r >= 0 && ctx->os == CORDON_OS_LINUX) {
		char run[64];
		snprintf(run, sizeof(run), "/run/user/%u", (unsigned)ctx->uid);
		r = guard_runtime_dir(p, ctx, run, &cache);
		cleanup_free char *xdg = runtime_dir_own(p, ctx, run);
		if (r >= 0 && !xdg && errno == ENOMEM)
			r = -ENOMEM;
		if (r >= 0 && xdg)
			r = guard_runtime_dir(p, ctx, xdg, &cache);
	}
	/* Kerberos tickets: MIT's default file cache is in /tmp, which the
	 * default rules grant (a ticket-granting ticket is a login), or where
	 * KRB5CCNAME names a file or a directory. */
	if (r >= 0 && ctx->os == CORDON_OS_LINUX) {
		char krb[64];
		snprintf(krb, sizeof(krb), "/tmp/krb5cc_%u", (unsigned)ctx->uid);
		const char *cc = ctx->getenv_fn ? ctx->getenv_fn("KRB5CCNAME") : NULL;
		/* (And where krb5.conf's default_ccache_name puts them, for a
		 * launch without the variable: round 52e F3, Fedora's
		 * DIR:/run/user/%{uid}/krb5cc.) */
		char conf_cc[PATH_MAX] = "", env_cc[PATH_MAX] = "";
		krb_default_ccache(ctx, conf_cc, sizeof(conf_cc));
		krb_cache_path(cc, env_cc, sizeof(env_cc));
		const char *caches[4] = {krb, NULL, NULL, NULL};
		size_t nc = 1;
		if (env_cc[0])
			caches[nc++] = env_cc;
		if (conf_cc[0])
			caches[nc++] = conf_cc;
		r = guard_list(p, caches, CORDON_GUARD_HIDE, "Kerberos tickets", ctx->home, &cache);
		/* And every cache of the user's there by another name: sssd's
		 * and pam_krb5's krb5cc_UID_XXXXXX, another login's (round
		 * 52d F3: those KRB5CCNAME did not name were read). */
		struct cordon_strv more = {0};
		char pattern[80];
		snprintf(pattern, sizeof(pattern), "%s_*", krb);
		if (r >= 0)
			r = cordon_home_glob(pattern, NULL, &more);
		for (size_t i = 0; r >= 0 && i < more.n; i++) {
			struct stat st;
			if (lstat(more.v[i], &st) == 0 && st.st_uid == ctx->uid)
				r = guard_list(p, (const char *const[]){more.v[i], NULL},
					       CORDON_GUARD_HIDE, "Kerberos tickets", ctx->home,
					       &cache);
		}
		cordon_strv_free(&more);
	}
	/* Code caches node's tools keep in os.tmpdir() ($TMPDIR, else /tmp),
	 * whose entries they run without looking at the code (round 52d F1:
	 * one planted in node's compile cache for TypeScript's _tsc.js ran
	 * at the next tsc outside; 52e F1, F2: yarn 1's v8-compile-cache and
	 * tsx's). Read-only, made when missing; inside, none is kept
	 * (NODE_DISABLE_COMPILE_CACHE, DISABLE_V8_COMPILE_CACHE,
	 * TSX_DISABLE_CACHE: the sessions' TMPDIR is shared). */
	if (r >= 0 && ctx->os == CORDON_OS_LINUX) {
		/* (In /tmp, made when missing; in the outside's TMPDIR wherever
		 * it is, but a session's, made too: round 52f F1, /var/tmp and
		 * the runtime directory were left; in /var/tmp, a common one,
		 * as names the watch keeps.) */
		const char *tmp = ctx->getenv_fn ? ctx->getenv_fn("TMPDIR") : NULL;
		const char *base = tmp ? strrchr(tmp, '/') : NULL;
		bool theirs = tmp && tmp[0] == '/' && base && base[1] &&
			      strncmp(base + 1, "cordon-tmp-", 11) != 0 && strcmp(tmp, "/tmp") != 0;
		bool var_tmp = theirs && strcmp(tmp, "/var/tmp") == 0;
		const char *const dirs[] = {"/tmp", "/var/tmp", theirs && !var_tmp ? tmp : NULL};
		/* (Round 59b F1: jest's, jest_ and the uid in base 36, whose
		 * transformed modules it runs after a check anyone can forge;
		 * jiti 1's, which loads Tailwind 3's tailwind.config.ts.) */
		char b36[16];
		size_t k = sizeof(b36) - 1;
		b36[k] = '\0';
		for (unsigned u = (unsigned)ctx->uid; k == sizeof(b36) - 1 || u; u /= 36)
			b36[--k] = "0123456789abcdefghijklmnopqrstuvwxyz"[u % 36];
		for (size_t d = 0; r >= 0 && d < ARRAY_SIZE(dirs) && dirs[d]; d++) {
			cleanup_free char *ncc = NULL, *v8 = NULL, *tsx = NULL, *jest = NULL,
					  *jiti = NULL;
			unsigned make = d != 1 || var_tmp ? CORDON_GUARD_MAKE : 0;
			if (asprintf(&ncc, "%s/node-compile-cache", dirs[d]) < 0 ||
			    asprintf(&v8, "%s/v8-compile-cache-%u", dirs[d], (unsigned)ctx->uid) <
				    0 ||
			    asprintf(&tsx, "%s/tsx-%u", dirs[d], (unsigned)ctx->uid) < 0 ||
			    asprintf(&jest, "%s/jest_%s", dirs[d], b36 + k) < 0 ||
			    asprintf(&jiti, "%s/node-jiti", dirs[d]) < 0)
				r = -ENOMEM;
			else
				r = guard_list(
					p, (const char *const[]){ncc, v8, tsx, jest, jiti, NULL},
					CORDON_GUARD_PROTECT | make,
					"a code cache (node's tools outside run what is there)",
					ctx->home, &cache);
		}
	}
	/* The kernel's list of the keys the user may view, and who holds
	 * how many: keyctl is refused, but the names (a service, an account)
	 * would still be read there. */
	if (r >= 0 && ctx->os == CORDON_OS_LINUX)
		r = guard_list(p, (const char *const[]){"/proc/keys", "/proc/key-users", NULL},
			       CORDON_GUARD_HIDE, "kernel keyrings", ctx->home, &cache);
	/* Where servers outside keep their sockets in /tmp (which takes the
	 * session's sockets too): read-only, so that none is unlinked there and
	 * replaced by a server of the session's, which an outside client would
	 * then reach (a tmux client sends it its terminal). tmux's is made
	 * (mode 0700) when missing. */
	if (r >= 0 && ctx->os == CORDON_OS_LINUX) {
		char tmux[64];
		snprintf(tmux, sizeof(tmux), "/tmp/tmux-%u", (unsigned)ctx->uid);
		const char *agent = ctx->getenv_fn ? ctx->getenv_fn("SSH_AUTH_SOCK") : NULL;
		cleanup_free char *agent_dir = agent && agent[0] == '/' ? strdup(agent) : NULL;
		char *slash = agent_dir ? strrchr(agent_dir, '/') : NULL;
		if (slash)
			*slash = '\0';
		bool own_dir = agent_dir &&
			       (cordon_path_under(agent_dir, "/tmp") ||
				cordon_path_under(agent_dir, "/var/tmp")) &&
			       strcmp(agent_dir, "/tmp") != 0 && strcmp(agent_dir, "/var/tmp") != 0;
		r = guard_list(p, (const char *const[]){tmux, NULL},
			       CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE, CORDON_GUARD_SERVERS,
			       ctx->home, &cache);
		if (r >= 0)
			r = guard_list(p,
				       (const char *const[]){"/tmp/.X11-unix", "/tmp/.ICE-unix",
							     own_dir ? agent_dir : NULL, NULL},
				       CORDON_GUARD_PROTECT, CORDON_GUARD_SERVERS, ctx->home,
				       &cache);
		if (r >= 0)
			r = guard_servers_sockets(p, ctx, &cache);
	}
	/* git's credential-cache daemon listens in the cache directory
	 * ($XDG_CACHE_HOME, else ~/.cache: git/credential/socket), or in
	 * ~/.git-credential-cache where that exists. Where a rule makes them
	 * writable (~/.cache, --project ~), a session unlinked the socket (or
	 * found none: the daemon ends after 15 minutes), listened there, and
	 * the user's next git login outside sent it the password (round 60h
	 * H1). Read-only; the cache's made (0700, as git makes it) when
	 * missing; the other not, for git to use it where it exists only. */
	if (r >= 0 && ctx->home) {
		const char *xdg = ctx->getenv_fn ? ctx->getenv_fn("XDG_CACHE_HOME") : NULL;
		cleanup_free char *home_cred = NULL, *xdg_cred = NULL, *legacy = NULL;
		if (asprintf(&home_cred, "%s/.cache/git/credential", ctx->home) < 0 ||
		    (xdg && xdg[0] == '/' && asprintf(&xdg_cred, "%s/git/credential", xdg) < 0) ||
		    asprintf(&legacy, "%s/.git-credential-cache", ctx->home) < 0)
			r = -ENOMEM;
		if (r >= 0)
			r = guard_list(p, (const char *const[]){home_cred, xdg_cred, NULL},
				       CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE,
				       CORDON_GUARD_SERVERS, ctx->home, &cache);
		if (r >= 0)
			r = guard_list(p, (const char *const[]){legacy, NULL}, CORDON_GUARD_PROTECT,
				       CORDON_GUARD_SERVERS, ctx->home, &cache);
	}
	struct cordon_strv hidden = {0}, why = {0};
	if (r >= 0)
		r = hidden_list_globs(cfg, ctx, p->project, &hidden, &why, &p->hidden_globs);
	struct reach_memo memo = {0};
	for (size_t i = 0; r >= 0 && i < hidden.n; i++)
		r = guard_list_memo(p, (const char *const[]){hidden.v[i], NULL}, CORDON_GUARD_HIDE,
				    false, why.v[i], ctx->home, p->project, &cache, &memo);
	free(memo.dir);
	free(memo.up);
	cordon_strv_free(&why);
	/* (After the hidden paths: a name beneath one, ~/.ssh/id_work in
	 * ~/.ssh/config, is kept by it already.) */
	if (r >= 0 && ctx->home)
		r = guard_named(p, ctx, &cache);
	cordon_strv_free(&hidden);
	cordon_path_cache_free(&cache);
	if (r >= 0 && p->sandbox)
		r = read_envrc_allowed(p, ctx);
	return r;
}

static int add_env(struct cordon_policy *p, const struct cordon_strv *names)
{
	for (size_t i = 0; i < names->n; i++)
		if (cordon_strv_push_new(&p->env_allow, names->v[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* allowed_env_vars replaces the default list; additional_env_vars and
 * --allow-env extend whichever list that is. */
static int resolve_env(const struct cordon_config *cfg, const struct cordon_context *ctx,
		       struct cordon_policy *p)
{
	if (cfg->has_env) {
		int r = cordon_strv_copy(&p->env_allow, &cfg->allowed_env);
		if (r < 0)
			return r;
	} else {
		for (size_t i = 0; cordon_default_env[i]; i++)
			if (cordon_strv_push(&p->env_allow, cordon_default_env[i]) < 0)
				return -ENOMEM;
	}
	int r = add_env(p, &cfg->additional_env);
	for (int k = 0; k < 2 && r >= 0; k++) {
		const struct cordon_strv *names = k ? &ctx->extra_toolchains : &cfg->toolchains;
		for (size_t i = 0; i < names->n && r >= 0; i++) {
			const char *const *vars = cordon_toolchain_env(names->v[i]);
			for (size_t j = 0; vars[j] && r >= 0; j++)
				r = cordon_strv_push_new(&p->env_allow, vars[j]);
		}
	}
	return r < 0 ? r : add_env(p, &ctx->extra_env);
}

/* Never the project by accident: a project is read-write-execute as a
 * whole, and these hold what a later session, the system or the user's
 * other work depends on. At or under: */
static const char *const system_trees[] = {
	"/usr",         "/etc",     "/proc",      "/sys",         "/dev",       "/boot",
	"/bin",         "/sbin",    "/lib",       "/lib32",       "/lib64",     "/libx32",
	"/snap",        "/var/lib", "/var/cache", "/var/log",     "/var/spool", "/var/mail",
	"/var/backups", "/System",  "/Library",   "/private/etc", "/run",       NULL};
/* Exactly (below them are the places projects live: /home/me/src, /opt/app,
 * /srv/site, /mnt/data/...): */
static const char *const system_dirs[] = {"/",        "/var",         "/opt",  "/srv",   "/home",
					  "/mnt",     "/media",       "/root", "/Users", "/Volumes",
					  "/private", "/private/var", NULL};

const char *cordon_never_project(const char *dir, const char *home)
{
	cleanup_free char *canon_home = home ? realpath(home, NULL) : NULL;
	const char *h = canon_home ? canon_home : home;
	if (h && strcmp(dir, h) == 0)
		return "is your home directory";
	for (size_t i = 0; system_dirs[i]; i++)
		if (strcmp(dir, system_dirs[i]) == 0)
			return "is a system directory";
	/* (Below /run, only the caller's own runtime directory, read-write
	 * anyway: root's cwd in /run/systemd or /run/user reached unit
	 * directories and every user's runtime directory, round 50c F3.) */
	char own_run[48];
	snprintf(own_run, sizeof(own_run), "/run/user/%u", (unsigned)getuid());
	for (size_t i = 0; system_trees[i]; i++)
		if (cordon_path_under(dir, system_trees[i]) && !cordon_path_under(dir, own_run))
			return "is a system directory";
	if (h && h[0] == '/' && cordon_path_under(h, dir))
		return "contains your home directory";
	return NULL;
}

/* The git worktree (a directory holding a .git) at or above PATH, below
 * the home, into TOP: 0, or -ENOENT. */
static int repo_top(const char *path, const char *home, char *top, size_t size)
{
	if (snprintf(top, size, "%s", path) >= (int)size)
		return -ENAMETOOLONG;
	for (char *slash;;) {
		char git[PATH_MAX + 8];
		struct stat st;
		if (home && !cordon_path_under(top, home))
			return -ENOENT;
		if (home && strcmp(top, home) == 0)
			return -ENOENT; /* (a home that is a repository: not the cwd's) */
		snprintf(git, sizeof(git), "%s/.git", top);
		if (lstat(git, &st) == 0)
			return 0;
		if (!(slash = strrchr(top, '/')) || slash == top)
			return -ENOENT;
		*slash = '\0';
	}
}

struct dots_cwd {
	const char *dir, *home;
	const char *shown; /* $HOME, which a link's name is shown under as ~ */
	char **why;
};

/* LINK, a dotfile or one in ~/.config: leads into the cwd, or the cwd
 * lies in the repository it leads into (~/.bashrc -> ~/dotfiles/bashrc,
 * the terminal in ~/dotfiles/bash: round 10 wrote what bashrc sources
 * from there through $DOTFILES). *WHY says so. */
static int cwd_link(const char *link, void *arg)
{
	struct dots_cwd *c = arg;
	cleanup_free char *canon = realpath(link, NULL);
	if (!canon || *c->why)
		return 0;
	/* (Without a repository: the directory a linked file lies in.) */
	char top[PATH_MAX];
	struct stat st;
	char *slash = strrchr(canon, '/');
	bool is_dir = stat(canon, &st) == 0 && S_ISDIR(st.st_mode);
	bool in = cordon_path_under(canon, c->dir) ||
		  (is_dir && cordon_path_under(c->dir, canon)) || /* round 11: in nvim/lua */
		  (repo_top(canon, c->home, top, sizeof(top)) == 0 &&
		   cordon_path_under(c->dir, top)) ||
		  (!is_dir && slash && slash != canon && /* (realpath: it exists) */
		   (*slash = '\0', cordon_path_under(c->dir, canon)) &&
		   !cordon_never_project(canon, c->home));
	size_t hn = c->shown ? strlen(c->shown) : 0;
	bool tilde = hn && strncmp(link, c->shown, hn) == 0 && link[hn] == '/';
	if (in && asprintf(c->why,
			   "is where your dotfiles come from (%s%s links into it): what is "
			   "written there runs outside",
			   tilde ? "~" : "", tilde ? link + hn : link) < 0) {
		*c->why = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A data directory or history a link may lead into a project for (a CI
 * layout's ~/.cache, a dev container's persisted ~/.bash_history): not
 * code, so not a dotfiles repository (round 10). */
static bool data_dotfile(const char *name)
{
	static const char *const data[] = {".cache",      ".npm",  ".m2",       ".gradle",  ".yarn",
					   ".pnpm-store", ".ivy2", ".sbt/boot", ".lesshst", NULL};
	for (size_t i = 0; data[i]; i++)
		if (strcmp(name, data[i]) == 0)
			return true;
	return strstr(name, "hist") != NULL;
}

/* Why DIR, the current directory, is not taken for the project: the
 * home's dotfiles, or the links in ~/.config, lead into it or into the
 * repository it lies in (~/.bashrc -> ~/dotfiles/bashrc, GNU stow): what
 * is written there runs outside at the next login, through more forms
 * than any reader of dotfiles follows (rounds 6 to 10 of the review found
 * new ones each time). NULL when none does, into *WHY otherwise
 * (malloc'd). --project names one on purpose; the links and what the
 * dotfiles name stay read-only in it then. */
static int dotfiles_cwd(const char *dir, const struct cordon_context *ctx, char **why)
{
	*why = NULL;
	int e = 0;
	/* ($HOME's and the passwd home's, where HOME names another: round
	 * 51b F2.) */
	for (int k = 0; k < 2 && e >= 0 && !*why; k++) {
		const char *home = k ? ctx->passwd_home : ctx->home;
		struct dots_cwd c = {.dir = dir, .home = home, .shown = ctx->home, .why = why};
		DIR *d = home ? opendir(home) : NULL;
		int n = 0;
		for (struct dirent *de; d && e >= 0 && !*why && n++ < 1024 && (de = readdir(d));) {
			if (cordon_dot_or_dotdot(de->d_name) || de->d_name[0] != '.' ||
			    (de->d_type != DT_LNK && de->d_type != DT_UNKNOWN) ||
			    data_dotfile(de->d_name))
				continue;
			char path[PATH_MAX * 2];
			struct stat st;
			snprintf(path, sizeof(path), "%s/%s", home, de->d_name);
			if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
				e = cwd_link(path, &c);
		}
		if (d)
			closedir(d);
		/* (XDG_CONFIG_HOME is $HOME's.) */
		if (e >= 0 && !*why && home)
			e = config_links(NULL, home, k ? NULL : ctx->getenv_fn, cwd_link, &c);
	}
	return e;
}

/* Why DIR, the current directory, is not taken for the project: it is at
 * or beneath a hidden path (a terminal opened in ~/.ssh would make the
 * keys readable and authorized_keys writable); NULL when it is not, into
 * *WHY otherwise (malloc'd). Only --project names one on purpose. */
static int hidden_cwd(const struct cordon_config *cfg, const struct cordon_context *ctx,
		      const char *dir, struct cordon_path_cache *cache, char **why)
{
	*why = NULL;
	struct cordon_strv list = {0};
	/* (With the directory as the project, as the guards will ask: what
	 * lies below it cannot hold it.) */
	int e = hidden_list(cfg, ctx, dir, &list, NULL);
	const char *const *hidden = (const char *const *)list.v;
	for (size_t i = 0; hidden && hidden[i] && !*why && e >= 0; i++) {
		if (project_relative(hidden[i]))
			continue; /* the project's own: the cwd is the project */
		cleanup_free char *abs = NULL, *canon = NULL;
		e = cordon_path_absolute(hidden[i], ctx->home, NULL, &abs);
		if (e < 0) {
			e = e == -ENOMEM ? e : 0;
			continue;
		}
		e = cordon_path_resolve_cached(abs, NULL, NULL, cache, &canon);
		e = e == -ENOMEM ? e : 0;
		if (e >= 0 &&
		    (cordon_path_under(dir, abs) || (canon && cordon_path_under(dir, canon))) &&
		    asprintf(why, "is %sa hidden path (%s)",
			     strcmp(dir, canon ? canon : abs) == 0 ? "" : "beneath ",
			     hidden[i]) < 0) {
			*why = NULL;
			e = -ENOMEM;
		}
	}
	cordon_strv_free(&list);
	return e;
}

/* --no-network asks the sandbox to block the network; with the sandbox off
 * nothing would, and the command would reach the network the user said it
 * must not. Refused, naming the setting that turned it off. */
static int refuse_no_network(const struct cordon_config *cfg, unsigned kind,
			     struct cordon_error *err)
{
	static const char *const apply_names[] = {"neither", "terminal", "tool", "both"};
	const char *kind_name = kind == CORDON_KIND_TOOL ? "tool" : "terminal";
	if (!cfg->enabled)
		return cordon_err(err, EINVAL,
				  "--no-network: the sandbox is off (%s: enabled is false), and "
				  "nothing else would block the network; turn the sandbox on or "
				  "drop --no-network",
				  cfg->origin);
	return cordon_err(err, EINVAL,
			  "--no-network: the sandbox is off for a %s session (%s: apply_to is "
			  "\"%s\"), and nothing else would block the network; turn the sandbox on "
			  "or drop --no-network",
			  kind_name, cfg->origin, apply_names[cfg->apply_to & 3]);
}

/* --allow-domain with the sandbox off: nothing would hold the session to
 * the domains. Refused, as --no-network is. */
static int refuse_allow_domain(const struct cordon_config *cfg, unsigned kind,
			       struct cordon_error *err)
{
	const char *kind_name = kind == CORDON_KIND_TOOL ? "tool" : "terminal";
	return cordon_err(err, EINVAL,
			  "--allow-domain: the sandbox is off for a %s session (%s: enabled is "
			  "false or apply_to does not cover it), and nothing else would limit the "
			  "network to domains; turn the sandbox on or drop --allow-domain",
			  kind_name, cfg->origin);
}

/* --allow-domain where the network is off (--no-network, or the config's
 * allow_network): no host would be reached, and the flag would go unsaid
 * (round 37c F5). Refused, naming what turned the network off. */
static int refuse_domain_offline(const struct cordon_config *cfg, const struct cordon_context *ctx,
				 struct cordon_error *err)
{
	if (ctx->no_network)
		return cordon_err(
			err, EINVAL,
			"--allow-domain: --no-network turns the network off, so no domain "
			"would be reached; drop one of them");
	return cordon_err(
		err, EINVAL,
		"--allow-domain: the network is off (%s: allow_network is false), so no "
		"domain would be reached; set allow_network to true or drop --allow-domain",
		cfg->origin);
}

/* denied_domains with no allowed_domains (nor --allow-domain): the proxy,
 * which alone refuses a host, runs only for an allowed list; the network
 * would be open to every host, the denied ones too (round 35 T1). */
int cordon_policy_denied_alone(const struct cordon_config *cfg, unsigned kind, size_t extra,
			       struct cordon_error *err)
{
	if (!cfg->enabled || !(cfg->apply_to & kind) || !cfg->allow_network || cfg->has_domains ||
	    extra || !cfg->denied_domains.n)
		return 0;
	return cordon_err(err, EINVAL,
			  "%s: denied_domains: refuses nothing without allowed_domains (cordon's "
			  "proxy, which refuses hosts, runs only to let the hosts allowed_domains "
			  "or --allow-domain lists through): list the hosts a session may reach in "
			  "allowed_domains, or remove denied_domains",
			  cfg->origin);
}

/* The domain lists: the config's, and --allow-domain's added (checked as
 * the config's are: a bad one is refused, naming the flag). */
static int resolve_domains(const struct cordon_config *cfg, const struct cordon_context *ctx,
			   struct cordon_policy *p)
{
	if (cordon_strv_copy(&p->allowed_domains, &cfg->allowed_domains) < 0 ||
	    cordon_strv_copy(&p->denied_domains, &cfg->denied_domains) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < ctx->extra_domains.n; i++)
		if (cordon_strv_push_new(&p->allowed_domains, ctx->extra_domains.v[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* HOME as the policy compares it with canonical paths: runs of slashes
 * made one, a trailing one dropped. "//home/me" names /home/me on Linux,
 * but musl's realpath (the launcher's) keeps the two slashes, and every
 * session started in the home was refused (its prepared rules and the
 * shim's disagreed on the closed home). */
static char *normal_home(const char *home)
{
	char *out = malloc(strlen(home) + 1);
	if (!out)
		return NULL;
	size_t n = 0;
	for (const char *s = home; *s; s++)
		if (*s != '/' || n == 0 || out[n - 1] != '/')
			out[n++] = *s;
	while (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = '\0';
	return out;
}

/* GIVEN's passwd home, resolved, where it is a directory other than its
 * $HOME (HOME names another one: a harness's, CI's, a per-tool home), into
 * *OUT; else NULL. hidden_paths hold there too (round 37c F2). One that
 * is missing holds nothing to hide, and / is no home. 0 or -ENOMEM. */
static int other_home(const struct cordon_context *given, const char *home, char **out)
{
	*out = NULL;
	if (!given->passwd_home || (home && strcmp(given->passwd_home, home) == 0))
		return 0;
	char *pw = realpath(given->passwd_home, NULL);
	if (!pw)
		return errno == ENOMEM ? -ENOMEM : 0;
	cleanup_free char *own = home ? realpath(home, NULL) : NULL;
	struct stat st;
	if (strcmp(pw, "/") == 0 || (own && strcmp(own, pw) == 0) || stat(pw, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		free(pw);
	else
		*out = pw;
	return 0;
}

/* A write rule of the user's on a repository's own protected files
 * elsewhere than the project (--allow-write OTHER/.git/hooks: round 59d
 * F8, a hook written there ran at the next git checkout outside; the
 * project's and a writable root's are the guard plan's to refuse): the
 * protected entries under .git/ and .hg/, wherever they are. */
static int refuse_repo_files_named(const struct cordon_config *cfg, const struct cordon_policy *p,
				   struct cordon_error *err)
{
	const char *const *lists[2] = {cfg->has_protected
					       ? (const char *const *)cfg->protected_paths.v
					       : cordon_default_protected,
				       (const char *const *)cfg->additional_protected.v};
	for (size_t i = 0; p->sandbox && i < p->n_rules; i++) {
		const struct cordon_rule *r = &p->rules[i];
		if (!(r->access & CORDON_ACCESS_WRITE) || !cordon_policy_users_rule(r) ||
		    (p->project && cordon_path_under(r->path, p->project)))
			continue;
		for (size_t l = 0; l < 2; l++)
			for (size_t k = 0; lists[l] && lists[l][k]; k++) {
				const char *e = lists[l][k];
				if (strncmp(e, ".git/", 5) != 0 && strncmp(e, ".hg/", 4) != 0)
					continue;
				size_t n = strlen(e);
				while (n && e[n - 1] == '/')
					n--;
				char part[PATH_MAX];
				snprintf(part, sizeof(part), "/%.*s", (int)n, e);
				const char *at = strstr(r->path, part);
				size_t pn = strlen(part);
				if (!at || (at[pn] != '\0' && at[pn] != '/'))
					continue;
				char as[PATH_MAX + 8];
				cordon_printable(r->written ? r->written : r->path, SIZE_MAX, as,
						 sizeof(as));
				return cordon_err(err, EINVAL,
						  "%s (%s) would write a repository's %.*s, which "
						  "stays read-only inside (%s): git outside obeys "
						  "it; remove that rule, or take %.*s out of "
						  "protected_paths",
						  as, r->source, (int)n, e,
						  cfg->has_protected ? "protected_paths"
								     : "protected_paths (default)",
						  (int)n, e);
			}
	}
	return 0;
}

/* A write rule on / (--allow-write /, "additional_read_write_paths":
 * ["/"], also through a link or "/proc/.."): the sandbox would allow
 * everything, as a project at / would. Refused the same way. */
static int refuse_root_writable(const struct cordon_config *cfg, const struct cordon_policy *p,
				struct cordon_error *err)
{
	struct stat root, st;
	if (stat("/", &root) < 0)
		return 0;
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct cordon_rule *r = &p->rules[i];
		if (!(r->access & CORDON_ACCESS_WRITE) || stat(r->path, &st) < 0 ||
		    st.st_dev != root.st_dev || st.st_ino != root.st_ino)
			continue;
		bool flag = r->source[0] == '-';
		bool root_itself = strcmp(r->path, "/") == 0;
		return cordon_err(err, EINVAL,
				  "%s%s%s%s%s%s: the whole file system would be writable — the "
				  "sandbox would allow everything; name the directories the "
				  "session needs",
				  flag ? "" : cfg->origin, flag ? "" : ": ", r->source,
				  flag ? " " : ": ", r->path, root_itself ? "" : " (that is /)");
	}
	return 0;
}

/* ENTRY ("~/..." or absolute) into OUT, once. */
static int push_kept(struct cordon_strv *out, const char *entry, const char *home)
{
	char *abs = NULL;
	int e = entry && (entry[0] == '/' || entry[0] == '~')
			? cordon_path_absolute(entry, home, NULL, &abs)
			: -ENOENT;
	if (e < 0)
		return e == -ENOMEM ? e : 0;
	return cordon_strv_contains(out, abs) ? (free(abs), 0) : cordon_strv_push_take(out, abs);
}

/* What the guards keep by name in a writable home besides the lists
 * above (resolve_guards, guard_config). */
static const char *const home_kept_more[] = {"~/bin", "~/.local/share/bash-completion",
					     "~/.config/cordon", "~/.local/state/cordon", NULL};

/* What the guards keep in the writable home HOME, by the names they keep
 * it by (and where XDG moves them): its dotfiles and ~/.config, what runs
 * outside from it, agents' and editors' settings, cordon's own config and
 * state. Into OUT, absolute, once each. */
static int home_kept_in(const struct cordon_context *ctx, const char *home, struct cordon_strv *out)
{
	if (!home)
		return 0;
	struct cordon_strv names = {0};
	int e = 0;
	for (size_t i = 0; e >= 0 && cordon_dotfiles[i]; i++) {
		char name[NAME_MAX + 3];
		snprintf(name, sizeof(name), "~/%s", cordon_dotfiles[i]);
		e = cordon_home_xdg_list((const char *const[]){name, NULL}, home, ctx, &names);
	}
	const char *const *const lists[] = {home_run_dirs, fish_code, cordon_home_code,
					    agent_settings, home_kept_more};
	for (size_t k = 0; e >= 0 && k < ARRAY_SIZE(lists); k++)
		e = cordon_home_xdg_list(lists[k], home, ctx, &names);
	for (size_t i = 0; e >= 0 && i < names.n; i++)
		e = push_kept(out, names.v[i], home);
	cordon_strv_free(&names);
	return e;
}

/* What the guards keep in a writable home, by the names they keep it by:
 * the home itself (and the passwd home) first, then what home_kept_in
 * lists in each (round 51b F2: a passwd home's own ~/.config, where HOME
 * named another, was no kept path), cordon's config wherever it is. Into
 * OUT, absolute. */
static int home_kept(const struct cordon_config *cfg, const struct cordon_context *ctx,
		     struct cordon_strv *out)
{
	const char *home = ctx->home;
	int e = push_kept(out, home, NULL);
	if (e >= 0)
		e = push_kept(out, ctx->passwd_home, NULL);
	if (e >= 0)
		e = home_kept_in(ctx, home, out);
	if (e >= 0)
		e = home_kept_in(ctx, ctx->passwd_home, out);
	const char *xdg = ctx->getenv_fn ? ctx->getenv_fn("XDG_CONFIG_HOME") : NULL;
	const char *state = ctx->getenv_fn ? ctx->getenv_fn("XDG_STATE_HOME") : NULL;
	const char *env = ctx->getenv_fn ? ctx->getenv_fn("CORDON_CONFIG") : NULL;
	cleanup_free char *xdir = NULL, *sdir = NULL;
	if (e >= 0 && ((xdg && xdg[0] == '/' && asprintf(&xdir, "%s/cordon", xdg) < 0) ||
		       (state && state[0] == '/' && asprintf(&sdir, "%s/cordon", state) < 0)))
		e = -ENOMEM;
	const char *const more[] = {xdir, sdir, cfg->file, env};
	for (size_t i = 0; e >= 0 && i < ARRAY_SIZE(more); i++)
		if (more[i] && (home || more[i][0] == '/'))
			e = push_kept(out, more[i], home);
	return e;
}

/* DIR below a home, or a directory between it and the home, holds what a
 * config directory holds (config_home_like): why DIR is no project into
 * *WHY (malloc'd), else NULL. */
static int config_home_cwd(const char *dir, const struct cordon_context *ctx, char **why)
{
	*why = NULL;
	int e = 0;
	for (int k = 0; e >= 0 && k < 2 && !*why; k++) {
		const char *h = k ? ctx->passwd_home : ctx->home;
		if (!h || strcmp(dir, h) == 0 || !cordon_path_under(dir, h))
			continue;
		cleanup_free char *up = strdup(dir);
		if (!up)
			return -ENOMEM;
		while (e >= 0 && !*why && strcmp(up, h) != 0 && cordon_path_under(up, h)) {
			cleanup_free char *what = NULL;
			e = config_home_like(up, &what);
			size_t hn = strlen(h);
			bool tilde = strcmp(h, "/") != 0 && up[hn] == '/';
			if (e >= 0 && what &&
			    (strcmp(up, dir) == 0
				     ? asprintf(
					       why,
					       "holds %s, as a config directory ($XDG_CONFIG_HOME) "
					       "does: what is there runs outside",
					       what)
				     : asprintf(
					       why,
					       "is in %s%s, which holds %s, as a config directory "
					       "($XDG_CONFIG_HOME) does: what is there runs outside",
					       tilde ? "~" : "", tilde ? up + hn : up, what)) < 0) {
				*why = NULL;
				e = -ENOMEM;
			}
			char *slash = strrchr(up, '/');
			if (!slash || slash == up)
				break;
			*slash = '\0';
		}
	}
	return e;
}

/* Why DIR, the current directory, is not taken for the project: it is,
 * lies in or holds what a writable home keeps read-only (home_kept_in,
 * the list --project ~ keeps), in $HOME or in the passwd home; NULL when
 * not, into *WHY otherwise (malloc'd). In one: a project is writable as a
 * whole, and the guards yield to a rule that names what they keep (round
 * 51b F1: a terminal in ~/.claude or ~/.vscode/extensions wrote the
 * agent's hooks and the editor's extensions). Holding one, below a home
 * (~/.local, ~/.cargo, ~/go, ~/.cache): no one's project, and what is
 * there beside the kept names is the tools' too (round 51b F3: Jupyter's
 * kernels in ~/.local/share, unlisted then, were written from ~/.local).
 * --project names one on purpose; what is kept stays read-only in it. */
static int kept_cwd(const char *dir, const struct cordon_context *ctx, char **why)
{
	*why = NULL;
	struct cordon_strv kept = {0};
	int e = home_kept_in(ctx, ctx->home, &kept);
	if (e >= 0)
		e = home_kept_in(ctx, ctx->passwd_home, &kept);
	bool below = false;
	for (int k = 0; k < 2; k++) {
		const char *h = k ? ctx->passwd_home : ctx->home;
		below = below || (h && strcmp(dir, h) != 0 && cordon_path_under(dir, h));
	}
	/* (Is or lies in first: ~/.config holds ~/.config/cordon; then holds,
	 * naming one that is there before one that is not.) */
	for (int pass = 0; e >= 0 && pass < 3 && !*why; pass++)
		for (size_t i = 0; e >= 0 && i < kept.n && !*why; i++) {
			const char *k = kept.v[i];
			bool holds = pass > 0;
			struct stat st;
			if (holds ? !below || !cordon_path_under(k, dir) ||
					    (pass == 1 && lstat(k, &st) < 0)
				  : !cordon_path_under(dir, k))
				continue;
			size_t hn = ctx->home ? strlen(ctx->home) : 0;
			bool tilde = hn && strcmp(ctx->home, "/") != 0 &&
				     cordon_path_under(k, ctx->home) && k[hn] == '/';
			if (asprintf(why,
				     holds ? "holds %s%s, which cordon keeps read-only: what is "
					     "there runs outside"
					   : "is in %s%s, which holds what runs outside",
				     tilde ? "~" : "", tilde ? k + hn : k) < 0) {
				*why = NULL;
				e = -ENOMEM;
			}
		}
	cordon_strv_free(&kept);
	if (e >= 0 && !*why)
		e = config_home_cwd(dir, ctx, why);
	return e;
}

/* Another name a mount gives the home, or what its guards keep
 * (home_kept), reached by a write rule: the guards hold at the home's own
 * names only, so through this one the session would write the dotfiles
 * and cordon's config (round 50c F2: the current directory, a bind of the
 * home, was a writable project, and a later session ran unsandboxed). */
struct home_alias {
	size_t dir;       /* which of the directories */
	char *alias, *of; /* the other name, and what it names */
	bool home;        /* OF is the home (or the passwd home) */
};

static void home_alias_free(struct home_alias *a)
{
	free(a->alias);
	free(a->of);
	*a = (struct home_alias){0};
}

/* PATH is the home, or the passwd home. */
static bool is_home(const struct cordon_context *ctx, const char *path)
{
	return (ctx->home && strcmp(path, ctx->home) == 0) ||
	       (ctx->passwd_home && strcmp(path, ctx->passwd_home) == 0);
}

/* The first of DIRS (absolute, canonical; N of them) that is, holds or lies
 * in another name of what home_kept lists, into *FOUND: 1 then, 0 when
 * none, or -ENOMEM. The home itself counts only held (a directory in it
 * under another name is a project as one in it is). Cheap where nothing is
 * mounted twice: nothing is looked at then. */
static int home_mounted(const struct cordon_config *cfg, const struct cordon_context *ctx,
			const char *const *dirs, size_t n, struct home_alias *found)
{
	struct cordon_strv kept = {0}, below = {0}, aliases = {0}, of = {0};
	int e = home_kept(cfg, ctx, &kept);
	/* (And mounts below what is kept, the home itself aside: a ~/data
	 * bound from /mnt/disk is a project there as in the home.) */
	for (size_t i = 0; e >= 0 && i < kept.n; i++)
		if (!is_home(ctx, kept.v[i]))
			e = cordon_strv_push(&below, kept.v[i]);
	if (e >= 0 && n)
		e = cordon_mount_aliases_up(&kept, &below, &aliases, &of);
	for (size_t i = 0; e >= 0 && !found->alias && i < aliases.n; i++) {
		bool home = is_home(ctx, of.v[i]);
		for (size_t d = 0; d < n && !found->alias; d++) {
			if (!cordon_path_under(aliases.v[i], dirs[d]) &&
			    (home || !cordon_path_under(dirs[d], aliases.v[i])))
				continue;
			*found =
				(struct home_alias){d, strdup(aliases.v[i]), strdup(of.v[i]), home};
			if (!found->alias || !found->of) {
				home_alias_free(found);
				e = -ENOMEM;
			}
		}
	}
	cordon_strv_free(&kept);
	cordon_strv_free(&below);
	cordon_strv_free(&aliases);
	cordon_strv_free(&of);
	return e < 0 ? e : found->alias != NULL;
}

/* How A stands to DIR, for a message: "is your home directory (H),
 * mounted here too", "holds ~/.config, mounted here too as ALIAS", "lies
 * in ...". *SAME: the path DIR is by the home's own names, or NULL (where
 * it holds one). */
static int home_alias_why(const struct home_alias *a, const char *dir,
			  const struct cordon_context *ctx, char **why, char **same)
{
	cleanup_free char *what = NULL;
	size_t hn = ctx->home ? strlen(ctx->home) : 0;
	int r = a->home ? asprintf(&what, "your home directory (%s)", a->of)
		: hn && strcmp(ctx->home, "/") != 0 && cordon_path_under(a->of, ctx->home)
			? asprintf(&what, "~%s", a->of + hn)
			: asprintf(&what, "%s", a->of);
	if (r < 0)
		return -ENOMEM;
	*same = NULL;
	if (strcmp(a->alias, dir) == 0)
		r = asprintf(why, "is %s, mounted here too", what) < 0 || !(*same = strdup(a->of))
			    ? -ENOMEM
			    : 0;
	else if (cordon_path_under(a->alias, dir))
		r = asprintf(why, "holds %s, mounted here too as %s", what, a->alias) < 0 ? -ENOMEM
											  : 0;
	else
		r = asprintf(why, "lies in %s, mounted here too as %s", what, a->alias) < 0 ||
				    asprintf(same, "%s%s", a->of, dir + strlen(a->alias)) < 0
			    ? -ENOMEM
			    : 0;
	return r;
}

/* A write rule that is, holds or lies in another name of the home or of
 * what its guards keep (home_mounted): refused, with what to name
 * instead. (From the current directory, the project is none instead:
 * resolve.) */
static int refuse_home_mounted(const struct cordon_config *cfg, const struct cordon_context *ctx,
			       const struct cordon_policy *p, struct cordon_error *err)
{
	if (!p->sandbox)
		return 0;
	const char **dirs = calloc(p->n_rules + 1, sizeof(*dirs));
	size_t *which = calloc(p->n_rules + 1, sizeof(*which));
	size_t n = 0;
	for (size_t i = 0; dirs && which && i < p->n_rules; i++)
		if (p->rules[i].access & CORDON_ACCESS_WRITE) {
			which[n] = i;
			dirs[n++] = p->rules[i].path;
		}
	struct home_alias a = {0};
	int r = dirs && which ? home_mounted(cfg, ctx, dirs, n, &a) : -ENOMEM;
	free(dirs);
	cleanup_free char *why = NULL, *same = NULL;
	const struct cordon_rule *rule = r > 0 ? &p->rules[which[a.dir]] : NULL;
	free(which);
	if (rule && home_alias_why(&a, rule->path, ctx, &why, &same) < 0)
		r = -ENOMEM;
	home_alias_free(&a);
	if (r < 0)
		return cordon_err(err, -r, "%s", strerror(-r));
	if (!rule)
		return 0;
	bool project = strcmp(rule->source, "project") == 0;
	bool flag = project || rule->source[0] == '-';
	cleanup_free char *instead = NULL;
	if (same &&
	    asprintf(&instead, "name it by that path (%s%s%s)",
		     flag ? (project ? "--project" : rule->source) : "", flag ? " " : "", same) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	return cordon_err(err, EINVAL,
			  "%s%s%s%s%s: %s: cordon keeps your dotfiles and its own config "
			  "read-only by the home's own names, not through this one; %s",
			  flag ? "" : cfg->origin, flag ? "" : ": ",
			  project ? "--project" : rule->source, flag ? " " : ": ", rule->path, why,
			  instead ? instead
				  : "name the directories the session needs by their own paths");
}

static int resolve(const struct cordon_config *cfg, const struct cordon_context *given,
		   struct cordon_policy *out, struct cordon_error *err);

int cordon_policy_resolve(const struct cordon_config *cfg, const struct cordon_context *given,
			  struct cordon_policy *out, struct cordon_error *err)
{
	hidden_memo.on = true;
	int r = resolve(cfg, given, out, err);
	hidden_memo_clear();
	return r;
}

static int resolve(const struct cordon_config *cfg, const struct cordon_context *given,
		   struct cordon_policy *out, struct cordon_error *err)
{
	struct cordon_context normal = *given;
	cleanup_free char *home = given->home ? normal_home(given->home) : NULL;
	if (given->home && !home)
		return cordon_err(err, ENOMEM, "out of memory");
	normal.home = home;
	cleanup_free char *passwd_home = NULL;
	if (other_home(given, home, &passwd_home) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	normal.passwd_home = passwd_home;
	const struct cordon_context *ctx = &normal;
	struct cordon_policy p = {0};
	p.sandbox = cfg->enabled && (cfg->apply_to & ctx->kind) != 0;
	if (ctx->no_network && !p.sandbox)
		return refuse_no_network(cfg, ctx->kind, err);
	p.allow_network = cfg->allow_network && !ctx->no_network;
	if (ctx->extra_domains.n && !p.sandbox)
		return refuse_allow_domain(cfg, ctx->kind, err);
	for (int c = 0; !p.sandbox && c < CORDON_CLASS_COUNT; c++)
		if (ctx->extra[c].n)
			p.off_flags |= CORDON_OFF_RULES;
	if (!p.sandbox && ctx->extra_env.n)
		p.off_flags |= CORDON_OFF_ENV;
	if (!p.sandbox && ctx->extra_sockets.n)
		p.off_flags |= CORDON_OFF_SOCKETS;
	if (!p.sandbox && ctx->extra_toolchains.n)
		p.off_flags |= CORDON_OFF_TOOLCHAIN;
	if (ctx->extra_domains.n && !p.allow_network)
		return refuse_domain_offline(cfg, ctx, err);
	/* The same in the config itself (round 58c F2: the list was dropped
	 * unsaid). (--no-network over a config that lists domains is the
	 * flag's to decide: it turns off whatever the config says.) */
	if (p.sandbox && !cfg->allow_network && (cfg->allowed_domains.n || cfg->denied_domains.n))
		return cordon_err(err, EINVAL,
				  "%s: %s: the network is off (allow_network is false), so no "
				  "domain would be reached; set allow_network to true or remove %s",
				  cfg->origin,
				  cfg->allowed_domains.n ? "allowed_domains" : "denied_domains",
				  cfg->allowed_domains.n ? "allowed_domains" : "denied_domains");
	p.domains = p.allow_network && (cfg->has_domains || ctx->extra_domains.n);
	if (!ctx->no_network &&
	    cordon_policy_denied_alone(cfg, ctx->kind, ctx->extra_domains.n, err) < 0)
		return -EINVAL;
	p.on_unsupported = cfg->on_unsupported;
	p.own_terminal = ctx->relays && ctx->os == CORDON_OS_LINUX && !cfg->share_terminal;

	int r = cordon_gitcfg_env_capture(ctx->getenv_fn, &p.git_env);
	/* (And the config directories earlier launches had, whose
	 * git/config git outside reads where they have it again: a relative
	 * core.hooksPath there names a directory in each repository.) */
	struct cordon_strv homes = {0};
	if (r >= 0 && ctx->home)
		r = cordon_home_xdg("~/.config", ctx->home, ctx, &homes);
	for (size_t i = 0; r >= 0 && i < homes.n; i++) {
		char *kv = NULL;
		r = asprintf(&kv, CORDON_GITCFG_KNOWN_HOME "=%s", homes.v[i]) < 0
			    ? -ENOMEM
			    : cordon_strv_push_take(&p.git_env, kv);
	}
	cordon_strv_free(&homes);
	if (r < 0) {
		cordon_strv_free(&p.git_env);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	r = cordon_path_resolve(ctx->project, ctx->home, ctx->cwd, &p.project);
	struct stat st;
	if (r >= 0 && stat(p.project, &st) < 0)
		r = -errno;
	else if (r >= 0 && !S_ISDIR(st.st_mode))
		r = -ENOTDIR; /* explain would show it; run could not enter it */
	if (r < 0) {
		free(p.project);
		p.project = NULL;
	}
	if (r < 0)
		return cordon_err(err, r, "%s: project directory: %s", ctx->project, strerror(-r));
	if (project_unfollowed(&p, ctx, err) < 0) {
		free(p.project);
		return -EPERM;
	}
	/* (The passwd home too, where HOME names another: a terminal started
	 * in /home/me with HOME set elsewhere would make it the project.) */
	const char *never = NULL;
	if (ctx->project_from_cwd && !(never = cordon_never_project(p.project, ctx->home)) &&
	    ctx->passwd_home)
		never = cordon_never_project(p.project, ctx->passwd_home);
	/* Nor where every user works, or the desktop's servers listen: as a
	 * project, it would take sockets where clients outside look for
	 * theirs (review 43a F2; an explicit --project keeps it shared:
	 * add_rule_merged). */
	struct stat pst;
	if (!never && ctx->project_from_cwd && stat(p.project, &pst) == 0 &&
	    cordon_guard_shared_dir(p.project, &pst))
		never = "is a directory every user shares";
	if (!never && ctx->project_from_cwd && strncmp(p.project, "/run/user/", 10) == 0 &&
	    !strchr(p.project + 10, '/'))
		never = "is a runtime directory";
	cleanup_free char *hidden = NULL;
	/* (What the hidden paths' check resolves, the guards' resolve again:
	 * the home's directories, and what is missing there, asked once.) */
	__attribute__((cleanup(cordon_path_cache_free))) struct cordon_path_cache cache = {0};
	if (!never && ctx->project_from_cwd &&
	    hidden_cwd(cfg, ctx, p.project, &cache, &hidden) < 0) {
		cordon_policy_free(&p);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	if (hidden)
		never = hidden;
	cleanup_free char *kept = NULL, *dots = NULL;
	if (!never && ctx->project_from_cwd && kept_cwd(p.project, ctx, &kept) < 0) {
		cordon_policy_free(&p);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	if (kept)
		never = kept;
	if (!never && ctx->project_from_cwd && dotfiles_cwd(p.project, ctx, &dots) < 0) {
		cordon_policy_free(&p);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	if (dots)
		never = dots;
	/* Nor the home by another name a mount gives it (home_mounted). */
	cleanup_free char *mounted = NULL, *unused = NULL;
	struct home_alias alias = {0};
	int m = !never && ctx->project_from_cwd && p.sandbox
			? home_mounted(cfg, ctx, (const char *const[]){p.project}, 1, &alias)
			: 0;
	if (m > 0 && home_alias_why(&alias, p.project, ctx, &mounted, &unused) < 0)
		m = -ENOMEM;
	home_alias_free(&alias);
	if (m < 0) {
		cordon_policy_free(&p);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	if (mounted)
		never = mounted;
	if (never) {
		if (asprintf(&p.no_project, "%s %s", p.project, never) < 0) {
			p.no_project = NULL;
			cordon_policy_free(&p);
			return cordon_err(err, ENOMEM, "out of memory");
		}
		free(p.project);
		p.project = NULL;
	} else if (strcmp(p.project, "/") == 0) {
		cordon_policy_free(&p);
		return cordon_err(err, EINVAL,
				  "%s: project directory is / — the sandbox would allow "
				  "everything; choose a project with --project DIR",
				  ctx->project);
	}
	if ((ctx->home && !(p.home = strdup(ctx->home))) ||
	    !(p.session = strdup(ctx->session ? ctx->session : ""))) {
		cordon_policy_free(&p);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	r = resolve_paths(cfg, ctx, &p);
	if (r >= 0 && p.sandbox && CORDON_OS_NATIVE == CORDON_OS_LINUX)
		r = share_mounted_in_shared(&p);
	if (r >= 0 &&
	    (refuse_root_writable(cfg, &p, err) < 0 || refuse_home_mounted(cfg, ctx, &p, err) < 0 ||
	     refuse_repo_files_named(cfg, &p, err) < 0)) {
		cordon_policy_free(&p);
		return -EINVAL;
	}
	if (r >= 0)
		r = resolve_env(cfg, ctx, &p);
	if (r >= 0)
		r = add_sockets(&p, &cfg->unix_sockets, "allowed_unix_sockets", cfg->origin, ctx);
	if (r >= 0)
		r = add_sockets(&p, &ctx->extra_sockets, "--allow-socket", NULL, ctx);
	if (r >= 0)
		r = resolve_guards(cfg, ctx, &p, &cache);
	if (r >= 0 && p.domains)
		r = resolve_domains(cfg, ctx, &p);
	if (r < 0) {
		cordon_policy_free(&p);
		return cordon_err(err, r, "resolving %s: %s", cfg->origin, strerror(-r));
	}
	*out = p;
	return 0;
}

void cordon_policy_free(struct cordon_policy *p)
{
	cordon_strv_free(&p->allowed_domains);
	cordon_strv_free(&p->denied_domains);
	for (size_t i = 0; i < p->n_sockets; i++) {
		free(p->sockets[i].path);
		free(p->sockets[i].source);
	}
	free(p->sockets);
	free(p->guard_slots);
	for (size_t i = 0; i < p->n_guards; i++)
		guard_free(&p->guards[i]);
	free(p->guards);
	for (size_t i = 0; i < p->n_exposed; i++)
		guard_free(&p->exposed[i]);
	free(p->exposed);
	for (size_t i = 0; i < p->n_unreached; i++)
		guard_free(&p->unreached[i]);
	free(p->unreached);
	free(p->socket_dir);
	free(p->tmp_dir);
	free(p->tmp_id);
	free(p->project);
	free(p->no_project);
	free(p->home);
	free(p->session);
	cordon_strv_free(&p->env_allow);
	cordon_strv_free(&p->envrc_allowed);
	cordon_strv_free(&p->envrc_whitelisted);
	cordon_strv_free(&p->envrc_prefixes);
	cordon_strv_free(&p->git_env);
	cordon_strv_free(&p->hidden_globs);
	cordon_strv_free(&p->direnv_allow_dirs);
	cordon_strv_free(&p->omz_dotenv_lists);
	cordon_strv_free(&p->omz_dotenv_kept);
	for (size_t i = 0; i < p->n_above; i++)
		free(p->above[i].dir);
	free(p->above);
	cordon_strv_free(&p->shared);
	cordon_strv_free(&p->shared_mounts);
	free(p->omz_dotenv_name);
	free(p->omz_unasked);
	cordon_strv_free(&p->skipped);
	cordon_strv_free(&p->unfollowed);
	cordon_strv_free(&p->sockets_unapplied);
	rules_free(p->rules, p->n_rules);
	rules_free(p->written, p->n_written);
	cordon_strv_free(&p->written_raw);
	memset(p, 0, sizeof(*p));
}

bool cordon_path_under(const char *path, const char *dir)
{
	if (dir[0] == '/' && dir[1] == '\0')
		return true;
	/* (One pass, to the first difference: a launch asks ~15,000 times,
	 * mostly of paths that differ early.) */
	while (*dir && *dir == *path)
		dir++, path++;
	return !*dir && (*path == '\0' || *path == '/');
}

unsigned cordon_policy_access(const struct cordon_policy *p, const char *path,
			      const struct cordon_rule **why)
{
	unsigned access = 0;
	const struct cordon_rule *best = NULL;
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct cordon_rule *r = &p->rules[i];
		if (!cordon_path_under(path, r->path))
			continue;
		access |= r->access;
		if (!best || __builtin_popcount(r->access) > __builtin_popcount(best->access) ||
		    (r->access == best->access && strlen(r->path) > strlen(best->path)))
			best = r;
	}
	if (why)
		*why = best;
	return access;
}

const char *cordon_access_str(unsigned access, char buf[4])
{
	buf[0] = access & CORDON_ACCESS_READ ? 'r' : '-';
	buf[1] = access & CORDON_ACCESS_WRITE ? 'w' : '-';
	buf[2] = access & CORDON_ACCESS_EXEC ? 'x' : '-';
	buf[3] = '\0';
	return buf;
}

const char *cordon_config_key_for(unsigned want)
{
	if (want & CORDON_ACCESS_WRITE)
		return "additional_read_write_paths";
	if (want & CORDON_ACCESS_EXEC)
		return "additional_executable_paths";
	return "additional_read_only_paths";
}
