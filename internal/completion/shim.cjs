// ralph's per-test reporting shim (package completion, reports.go). ralph
// loads it into every node process of a completion command's run through
// NODE_OPTIONS=--require, from a directory of its own outside the project.
// In the process of a jest, vitest or mocha command line, it asks the
// runner for a report of every test it runs, written into
// RALPH_REPORT_DIR; in every other process it does nothing. It never
// changes which tests run or how, and it never fails the process it is in.
'use strict';
(function () {
  try {
    const dir = process.env.RALPH_REPORT_DIR;
    const main = process.argv[1];
    if (!dir || !main || !require('worker_threads').isMainThread) return;
    const path = require('path');
    const fs = require('fs');
    const parts = main.split(/[\\/]/);
    const base = parts[parts.length - 1].replace(/\.(c|m)?js$/, '');
    const pkg = parts.length > 1 ? parts[parts.length - 2] : '';
    const up = parts.length > 2 ? parts[parts.length - 3] : '';
    const args = process.argv.slice(2);
    const has = (...names) => args.some((a) => names.some((n) => a === n || a.startsWith(n + '=') || a.startsWith(n + '.')));
    const out = (runner) => path.join(dir, runner + '-' + process.pid + '.json');
    const is = (name) => base === name && (pkg === '.bin' || pkg === name || pkg === 'bin' && (up === name || up === name + '-cli'));
    // The runner's own processes, its workers and the tests in them need
    // neither ralph's module nor its directory: a test that looks for
    // the directory to forge a report there finds nothing.
    const hide = () => {
      delete process.env.RALPH_REPORT_DIR;
      delete process.env.NODE_OPTIONS;
    };
    if (is('jest')) {
      // --json with --outputFile writes jest's results to the file; jest's
      // own report goes on to stderr as before.
      if (has('--json', '--outputFile', '--watch', '--watchAll', '--listTests', '--showConfig')) return;
      process.argv.push('--json', '--outputFile=' + out('jest'));
      hide();
    } else if (base === 'vitest' && (pkg === '.bin' || pkg === 'vitest')) {
      // vitest's json reporter beside the one the command asked for
      // (default when none).
      if (has('--outputFile', 'list', 'bench', 'init')) return;
      if (!has('--reporter')) process.argv.push('--reporter=default');
      process.argv.push('--reporter=json', '--outputFile.json=' + out('vitest'));
      hide();
    } else if ((base === 'mocha' || base === '_mocha') && (pkg === '.bin' || pkg === 'bin' && up === 'mocha')) {
      // mocha loads this file again as a root hook plugin (below).
      process.argv.push('--require', __filename);
    }
  } catch (e) {
    // Reporting is best effort: ralph reads what it finds.
  }

})();

// mocha's root hook plugin: after each test, in whichever process runs it
// (mocha's own, or a worker of --parallel), its file, titles, state and
// which try it was (this.retries, .mocharc's retries: a try that failed
// and is tried again has no state yet); written when the process exits.
const mochaTests = [];
exports.mochaHooks = {
  afterEach() {
    try {
      const t = this.currentTest;
      if (t && (t.state === 'passed' || t.state === 'failed')) {
        const retry = typeof t.currentRetry === 'function' ? t.currentRetry() : 0;
        mochaTests.push({ file: t.file || '', titles: t.titlePath(), state: t.state, retry: retry });
      }
    } catch (e) {}
  },
};
if (process.env.RALPH_REPORT_DIR) {
  process.on('exit', () => {
    if (mochaTests.length === 0) return;
    try {
      require('fs').writeFileSync(require('path').join(process.env.RALPH_REPORT_DIR, 'mocha-' + process.pid + '.json'), JSON.stringify({ tests: mochaTests }));
    } catch (e) {}
  });
}
