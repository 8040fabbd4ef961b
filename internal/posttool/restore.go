package posttool

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// maxManifests bounds how many checkpoints are searched for a file, newest
// first.
const maxManifests = 60

// restorer says how to bring back a file a tool call damaged: from the
// newest rollback checkpoint that holds it, else from git, else by hand.
type restorer struct {
	root   string
	stores []checkpoint.Store // the loop's, then the project's
}

func newRestorer(sc project.Scope, getenv func(string) string) *restorer {
	r := &restorer{root: sc.Root}
	if sc.Loop != "" {
		r.stores = append(r.stores, checkpoint.For(sc, getenv))
	}
	proj := project.Scope{Layout: sc.Layout}
	r.stores = append(r.stores, checkpoint.For(proj, getenv))
	return r
}

// advice says how to restore rel (slash-separated, relative to the root);
// what names what was lost in it ("the tests").
func (r *restorer) advice(rel, what string) string {
	_, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(rel)))
	exists := err == nil
	if m := r.checkpoint(rel); m != nil {
		before := ""
		if m.Tool != "" {
			before = " before `" + clip.String(strings.TrimSpace(m.Tool+" "+relTarget(r.root, m.Target)), 120) + "`"
		}
		return "`ralph rollback --checkpoint " + m.ID + "` puts back " + rel + " as it was" + before +
			" (add --dry-run first: it restores every file of that checkpoint)"
	}
	if r.committed(rel) {
		if !exists {
			return "`git show HEAD:" + shellQuote(rel) + " > " + shellQuote(rel) + "` brings back its last committed version"
		}
		return "`git diff HEAD -- " + shellQuote(rel) + "` shows what changed since the last commit; put " + what + " back with Edit"
	}
	return "no checkpoint or commit holds it: put " + what + " back with Edit or Write"
}

// checkpoint returns the newest checkpoint storing rel as a file.
func (r *restorer) checkpoint(rel string) *checkpoint.Manifest {
	type found struct {
		store checkpoint.Store
		id    string
	}
	var ids []found
	for _, s := range r.stores {
		des, err := os.ReadDir(filepath.Join(s.Dir, "manifests"))
		if err != nil {
			continue
		}
		for _, de := range des {
			if id, ok := strings.CutSuffix(de.Name(), ".json"); ok && checkpoint.ValidID(id) {
				ids = append(ids, found{s, id})
			}
		}
	}
	// IDs start with their UTC time: newest first.
	sort.Slice(ids, func(i, j int) bool { return ids[i].id > ids[j].id })
	for i, f := range ids {
		if i == maxManifests {
			break
		}
		m, err := f.store.Load(f.id)
		if err != nil {
			continue
		}
		k, ok := slices.BinarySearchFunc(m.Entries, rel, func(e checkpoint.Entry, p string) int { return strings.Compare(e.Path, p) })
		if ok && m.Entries[k].Kind == checkpoint.KindFile {
			return m
		}
	}
	return nil
}

// committed reports whether git's HEAD holds rel.
func (r *restorer) committed(rel string) bool {
	if _, err := os.Stat(filepath.Join(r.root, ".git")); err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", r.root, "cat-file", "-e", "HEAD:"+rel)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	return cmd.Run() == nil
}

// relTarget shortens an absolute path inside root to a relative one.
func relTarget(root, target string) string {
	if filepath.IsAbs(target) {
		if rel, err := filepath.Rel(root, target); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return target
}

// shellQuote quotes s for a shell when it needs it.
func shellQuote(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '/' || c == '-' || c == '+' || c == '@' || c == ',') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	if s == "" {
		return "''"
	}
	return s
}
