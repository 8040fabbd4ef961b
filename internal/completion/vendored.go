package completion

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// vendoredModule is a module of vendor/modules.txt: its path, and the
// directory its vendored files are copies of (the module cache's copy of
// its version, or of its replacement, or a local replacement's
// directory).
type vendoredModule struct {
	path, src string
}

// vendored records the files under the project's vendor/ (when it has a
// vendor/modules.txt: go builds from it) whose status changed after since
// and whose content is not the module's: go builds a vendored package
// from vendor/ without checking it, so an assertion helper patched there
// (testify's Equal made to pass) passes the tests unchanged. `go mod
// vendor` after a dependency bump writes what the module cache holds, and
// passes. A file of a module that cannot be compared (not in the module
// cache) is recorded too.
func vendored(root string, since time.Time, in Inputs, budget *int) {
	dir := filepath.Join(root, "vendor")
	list, err := readSmall(filepath.Join(dir, "modules.txt"))
	if err != nil || list == nil {
		return
	}
	mods := vendorModules(list, root, modCacheDir())
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || *budget <= 0 {
			return fs.SkipDir
		}
		*budget--
		if d.IsDir() {
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		if ct := treeview.StampOf(info).CTime; ct == 0 || !time.Unix(0, ct).After(since) {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "modules.txt" {
			return nil // go checks it against go.mod
		}
		if why := vendorDiffers(p, rel, mods); why != "" {
			in.add("vendored file vendor/"+rel+" "+why, []byte(why))
		}
		return nil
	})
}

// vendorDiffers says how the vendored file at p (rel under vendor/)
// differs from its module's: "" when it is the same.
func vendorDiffers(p, rel string, mods []vendoredModule) string {
	var m *vendoredModule
	for i := range mods {
		if strings.HasPrefix(rel, mods[i].path+"/") && (m == nil || len(mods[i].path) > len(m.path)) {
			m = &mods[i]
		}
	}
	if m == nil {
		return "" // not a module's: go does not build it
	}
	if m.src == "" {
		return "(its module's source could not be found to compare)"
	}
	want, err := readSmall(filepath.Join(m.src, filepath.FromSlash(strings.TrimPrefix(rel, m.path+"/"))))
	if err != nil || want == nil {
		return "(not in " + m.src + ")"
	}
	got, err := readSmall(p)
	if err != nil || !bytes.Equal(got, want) {
		return "(differs from " + m.src + ")"
	}
	return ""
}

// vendorModules reads modules.txt's module lines ("# path version",
// "# path version => target [version]").
func vendorModules(list []byte, root, modcache string) []vendoredModule {
	var out []vendoredModule
	for _, l := range strings.Split(string(list), "\n") {
		if !strings.HasPrefix(l, "# ") {
			continue
		}
		f := strings.Fields(l[2:])
		if len(f) == 0 || !modPathOK(f[0]) {
			continue
		}
		m := vendoredModule{path: f[0]}
		mod, ver := f[0], ""
		if len(f) > 1 && f[1] != "=>" {
			ver = f[1]
		}
		if i := indexOf(f, "=>"); i >= 0 && i+1 < len(f) {
			mod, ver = f[i+1], ""
			if i+2 < len(f) {
				ver = f[i+2]
			}
			if ver == "" { // a local directory
				if !filepath.IsAbs(mod) {
					mod = filepath.Join(root, filepath.FromSlash(mod))
				}
				m.src = mod
				out = append(out, m)
				continue
			}
		}
		if modcache != "" && ver != "" && modPathOK(mod) && modPathOK(ver) {
			m.src = filepath.Join(modcache, filepath.FromSlash(escapeModPath(mod))+"@"+escapeModPath(ver))
		}
		out = append(out, m)
	}
	return out
}

func indexOf(f []string, s string) int {
	for i, x := range f {
		if x == s {
			return i
		}
	}
	return -1
}

// modCacheDir is go's module cache as the go command finds it: GOMODCACHE
// from the environment or the go env file, else GOPATH's first entry's
// pkg/mod, else ~/go/pkg/mod.
func modCacheDir() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if p := goEnvFile(os.Getenv("GOENV")); p != "" {
		src, _ := readSmall(p)
		for _, l := range strings.Split(string(src), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "GOMODCACHE="); ok && v != "" {
				return v
			}
		}
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go", "pkg", "mod")
	}
	return ""
}
