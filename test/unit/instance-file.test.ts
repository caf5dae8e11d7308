/**
 * What is in place of `<DIFFTRAY_HOME>/instance.json` when it is not a record a DiffTray wrote
 * (src-main/instance-file.ts): a symbolic link (to a record elsewhere, to /dev/zero, to a FIFO), a FIFO,
 * a file far larger than a record, a folder. Real files, FIFOs and devices.
 *
 * The policy under test: such an entry is read as no record, never followed and never waited on; a start
 * removes the entry itself (not what a link leads to) and claims the home. A folder is not DiffTray's to
 * empty: the start refuses, saying what is in the way.
 *
 * The FIFO cases cannot hang this test if the reader regresses to a blocking open: a writer process waits
 * on the FIFO with a valid record, so a reader that opened it would get that record (and fail the test)
 * rather than wait forever.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { instanceFile, ownRecord, readRecord, type InstanceRecord } from '../../src-main/instance-file';
import { claimInstance } from '../../src-main/single-instance';
import { makeTempDir } from '../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A temp folder holding `home` (DIFFTRAY_HOME, made 0700) and `elsewhere`, outside it. */
function tempFolders(): { home: string; elsewhere: string; file: string } {
  const temp = makeTempDir('instance-file');
  cleanups.push(temp.cleanup);
  const home = path.join(temp.dir, '.difftray');
  const elsewhere = path.join(temp.dir, 'elsewhere');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(elsewhere);
  return { home, elsewhere, file: instanceFile(home) };
}

/** A record as a DiffTray would write it, naming this live process: what a reader that followed would trust. */
const aRecord = (): InstanceRecord => ({ ...ownRecord('headless'), port: 4242, uiPort: 4243 });

/** A FIFO at `fifo`, with a process waiting to write a valid record into it (killed after the test). */
function fifoWithWriter(fifo: string): ChildProcess {
  const made = spawnSync('mkfifo', [fifo]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  const program = `require('node:fs').writeFileSync(process.argv[1], process.argv[2])`;
  const writer = spawn(process.execPath, ['-e', program, fifo, JSON.stringify(aRecord())], {
    stdio: 'ignore',
  });
  cleanups.push(() => writer.kill('SIGKILL'));
  return writer;
}

/** A start claims the home, and instance.json is now a regular file holding its own record. */
async function expectClaimed(home: string): Promise<void> {
  const claim = await claimInstance({ home, shell: 'headless', waitMs: 300 });
  expect(claim.kind).toBe('claimed');
  if (claim.kind !== 'claimed') return;
  cleanups.push(() => claim.instance.release());
  const file = instanceFile(home);
  expect(lstatSync(file).isFile()).toBe(true);
  expect(readRecord(file)?.record).toMatchObject({ pid: process.pid, shell: 'headless' });
  expect(readRecord(file)?.record?.port).toBeUndefined();
}

const onlyWhereFifos = process.platform === 'win32' ? it.skip : it;

describe('readRecord, and a start, with something else in place of instance.json', () => {
  it('a link to a record outside the home is not followed, and only the link is removed', async () => {
    const { home, elsewhere, file } = tempFolders();
    const target = path.join(elsewhere, 'record.json');
    const text = JSON.stringify(aRecord());
    writeFileSync(target, text);
    symlinkSync(target, file);
    expect(readRecord(file)).toEqual({ text: '', record: undefined });

    await expectClaimed(home);
    expect(readFileSync(target, 'utf8')).toBe(text);
  });

  it('a link to /dev/zero is read as no record at once, and only the link is removed', async () => {
    const { home, file } = tempFolders();
    symlinkSync('/dev/zero', file);
    expect(readRecord(file)).toEqual({ text: '', record: undefined });
    await expectClaimed(home);
    expect(lstatSync('/dev/zero').isCharacterDevice()).toBe(true);
  });

  onlyWhereFifos('a link to a FIFO outside the home is neither followed nor waited on', async () => {
    const { home, elsewhere, file } = tempFolders();
    const fifo = path.join(elsewhere, 'fifo');
    fifoWithWriter(fifo);
    symlinkSync(fifo, file);
    expect(readRecord(file)).toEqual({ text: '', record: undefined });

    await expectClaimed(home);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  onlyWhereFifos('a FIFO in its place is not waited on, and is replaced by the start', async () => {
    const { home, file } = tempFolders();
    fifoWithWriter(file);
    expect(readRecord(file)).toEqual({ text: '', record: undefined });
    await expectClaimed(home);
  });

  it('a file larger than any record is not read, even when it parses as one', async () => {
    const { home, file } = tempFolders();
    // Valid JSON (a record and trailing blanks), 1 MiB: a reader without its small bound would take it.
    const record = aRecord();
    const text = JSON.stringify(record) + ' '.repeat(1024 * 1024);
    expect(JSON.parse(text)).toEqual(record);
    writeFileSync(file, text, { mode: 0o600 });
    const read = readRecord(file);
    // Lengths, not texts: a failure's diff of 1 MiB would take the test runner ages.
    expect(read?.text.length).toBe(0);
    expect(read?.record).toBeUndefined();
    await expectClaimed(home);
  });

  it('a folder in its place is not emptied: the start refuses, naming it', async () => {
    const { home, file } = tempFolders();
    mkdirSync(file);
    const kept = path.join(file, 'notes.txt');
    writeFileSync(kept, 'mine');
    expect(readRecord(file)).toEqual({ text: '', record: undefined });

    await expect(claimInstance({ home, shell: 'headless', waitMs: 300 })).rejects.toThrow(
      `${file} is a folder, not DiffTray's instance record; move it out of the way and start again`,
    );
    expect(readFileSync(kept, 'utf8')).toBe('mine');
    expect(existsSync(file)).toBe(true);
  });
});
