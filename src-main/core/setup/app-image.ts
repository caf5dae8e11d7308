/**
 * Running DiffTray's bundled CLI through its AppImage. An AppImage's files live in a mount made anew at
 * each start, so a path into it (cli.cjs) is stale by the next run; the AppImage file itself stays put.
 * Run in Node mode (ELECTRON_RUN_AS_NODE=1), it evaluates a tiny loader that finds cli.cjs in the current
 * mount through APPDIR. electron-builder's AppRun puts `--no-sandbox` before the arguments unless they
 * hold one, and Node mode refuses that option, so one is passed after `--`, where Node leaves it alone.
 */

/** The words after the AppImage file: `-e <loader> -- --no-sandbox`, then the CLI's own arguments. */
export function appImageCliArgs(cliPath: string, appDir: string | undefined): string[] {
  const inMount = appDir !== undefined && appDir !== '' && cliPath.startsWith(`${appDir}/`);
  const cli = inMount
    ? `require('path').join(process.env.APPDIR, ${JSON.stringify(cliPath.slice(appDir.length + 1))})`
    : JSON.stringify(cliPath);
  // argv as if cli.cjs were run directly, so the CLI reads its arguments where it always does.
  const loader = `const cli = ${cli}; process.argv.splice(1, 1, cli); require(cli);`;
  return ['-e', loader, '--', '--no-sandbox'];
}
