package shell

import "strings"

// Commands that other machines run for the command line: compose services,
// virtual machines and system containers act on their own filesystems
// (judged like another machine's, as ssh's and docker exec's are); the
// toolbox-style containers that share the user's home and the dev
// container that mounts the workspace act on the project itself (judged
// like the command line's own).

// composeValueOpts are docker compose's global options that take a value.
var composeValueOpts map[string]bool

// compose follows docker compose (docker-compose, podman compose) run and
// exec: [global options] run|exec [options] SERVICE CMD…, as docker's own.
func (w *walker) compose(c *ctx, name string, args []Word, sc *scope) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].Lit(), "-") {
		if composeValueOpts[args[i].Lit()] {
			i++
		}
		i++
	}
	if i < len(args) {
		w.container(c, name, args[i:], sc)
	}
}

// machine follows the commands a virtual machine or system container
// manager runs inside it: vagrant ssh -c 'CMD', multipass exec VM -- CMD,
// lxc/incus exec C -- CMD.
func (w *walker) machine(c *ctx, name string, args []Word) {
	if len(args) == 0 {
		return
	}
	switch sub := args[0].Lit(); {
	case name == "vagrant" && sub == "ssh":
		for i, a := range args {
			if (a.Lit() == "-c" || a.Lit() == "--command") && i+1 < len(args) {
				w.remote(c, "vagrant ssh", nil, &args[i+1])
			}
		}
	case sub == "exec" && name != "vagrant":
		for i, a := range args {
			if a.Lit() == "--" && i+1 < len(args) {
				w.remote(c, name+" exec", args[i+1:], nil)
				return
			}
		}
	}
}

// remote walks a command (its words, or one shell string) that runs on
// another machine, in a directory ralph cannot know.
func (w *walker) remote(c *ctx, host string, words []Word, text *Word) {
	rs := &scope{vars: map[string]value{}}
	n := len(w.out.Cmds)
	if text != nil {
		w.joinedOne(c.with(host), *text, rs)
	} else {
		w.exec(c.with(host), words, rs, nil, nil)
	}
	for _, rc := range w.out.Cmds[n:] {
		rc.Remote = host
	}
}
