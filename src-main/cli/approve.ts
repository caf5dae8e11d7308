/**
 * `difftray approve [-m why] -- <command…>`: asks the person in DiffTray whether a script may run a
 * command (an approval card, seed 001). The script runs the command itself when allowed:
 *   difftray approve -m "clean rebuild" -- rm -rf build && rm -rf build
 * Exit 0: allowed (a note, if any, on stderr); 1: denied (the note on stderr); 2: an error (DiffTray not
 * running, the card cancelled).
 */
import type { ApprovalResult, RequestPayload } from '../../shared/native-protocol';
import type { NativeClient } from './client';
import { connectOneShot } from './one-shot';
import { CliError } from './errors';

export interface ApproveIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  err: (line: string) => void;
  version: string;
}

export async function approve(command: string[], reason: string | undefined, io: ApproveIo): Promise<number> {
  if (command.length === 0)
    throw new CliError(
      'approve needs the command to ask about, after --, as in: difftray approve -- make deploy',
    );
  const client = await connectOneShot(io, { client_name: 'difftray approve', client_version: io.version });
  try {
    const result = await askApproval(client, {
      kind: 'command',
      command: command.map(shellQuote).join(' '),
      cwd: io.cwd,
      ...(reason !== undefined && { reason }),
    });
    if (result.status === 'cancelled') {
      throw new CliError(`the approval was cancelled${result.note ? `: ${result.note}` : ''}`);
    }
    if (result.note) io.err(`${result.approved ? 'Allowed' : 'Denied'}: ${result.note}`);
    else if (!result.approved) io.err('Denied in DiffTray');
    return result.approved ? 0 : 1;
  } finally {
    client.close();
  }
}

/** Puts an approval card in DiffTray's queue and waits for the person's answer. */
export async function askApproval(
  client: NativeClient,
  payload: RequestPayload<'request_approval'>,
): Promise<ApprovalResult> {
  const { request_id } = await client.request<{ request_id: string }>('request_approval', payload);
  return client.waitForPush<ApprovalResult>('approval_result', (p) => p.request_id === request_id);
}

/** Quotes one argument for a POSIX shell, only when it needs it, so the card reads like the command typed. */
export function shellQuote(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
