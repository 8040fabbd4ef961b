package startup

// Some tools read a configuration file of the home directory that runs
// code, when the project has none of its own (each checked here, with
// HOME pointing at a scratch directory, against the project's tests/):
// mvn's start script sources ~/.mavenrc as shell code before every build
// (Debian's maven 3.8: `mvn -v` deleted tests/); pylint runs the
// init-hook of ~/.pylintrc and ~/.config/pylintrc (pylint 2.16); rubocop
// requires the Ruby files of ~/.rubocop.yml's require: and
// ~/.config/rubocop/config.yml (rubocop 1.39); mypy loads the plugins of
// ~/.mypy.ini and ~/.config/mypy/config, and bun the preload of
// ~/.bunfig.toml (both from their documentation). They are in Names.
