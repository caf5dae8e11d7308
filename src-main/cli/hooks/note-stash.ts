/**
 * Notes waiting for an agent's after-tool hook. Gemini CLI drops the context of a BeforeTool answer and
 * Qwen Code that of PermissionRequest, so the note (what was kept, what was rejected, the person's words)
 * is kept here by the before-hook and printed by the after-hook of the same call: one private file per
 * call under `<DIFFTRAY_HOME>/hook-notes`, named by a hash of the agent, its session, the tool and the
 * file or command. Taking a note removes it; notes older than a day are swept when a new one is kept.
 * A note decides nothing: it is only text for the model.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../../core/disk/atomic-file';
import { readRegularFile } from '../../core/disk/regular-file';
import { difftrayHome } from '../../core/settings/settings';

const MAX_AGE_MS = 24 * 60 * 60 * 1000;
const MAX_NOTE_BYTES = 256 * 1024;

export interface NoteKey {
  agent: string;
  sessionId: string | undefined;
  toolName: string;
  /** The file as the tool names it (the rewritten input names the same file), or the command. */
  subject: string;
}

function noteFolder(env: NodeJS.ProcessEnv): string {
  return path.join(difftrayHome(env), 'hook-notes');
}

function noteFile(env: NodeJS.ProcessEnv, key: NoteKey): string {
  const id = createHash('sha256')
    .update(JSON.stringify([key.agent, key.sessionId ?? '', key.toolName, key.subject]))
    .digest('hex');
  return path.join(noteFolder(env), `${id}.txt`);
}

export function keepNote(env: NodeJS.ProcessEnv, key: NoteKey, note: string): void {
  sweepOldNotes(env);
  writeFileAtomically(noteFile(env, key), note);
}

/** The note kept for this call, removed as it is read; undefined when there is none. */
export function takeNote(env: NodeJS.ProcessEnv, key: NoteKey): string | undefined {
  const file = noteFile(env, key);
  let note: string;
  try {
    // A regular file only, bounded: never blocks on a FIFO planted in its place.
    note = readRegularFile(file, { maxBytes: MAX_NOTE_BYTES, noFollow: true });
  } catch {
    return undefined;
  }
  rmSync(file, { force: true });
  return note;
}

function sweepOldNotes(env: NodeJS.ProcessEnv): void {
  const folder = noteFolder(env);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      if (now - statSync(file).mtimeMs > MAX_AGE_MS) rmSync(file, { force: true });
    } catch {
      // Gone already (another hook swept it).
    }
  }
}
