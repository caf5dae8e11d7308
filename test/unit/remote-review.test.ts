/**
 * A paired client's review: its files are on another host, so nothing of this machine's disk is read,
 * watched or written for it, even when a local file sits at the very same path (real files, real folder
 * watches, the real queue; reads counted by disk-snapshot.ts's hook).
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../src-main/core/app-core';
import { submitWithDiskCheck } from '../../src-main/core/disk/disk-guard';
import { observeFileReads } from '../../src-main/core/disk/disk-snapshot';
import type { ReviewRequest } from '../../src-main/core/review/review-queue';
import { makeTempDir } from '../support/temp';
import { testClient } from '../support/clients';
import { until } from '../support/wait';

const REMOTE_BASE = 'one\ntwo\nthree\n';
const REMOTE_PROPOSED = 'one\nTWO\nthree\n';
const LOCAL = 'a local file\nthat happens to share the path\n';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  observeFileReads(undefined);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setUp() {
  const temp = makeTempDir('remote');
  const workspace = realpathSync(temp.dir);
  const core = new AppCore([workspace]);
  core.watchFiles();
  cleanups.push(temp.cleanup, () => core.close());
  const file = path.join(workspace, 'same.txt');
  writeFileSync(file, LOCAL);
  return { core, workspace, file };
}

function remoteRequest(file: string): ReviewRequest {
  return {
    client: testClient({ id: 'paired-1', name: 'difftray review on laptop', protocol: 'native' }),
    title: 'remote change',
    files: [
      {
        path: file,
        base: { exists: true, kind: 'text', text: REMOTE_BASE },
        proposedText: REMOTE_PROPOSED,
      },
    ],
    remote: { clientName: 'laptop' },
  };
}

describe('a remote review', () => {
  it('is shown with its client name and its paths as given, and holds no local path', () => {
    const { core, file } = setUp();
    const { id } = core.queue.add(remoteRequest(file));
    expect(core.queue.find(id)).toMatchObject({ remote: { clientName: 'laptop' }, files: [{ path: file }] });
    expect(core.queue.pendingPaths().has(file)).toBe(false);
    expect(core.queue.hasPendingPath(file)).toBe(false);
  });

  it('is not marked by changes to the local file at the same path, while a local review of it is', async () => {
    const { core, file } = setUp();
    const reads: string[] = [];
    observeFileReads((read) => reads.push(read));
    const remote = core.queue.add(remoteRequest(file));
    // A local review of the same path: it sees the local change, so the change was there to be seen.
    const local = core.queue.add({
      client: testClient({ id: 'local-1' }),
      title: 'local change',
      files: [
        { path: file, base: { exists: true, kind: 'text', text: LOCAL }, proposedText: `${LOCAL}more\n` },
      ],
    });
    writeFileSync(file, 'edited here\n');
    await until(
      () => (core.queue.find(local.id)?.files[0]?.disk.state === 'modified' ? true : undefined),
      'the local review to see the change',
    );
    expect(core.queue.find(remote.id)?.files[0]?.disk.state).toBe('unchanged');
    expect(core.queue.contents(remote.id)[0]).not.toHaveProperty('diskText');
    // Only the local review's look read the file.
    core.queue.cancelWhere((request) => request.client.id === 'local-1', 'done');
    reads.length = 0;

    await submitWithDiskCheck(core.queue, remote.id, core.workspaceFolders);
    const outcome = await remote.outcome;
    expect(outcome).toMatchObject({ kind: 'accepted', files: [{ path: file, finalText: REMOTE_PROPOSED }] });
    expect(reads).not.toContain(file);
    // Nothing was written here: the client writes the decided text on its own host.
    expect(readFileSync(file, 'utf8')).toBe('edited here\n');
  });

  it('submits without looking at the disk even when the local path cannot be looked at', async () => {
    const { core, workspace } = setUp();
    // A folder where the remote client has a file: a local look would fail ("not a regular file").
    const { id, outcome } = core.queue.add(remoteRequest(workspace));
    await submitWithDiskCheck(core.queue, id, core.workspaceFolders);
    expect((await outcome).kind).toBe('accepted');
  });

  it('undo does not bring in what a local review saw on disk at the same path', async () => {
    const { core, file } = setUp();
    const local = core.queue.add({
      client: testClient({ id: 'local-1' }),
      title: 'local',
      files: [{ path: file, base: { exists: true, kind: 'text', text: LOCAL }, proposedText: 'x\n' }],
    });
    const remote = core.queue.add(remoteRequest(file));
    core.queue.editProposal(remote.id, 0, 'edited by the person\n');
    writeFileSync(file, 'changed locally\n');
    await until(
      () => (core.queue.find(local.id)?.files[0]?.disk.state === 'modified' ? true : undefined),
      'the local review to see the change',
    );
    core.queue.undo(remote.id);
    expect(core.queue.find(remote.id)?.files[0]?.disk.state).toBe('unchanged');
  });
});
