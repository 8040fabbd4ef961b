package risk

import (
	"path"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// ormResets returns the commands of ORMs and web frameworks that drop or
// rebuild a database, for the tool that runs them: each entry is a task
// (argument) that destroys data.
func ormResets(tool string) []string {
	switch tool {
	case "prisma":
		return []string{"migrate reset", "db push --accept-data-loss", "migrate reset --force"}
	case "rails", "rake":
		return []string{"db:drop", "db:reset", "db:schema:load", "db:structure:load", "db:purge", "db:truncate_all", "db:migrate:reset", "db:seed:replant", "db:drop:all"}
	case "manage.py":
		return []string{"flush", "reset_db", "migrate zero"}
	case "django-admin":
		return []string{"flush", "reset_db"}
	case "artisan":
		return []string{"migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe"}
	case "sequelize":
		return []string{"db:drop", "db:migrate:undo:all"}
	case "knex":
		return []string{"migrate:rollback --all"}
	case "typeorm":
		return []string{"schema:drop"}
	case "alembic":
		return []string{"downgrade base"}
	case "mix":
		return []string{"ecto.drop", "ecto.reset"}
	case "supabase":
		return []string{"db reset"}
	case "dotnet":
		return []string{"ef database drop"}
	case "console":
		return []string{"doctrine:database:drop", "doctrine:schema:drop"}
	}
	return nil
}

// dataResets returns why c destroys a database or a container's data in
// a way no checkpoint of files can undo, or "".
func dataResets(c *shell.Cmd) string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.Lit()
	}
	tool, rest := c.Name, args
	// python manage.py …, php artisan …, php bin/console …
	if (interpreterName(tool) || tool == "php") && len(args) > 0 {
		tool, rest = path.Base(args[0]), args[1:]
	}
	if tool == "docker" || tool == "podman" || tool == "docker-compose" || tool == "podman-compose" {
		if i := index(rest, "down"); i >= 0 && (tool != "docker" && tool != "podman" || i > 0 && rest[i-1] == "compose") {
			for _, a := range rest[i+1:] {
				if a == "-v" || a == "--volumes" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "v") {
					return "removes the containers' volumes, and the databases kept in them, with no way back. Use `down` without -v."
				}
			}
		}
		return ""
	}
	for _, task := range ormResets(tool) {
		if subseq(rest, strings.Fields(task)) {
			return "runs `" + tool + " " + task + "`, which drops or rebuilds the database with no way back. Ask the human, or use a throwaway database."
		}
	}
	return ""
}

func interpreterName(name string) bool {
	return name == "python" || strings.HasPrefix(name, "python3") || name == "python2"
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// subseq reports whether words appear in args in order.
func subseq(args, words []string) bool {
	i := 0
	for _, a := range args {
		if i < len(words) && a == words[i] {
			i++
		}
	}
	return i == len(words)
}

// wipesDisk returns why c erases a partition table, a volume or a RAID
// member, or "".
func wipesDisk(c *shell.Cmd) string {
	var args []string
	for _, a := range c.Args {
		args = append(args, a.Lit())
	}
	has := func(opts ...string) bool {
		for _, a := range args {
			for _, o := range opts {
				if a == o || strings.HasPrefix(a, o+"=") {
					return true
				}
			}
		}
		return false
	}
	switch c.Name {
	case "sgdisk", "gdisk":
		if has("-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-d", "--delete") {
			return "erases or rewrites a partition table."
		}
	case "sfdisk":
		if has("--delete", "--wipe", "-w") {
			return "deletes partitions or wipes signatures."
		}
	case "parted":
		if has("mklabel", "rm", "mktable") {
			return "rewrites a partition table."
		}
	case "pvremove", "vgremove", "lvremove":
		return "removes an LVM volume and its data."
	case "mdadm":
		if has("--zero-superblock") {
			return "erases a RAID member's superblock."
		}
	case "cryptsetup":
		if has("luksErase", "erase") {
			return "erases an encrypted volume's keys: its data is gone."
		}
	}
	return ""
}
