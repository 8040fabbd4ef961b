package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// heldEnv are the "env" settings of an agent's settings file that are
// ralph's, whichever scope file sets them: Claude Code's cap on consecutive
// Stop blocks (ralph install sets it to 0; a low cap ends the session past
// ralph's Stop) and the variables that move where ralph keeps and finds its
// state (the hooks inherit the agent's environment). Every RALPH_ variable
// is ralph's too.
var heldEnv = []string{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "XDG_STATE_HOME", "HOME", "CLAUDE_PROJECT_DIR"}

// ralphsKeys lists the keys of settings (gjson paths) that are ralph's:
// "hooks", "disableAllHooks" and the held env settings present.
func ralphsKeys(settings []byte) []string {
	keys := []string{"hooks", "disableAllHooks"}
	for _, k := range heldEnv {
		keys = append(keys, "env."+k)
	}
	gjson.GetBytes(settings, "env").ForEach(func(k, _ gjson.Result) bool {
		if strings.HasPrefix(k.Str, "RALPH_") && !strings.ContainsAny(k.Str, ".*?|#@\\") {
			keys = append(keys, "env."+k.Str)
		}
		return true
	})
	return keys
}

// sameRalphs reports whether cur holds ralph's part of a settings file as
// sealed holds it.
func sameRalphs(cur, sealed []byte) bool {
	keys := ralphsKeys(cur)
	for _, k := range ralphsKeys(sealed) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		a, b := gjson.GetBytes(cur, k), gjson.GetBytes(sealed, k)
		if k == "disableAllHooks" {
			if a.Bool() != b.Bool() {
				return false
			}
			continue
		}
		if a.Exists() != b.Exists() || compact(a.Raw) != compact(b.Raw) {
			return false
		}
	}
	return true
}

// putRalphs returns cur with ralph's part as sealed holds it: ralph's keys
// cur sets taken out, then sealed's put in.
func putRalphs(cur, sealed []byte) ([]byte, error) {
	data := cur
	var err error
	for _, k := range ralphsKeys(cur) {
		if gjson.GetBytes(data, k).Exists() {
			if data, err = sjson.DeleteBytes(data, k); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range ralphsKeys(sealed) {
		if v := gjson.GetBytes(sealed, k); v.Exists() && k != "disableAllHooks" {
			if data, err = sjson.SetRawBytes(data, k, []byte(v.Raw)); err != nil {
				return nil, err
			}
		}
	}
	return data, nil
}

// scopeFiles are Claude Code's settings files that apply to the project
// besides the one ralph install registered the hooks in: any of them can
// turn every hook off (disableAllHooks), lower the Stop cap or move ralph's
// state (env). They are checked only while the vault holds a Claude Code
// registration.
func (v *Vault) scopeFiles(ix *Index) []string {
	claude := false
	for name, rec := range ix.Files {
		if rec.Settings && filepath.Base(filepath.Dir(name)) == ".claude" {
			claude = true
		}
	}
	if !claude {
		return nil
	}
	files := []string{
		filepath.Join(v.Root, ".claude", "settings.json"),
		filepath.Join(v.Root, ".claude", "settings.local.json"),
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	var out []string
	for _, f := range files {
		if _, sealed := ix.Files[v.Name(f)]; !sealed {
			out = append(out, f)
		}
	}
	return out
}

// checkScopes takes ralph's keys out of the Claude Code settings files
// that are not sealed (another scope than the registration's): they are
// the human's and Claude Code's own (permissions it writes on "always
// allow"), except for turning ralph off. Nothing is said of a file that
// has none of ralph's keys.
func (v *Vault) checkScopes(ix *Index) ([]Restored, error) {
	var out []Restored
	var errs []error
	for _, path := range v.scopeFiles(ix) {
		r, err := v.checkScope(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if r != nil {
			r.Loops = slices.Clone(ix.Active)
			out = append(out, *r)
		}
	}
	return out, errors.Join(errs...)
}

func (v *Vault) checkScope(path string) (*Restored, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !st.Mode().IsRegular()) {
		return nil, nil // a link or a directory is not read by Claude Code as settings either way
	}
	if cur, err := os.ReadFile(path); err != nil || sameRalphs(cur, []byte("{}")) {
		return nil, nil
	}
	name := v.Name(path)
	unlock, err := v.lockFor(name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cur, err := os.ReadFile(path)
	if err != nil || !gjson.ValidBytes(cur) || sameRalphs(cur, []byte("{}")) {
		return nil, nil
	}
	data, err := putRalphs(cur, []byte("{}"))
	if err != nil {
		return nil, err
	}
	r := &Restored{Rel: name, How: "changed (ralph's hook registration)", Kept: v.keep(name, cur)}
	if err := writeAtomic(path, data); err != nil {
		return nil, err
	}
	return r, nil
}
