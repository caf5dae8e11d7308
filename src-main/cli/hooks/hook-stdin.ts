/**
 * The hook's stdin read with a bound, and the rule every `difftray hook <agent>` keeps: a hook that
 * cannot decide says why on stderr (shown only in the agent's verbose view), prints nothing on stdout
 * and exits 0, so the agent asks the person as it would without DiffTray. No dependencies: the lean
 * first step (hook-command.ts) uses it before anything else loads.
 */
import type { Readable } from 'node:stream';
import { MAX_FRAME_BYTES } from '../../../shared/limits';
import { CliError } from '../errors';

export async function readHookStdin(stream: Readable, maxBytes = MAX_FRAME_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > maxBytes) throw new CliError(`the hook input is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** No decision: one line on stderr naming the agent that will ask instead. Returns the exit code, 0. */
export function passThrough(io: { err: (line: string) => void }, agentName: string, why: string): 0 {
  io.err(`difftray hook: no decision (${why}); ${agentName} asks as usual`);
  return 0;
}
