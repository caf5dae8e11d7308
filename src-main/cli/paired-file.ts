/**
 * This host's pairing with a DiffTray on another machine (`difftray pair`): `<DIFFTRAY_HOME or
 * ~/.difftray>/paired.json`, 0600 in a 0700 folder, holding where the tunnel is, the token DiffTray gave,
 * and DiffTray's host key, pinned (trust on first use: whoever answered the pairing).
 * Used when no local DiffTray runs (no live lock file): then `difftray review` and `difftray hook` reach
 * the paired one, unchanged otherwise.
 */
import path from 'node:path';
import { z } from 'zod';
import { hostKeySchema } from '../../shared/native-handshake';
import { writeFileAtomically } from '../core/disk/atomic-file';
import { difftrayHome } from '../core/settings/settings';
import { readRegularFile } from '../core/disk/regular-file';

const pairedSchema = z.object({
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  /** DiffTray's own port, sent as the Host header when the tunnel forwards from another one. */
  serverPort: z.number().int().min(1).max(65535),
  token: z.string().min(1).max(200),
  clientId: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  pairedAt: z.number(),
  /**
   * DiffTray's host key as its answer to `pair` gave it: on every connect it must sign a fresh nonce
   * with this key. Absent in files written before keys were pinned; such a pairing is refused.
   */
  hostKey: hostKeySchema.optional(),
});
export type PairedTarget = z.infer<typeof pairedSchema>;

export function pairedFile(env: NodeJS.ProcessEnv): string {
  return path.join(difftrayHome(env), 'paired.json');
}

export function readPaired(env: NodeJS.ProcessEnv): PairedTarget | undefined {
  try {
    const parsed = pairedSchema.safeParse(JSON.parse(readRegularFile(pairedFile(env))));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writePaired(env: NodeJS.ProcessEnv, target: PairedTarget): string {
  const file = pairedFile(env);
  writeFileAtomically(file, `${JSON.stringify(target, null, 2)}\n`);
  return file;
}
