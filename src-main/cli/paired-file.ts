/**
 * This host's pairing with a DiffTray on another machine (`difftray pair`): `<DIFFTRAY_HOME or
 * ~/.difftray>/paired.json`, 0600 in a 0700 folder, holding where the tunnel is and the token DiffTray gave.
 * Used when no local DiffTray runs (no live lock file): then `difftray review` and `difftray hook` reach
 * the paired one, unchanged otherwise.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { difftrayHome } from '../core/settings';

const pairedSchema = z.object({
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  /** DiffTray's own port, sent as the Host header when the tunnel forwards from another one. */
  serverPort: z.number().int().min(1).max(65535),
  token: z.string().min(1).max(200),
  clientId: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  pairedAt: z.number(),
});
export type PairedTarget = z.infer<typeof pairedSchema>;

export function pairedFile(env: NodeJS.ProcessEnv): string {
  return path.join(difftrayHome(env), 'paired.json');
}

export function readPaired(env: NodeJS.ProcessEnv): PairedTarget | undefined {
  try {
    const parsed = pairedSchema.safeParse(JSON.parse(readFileSync(pairedFile(env), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writePaired(env: NodeJS.ProcessEnv, target: PairedTarget): string {
  const file = pairedFile(env);
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(target, null, 2)}\n`, { mode: 0o600, flag: 'w' });
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return file;
}
