/**
 * What every `difftray hook <agent>` shares: its stdin read with a bound, parsed as JSON, and the rule
 * that a hook which cannot decide says why on stderr (shown only in the agent's verbose view), prints
 * nothing on stdout and exits 0, so the agent asks the person as it would without DiffTray.
 */
import type { Readable } from 'node:stream';
import { messageOf } from '../../../shared/error-message';
import { MAX_FRAME_BYTES } from '../../../shared/limits';
import { ProtocolError } from '../client';
import { CliError } from '../errors';

export interface HookIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: Readable;
  out: (text: string) => void;
  /** Why no decision was given: one line on stderr. */
  err: (line: string) => void;
}

/** The hook's stdin as JSON; throws a CliError saying what is wrong with it. */
export async function readHookInput(stdin: Readable): Promise<unknown> {
  const text = await readBounded(stdin, MAX_FRAME_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('the hook input on stdin is not JSON');
  }
}

async function readBounded(stream: Readable, maxBytes: number): Promise<string> {
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
export function passThrough(io: Pick<HookIo, 'err'>, agentName: string, why: string): 0 {
  io.err(`difftray hook: no decision (${why}); ${agentName} asks as usual`);
  return 0;
}

/** Why a hook gave no decision, from what was thrown. */
export function reasonOf(error: unknown): string {
  if (error instanceof ProtocolError) return `${error.code} ${error.message}`;
  return messageOf(error);
}
