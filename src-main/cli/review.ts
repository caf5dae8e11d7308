/**
 * `difftray review [patch-file]`: submits a unified diff (the file, or stdin) to DiffTray as one change
 * set, waits for the person's decision and prints one line per file, then the person's note and
 * comments on lines.
 *
 * What is on disk tells the two cases apart, file by file (the app judges, see native/change-set.ts):
 * - a patch not applied yet (the disk holds its old side): the accepted hunks are applied;
 * - a patch already on disk (`git diff | difftray review` after an agent wrote the files): the accepted
 *   hunks stay, the rejected ones are reverted in the working tree;
 * - a file that matches neither side is a conflict and is left untouched.
 *
 * Paths in the patch are taken relative to the current directory, or, for a git diff (`diff --git`),
 * to the top of the git work tree the current directory is in (git writes paths from there).
 *
 * Exit codes: 0 everything accepted, 1 something rejected, 2 an error (DiffTray not running, a bad
 * patch, a conflict, a file that could not be written, a cancelled review).
 */
import { existsSync, fstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  CloseCode,
  ErrorCode,
  type ChangeSetResult,
  type FileResult,
  type HelloResponse,
  type ProposeResponse,
} from '../../shared/native-protocol';
import { isGitStylePatch, MalformedPatchError, parseUnifiedDiff } from '../../shared/unified-diff';
import { NativeClient, ProtocolError } from './client';
import { findDiffTray } from './discovery';
import { ADD_WORKSPACE_FOLDER, CliError } from './errors';
import { applyRemoteResult, planRemoteReview } from './remote-review';
import { difftrayHome } from '../core/settings/settings';
import { codeOf, messageOf } from '../../shared/error-message';
import { commentSentence } from '../../shared/review-comments';

export const CLI_CLIENT_NAME = 'difftray review';

/** When no file of the patch can be reviewed: the lines on stdout, one per file, say why. */
const NOTHING_LEFT = 'nothing to review: no file of the patch can be reviewed (each is listed with why)';

export interface ReviewOptions {
  patchFile?: string;
  title?: string;
  rationale?: string;
  criteria?: string[];
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: Readable & { isTTY?: boolean };
  /**
   * stdin's file descriptor (0), to tell a folder given as stdin (`difftray review < folder`), which Node
   * reads as empty, from an empty patch.
   */
  stdinFd?: number;
  out: (line: string) => void;
  /** Notices for a person at a terminal (not errors); undefined when stderr is not a terminal. */
  notice?: (line: string) => void;
  /** What is said on stderr whoever reads it (an empty patch's "nothing to review"). */
  warn: (line: string) => void;
  version: string;
  /** How long to keep trying to get back to DiffTray when the connection drops while waiting. */
  reconnectMs?: number;
}

export async function review(options: ReviewOptions, io: CliIo): Promise<number> {
  const patch = await readPatch(options.patchFile, io);
  if (patch.trim() === '') {
    io.warn('difftray: nothing to review (the patch is empty)');
    return 0;
  }
  let fileCount: number;
  try {
    fileCount = parseUnifiedDiff(patch).length;
  } catch (error) {
    if (error instanceof MalformedPatchError) throw new CliError(lowerFirst(error.message));
    throw error;
  }
  const baseDir = isGitStylePatch(patch) ? (gitTopLevel(io.cwd) ?? io.cwd) : io.cwd;
  const { lock } = findDiffTray(io);
  // A DiffTray on another machine (paired) cannot read these files: send their texts, write its answer here.
  const remote = lock.via ? await planRemoteReview(patch, baseDir) : undefined;
  if (remote && remote.files.length === 0) {
    // Each file's line says why; the error only says that none was left.
    for (const line of remote.leftOut) io.out(line);
    throw new CliError(NOTHING_LEFT);
  }

  let client = await NativeClient.connect(lock);
  let sessionId: string | undefined;
  let reviewId: string | undefined;
  const hello = async (target: NativeClient) => {
    const answer = await target.request<HelloResponse>('hello', {
      client_name: CLI_CLIENT_NAME,
      client_version: io.version,
      ...(sessionId !== undefined && { session_id: sessionId }),
    });
    sessionId = answer.session_id;
    target.startHeartbeat(answer.heartbeat_interval_ms);
  };

  // Ctrl-C withdraws the review rather than leaving it waiting in DiffTray for nobody.
  const onInterrupt = () => {
    const withdraw = reviewId
      ? client.request('cancel_review', {
          review_id: reviewId,
          reason: 'withdrawn (Ctrl-C in difftray review)',
        })
      : Promise.resolve();
    void Promise.race([withdraw, new Promise((resolve) => setTimeout(resolve, 1000))]).finally(() => {
      process.stderr.write('difftray: interrupted; the review was withdrawn\n');
      process.exit(130);
    });
  };
  process.once('SIGINT', onInterrupt);
  try {
    await hello(client);
    let proposed: ProposeResponse;
    try {
      proposed = await client.request<ProposeResponse>('propose_change_set', {
        title: options.title ?? defaultTitle(options.patchFile, fileCount),
        ...(options.rationale !== undefined && { rationale: options.rationale }),
        ...(options.criteria && options.criteria.length > 0 && { acceptance_criteria: options.criteria }),
        ...(remote
          ? {
              files: remote.files.map(({ file, before, after }) => ({ path: file, before, after })),
              writer: 'client',
            }
          : { patch }),
        base_dir: baseDir,
      });
    } catch (error) {
      if (error instanceof ProtocolError) {
        const files = (error.details as { files?: ProposeResponse['files'] } | undefined)?.files ?? [];
        const said = files.filter((file) => file.status !== 'pending');
        for (const file of said) io.out(formatFile({ ...file, hunks: [] } as FileResult));
        // Said once: each file's line already tells why it was left out.
        if (said.length > 0 && error.message.startsWith('Nothing to review'))
          throw new CliError(NOTHING_LEFT);
        const fix = error.code === ErrorCode.OUTSIDE_WORKSPACE ? `; ${ADD_WORKSPACE_FOLDER}` : '';
        throw new CliError(`${lowerFirst(error.message)}${fix}`);
      }
      throw error;
    }
    reviewId = proposed.review_id;
    for (const line of remote?.leftOut ?? []) io.out(line);
    io.notice?.(
      `Waiting for your review in DiffTray (${fileCount} file${fileCount === 1 ? '' : 's'}); Ctrl-C withdraws it…`,
    );

    for (;;) {
      // waitForPush also takes a result that came in the same read as the answer naming the review.
      const id = reviewId;
      const pushed = await client
        .waitForPush<ChangeSetResult>('change_set_result', (result) => result.review_id === id)
        .catch(() => undefined);
      if (pushed) {
        const decided = remote
          ? await applyRemoteResult(remote, pushed, path.join(difftrayHome(io.env), 'writes'), (line) =>
              io.out(line),
            )
          : pushed;
        const code = report(decided, io);
        // Files left out here (conflicts) were never sent: they count as the conflicts they are.
        return remote && remote.leftOut.length > 0 ? 2 : code;
      }
      const close = await client.closed;
      if (close.code === CloseCode.DISCONNECTED_BY_USER) {
        throw new CliError('the review was cancelled: DiffTray disconnected this client');
      }
      if (close.code === CloseCode.PAIRING_REVOKED) {
        throw new CliError("the review was cancelled: DiffTray revoked this host's pairing");
      }
      client = await reconnect(io, lock.port, io.reconnectMs ?? 30_000);
      try {
        await hello(client);
      } catch (error) {
        if (error instanceof ProtocolError) {
          throw new CliError(`DiffTray no longer knows this review (${lowerFirst(error.message)})`);
        }
        throw error;
      }
    }
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    // An open socket would keep the process alive after an error.
    client.close();
  }
}

/** The same DiffTray (same port), back within `withinMs`. DiffTray gone or restarted: the review is gone. */
async function reconnect(io: CliIo, port: number, withinMs: number): Promise<NativeClient> {
  const deadline = Date.now() + withinMs;
  let delay = 250;
  for (;;) {
    let lock;
    try {
      ({ lock } = findDiffTray(io));
    } catch {
      throw new CliError('DiffTray closed before the review was decided');
    }
    if (lock.port !== port)
      throw new CliError('DiffTray restarted before the review was decided; the review is gone');
    try {
      return await NativeClient.connect(lock, 5000);
    } catch {
      if (Date.now() + delay > deadline) {
        throw new CliError('the connection to DiffTray was lost before the review was decided');
      }
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 2000);
  }
}

async function readPatch(file: string | undefined, io: CliIo): Promise<string> {
  if (file !== undefined && file !== '-') {
    try {
      return readFileSync(path.resolve(io.cwd, file), 'utf8');
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ENOENT') throw new CliError(`no such patch file: ${file}`);
      if (code === 'EISDIR') throw new CliError(`${file} is a folder, not a patch file`);
      throw new CliError(`cannot read ${file}: ${messageOf(error)}`);
    }
  }
  if (io.stdin.isTTY) {
    throw new CliError('no patch given: name a patch file, or pipe one in (git diff | difftray review)');
  }
  if (io.stdinFd !== undefined && isFolder(io.stdinFd)) {
    throw new CliError(
      'stdin is a folder, not a patch',
      2,
      'pipe a patch in (git diff | difftray review) or name a patch file',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function isFolder(fd: number): boolean {
  try {
    return fstatSync(fd).isDirectory();
  } catch {
    // Closed, or not a descriptor this process has: nothing to tell; reading says the rest.
    return false;
  }
}

/** The top of the git work tree holding `dir` (where `git diff` paths start), if any. */
export function gitTopLevel(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function defaultTitle(file: string | undefined, count: number): string {
  const files = `${count} file${count === 1 ? '' : 's'}`;
  return file !== undefined && file !== '-'
    ? `${path.basename(file)} (${files})`
    : `difftray review (${files})`;
}

function report(result: ChangeSetResult, io: CliIo): number {
  for (const file of result.files) io.out(formatFile(file));
  // The person's note to the agent (a reject's note is already the files' reason).
  if (result.note !== undefined) io.out(`note: ${result.note}`);
  // Then each comment on a line: `comment: src/a.ts:12 ("const x = 1;"): name it`.
  for (const comment of result.comments ?? []) io.out(`comment: ${commentSentence(comment)}`);
  if (result.status === 'cancelled') {
    throw new CliError(`the review was cancelled${result.reason ? ` (${result.reason})` : ''}`);
  }
  return exitCodeOf(result);
}

/** 0: everything accepted; 1: something rejected; 2: a conflict or an error. */
export function exitCodeOf(result: ChangeSetResult): number {
  if (result.status === 'cancelled') return 2;
  if (result.files.some((file) => file.status === 'conflict' || file.status === 'error')) return 2;
  const rejected = result.files.some(
    (file) => file.status === 'rejected' || file.hunks.some((hunk) => hunk.decision !== 'accepted'),
  );
  return rejected ? 1 : 0;
}

/** One line per file: `applied  src/a.ts  (2/3 hunks)  sha256:…`, `rejected src/b.ts: <reason>`… */
export function formatFile(file: FileResult): string {
  const status = file.status.padEnd(8);
  switch (file.status) {
    case 'applied': {
      const notes: string[] = [];
      const total = file.hunks.length;
      if (file.deleted) notes.push('deleted');
      else if (total === 0) notes.push(file.reason ?? 'applied');
      else {
        const accepted = file.hunks.filter((hunk) => hunk.decision === 'accepted').length;
        const mixed = file.hunks.filter((hunk) => hunk.decision === 'mixed').length;
        notes.push(
          `${accepted}/${total} hunk${total === 1 ? '' : 's'}${mixed > 0 ? `, ${mixed} in part` : ''}`,
        );
      }
      if (file.reverted) notes.push('rejected lines reverted');
      const hash = file.applied_hash ? `  sha256:${file.applied_hash}` : '';
      return `${status} ${file.path}  (${notes.join(', ')})${hash}`;
    }
    case 'rejected': {
      const reverted = file.reverted ? ' (reverted in the working tree)' : '';
      return `${status} ${file.path}: ${file.reason ?? 'rejected'}${reverted}`;
    }
    default:
      return `${status} ${file.path}: ${file.reason ?? file.status}`;
  }
}

/** "Nothing to review: …" reads as "difftray: nothing to review: …"; names like DiffTray keep their case. */
export function lowerFirst(text: string): string {
  const word = text.split(/[\s:,(]/)[0] ?? '';
  return /^[A-Z][a-z]*$/.test(word) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
