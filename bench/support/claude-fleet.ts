/** Many Claude Code stand-ins (the MCP SDK over WebSocket) and the workspace files they propose edits to. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectClaudeClient, type ClaudeTestClient } from '../../test/support/claude-client';
import { largeFilePair } from '../../test/support/fixtures';

/** The proposal most figures send: a 100-line file with 3 changed places (about 5 KB). */
export const SMALL_EDIT = largeFilePair(100, 3);

export async function connectFleet(port: number, token: string, count: number): Promise<ClaudeTestClient[]> {
  const clients: ClaudeTestClient[] = [];
  // One at a time: a burst of handshakes is not what is measured.
  for (let i = 0; i < count; i++) clients.push(await connectClaudeClient(port, token));
  return clients;
}

export async function closeFleet(clients: readonly ClaudeTestClient[]): Promise<void> {
  await Promise.all(clients.map((client) => client.close()));
}

/** Writes `count` files `<prefix>-<i>.ts` holding `text` into `folder`; returns their paths. */
export function writeFiles(folder: string, prefix: string, count: number, text: string): string[] {
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(folder, `${prefix}-${i}.ts`);
    writeFileSync(file, text);
    return file;
  });
}

/** The openDiff arguments Claude Code sends for `file`. */
export function openDiffArgs(file: string, proposed: string, tabName: string): Record<string, unknown> {
  return { old_file_path: file, new_file_path: file, new_file_contents: proposed, tab_name: tabName };
}

/**
 * Leaves `perClient` proposals pending from each client (tab names `<prefix>-<client>-<n>`, one file
 * each). Resolves once all were sent; their answers (rejections when the client closes) are ignored.
 */
export function proposeAndLeavePending(
  clients: readonly ClaudeTestClient[],
  files: readonly string[],
  perClient: number,
  proposed: string,
  prefix: string,
): void {
  clients.forEach((client, c) => {
    for (let n = 0; n < perClient; n++) {
      const file = files[c * perClient + n]!;
      void client.callTool('openDiff', openDiffArgs(file, proposed, `${prefix}-${c}-${n}`)).catch(() => {});
    }
  });
}
