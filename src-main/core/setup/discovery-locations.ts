/**
 * Where other programs' discovery files live, for the pieces that read them without serving the
 * protocol (the `difftray` command reports the Clio port of the DiffTray it talks to).
 */
import os from 'node:os';
import path from 'node:path';

/** Clio's discovery file, `~/.clio/ide/bridge.json` (seed 000): one fixed name for everyone. */
export function clioBridgeFile(home = os.homedir()): string {
  return path.join(home, '.clio', 'ide', 'bridge.json');
}
