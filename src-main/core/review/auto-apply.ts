/**
 * Auto-apply (settings `autoApply`): the clients, by the name shown under Connections, whose proposals
 * are accepted whole as they arrive, as if the person accepted every hunk and submitted. Never a change
 * to an agent-control file (shared/agent-control-files.ts): that one waits for the person.
 */
import { agentControlReason } from '../../../shared/agent-control-files';
import type { ClientInfo } from '../../../shared/app-api';
import { describeProtocol } from '../../../shared/protocols';

/** What History shows on a review accepted this way. */
export const AUTO_APPLIED_NOTE = 'Applied without review: auto-apply is on for this client.';

/** Between a program's name and its session's in a client's name ("Copilot CLI · Fix the parser"). */
export const SESSION_SEPARATOR = ' · ';

/**
 * Names match whatever their case and surrounding spaces, as a person types them in settings.json; the
 * program's name alone also matches each of its sessions named after it.
 */
export function autoApplyNames(names: readonly string[], clientName: string): boolean {
  const normal = (name: string) => name.trim().toLowerCase();
  const candidates = new Set([normal(clientName), normal(clientName.split(SESSION_SEPARATOR)[0]!)]);
  return names.some((entry) => candidates.has(normal(entry)));
}

/**
 * Whether a review from `client` is accepted at once under `names`. DiffTray's own reviews (changes seen
 * on disk, an undo's merge) are never: they are not a client's proposals (their descriptor's autoApply).
 */
export function autoAppliesTo(
  names: readonly string[],
  client: Pick<ClientInfo, 'name' | 'protocol'>,
): boolean {
  if (!describeProtocol(client.protocol).capabilities.autoApply) return false;
  return autoApplyNames(names, client.name);
}

/** The description of an auto-applied review: the client's, then the note. */
export function withAutoAppliedNote(description: string | undefined): string {
  return description !== undefined && description.trim() !== ''
    ? `${description}\n\n${AUTO_APPLIED_NOTE}`
    : AUTO_APPLIED_NOTE;
}

/**
 * Why a review that auto-apply would accept waits for the person instead: the first of its files that is
 * an agent-control file, or undefined when none is.
 */
export function agentControlHold(files: ReadonlyArray<{ path: string }>): string | undefined {
  for (const file of files) {
    const reason = agentControlReason(file.path);
    if (reason !== undefined) {
      return `Auto-apply left this for review: ${file.path} is an agent-control file, ${reason}.`;
    }
  }
  return undefined;
}
