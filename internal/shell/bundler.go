package shell

import "path/filepath"

// Bundler evaluates the Gemfile, Ruby code, at every bundle command that
// resolves the bundle (bundle exec, install, update, check …), and the
// .gemspec files its gemspec line loads: `FileUtils.rm_rf("tests")` in a
// Gemfile runs at `bundle exec rspec`, the usual completion command of a
// Ruby project. The Gemfile (BUNDLE_GEMFILE, --gemfile, else the nearest)
// is read as a Ruby script. Bundler is not installed here: from its
// documentation.

// bundle walks the Gemfile a bundle command evaluates.
func (w *walker) bundle(c *ctx, args []Word, sc *scope) {
	if len(args) > 0 {
		switch args[0].Lit() {
		case "--version", "-v", "version", "help", "--help", "-h":
			return
		}
	}
	file := optValue1(args, "--gemfile", "--gemfile")
	if v, ok := sc.vars["BUNDLE_GEMFILE"]; ok && file == "" {
		if v.dynamic || len(v.vals) != 1 {
			w.opaque("bundle with BUNDLE_GEMFILE computed at run time")
			return
		}
		file = v.vals[0]
	}
	p, _, ok := w.nearest(sc.cwd, file, "Gemfile", "gems.rb")
	if !ok {
		return
	}
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(p)) // Bundler evaluates it in its directory
	w.readCode(c.with("bundle Gemfile"), "ruby", p, nsc)
	if ents, err := w.a.ReadDir(filepath.Dir(p)); err == nil {
		for _, e := range ents {
			if n := e.Name(); !e.IsDir() && filepath.Ext(n) == ".gemspec" {
				w.readCode(c.with("bundle "+n), "ruby", filepath.Join(filepath.Dir(p), n), nsc)
			}
		}
	}
}
