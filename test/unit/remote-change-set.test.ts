/**
 * A paired client's change set, as planned from the texts it sends: nothing of this machine's disk is
 * read, its paths are shown as it gave them, and malformed or oversized files are refused or left out.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, type RequestPayload } from '../../shared/native-protocol';
import { ChangeSetError } from '../../src-main/bridge/native/change-set';
import { planRemoteChangeSet } from '../../src-main/bridge/native/remote-change-set';

type Payload = RequestPayload<'propose_change_set'>;
const payload = (files: Payload['files'], extra: Partial<Payload> = {}): Payload =>
  ({ title: 'remote', files, ...extra }) as Payload;

describe('planRemoteChangeSet', () => {
  it('reviews the texts sent, under the client base_dir, with its own separators', () => {
    const planned = planRemoteChangeSet(
      payload([{ path: 'src\\a.ts', before: 'old\n', after: 'new\n' }], { base_dir: 'C:\\work\\' }),
    );
    expect(planned).toEqual([
      expect.objectContaining({
        kind: 'review',
        real: 'C:\\work\\src\\a.ts',
        base: { exists: true, kind: 'text', text: 'old\n' },
        proposedText: 'new\n',
        deletes: false,
      }),
    ]);
  });

  it('leaves out a file over the size limit, before or after, as the local plan does', () => {
    const planned = planRemoteChangeSet(
      payload([
        { path: '/r/big-after', before: 'x', after: 'y'.repeat(11) },
        { path: '/r/big-before', before: 'y'.repeat(11), after: 'x' },
      ]),
      10,
    );
    expect(planned).toEqual([
      expect.objectContaining({ kind: 'skipped', status: 'error', code: ErrorCode.FILE_TOO_LARGE }),
      expect.objectContaining({ kind: 'skipped', status: 'error', code: ErrorCode.FILE_TOO_LARGE }),
    ]);
    expect(planned[0]).toMatchObject({ reason: expect.stringMatching(/^larger than the [\d.]+ MB limit$/) });
  });

  it('refuses a patch, a file without before, a NUL in a path and a path given twice', () => {
    const refused = (given: Payload) => {
      try {
        planRemoteChangeSet(given);
      } catch (error) {
        expect(error).toBeInstanceOf(ChangeSetError);
        return (error as ChangeSetError).code;
      }
      throw new Error('not refused');
    };
    expect(refused({ title: 't', patch: '--- a/x\n+++ b/x\n' } as Payload)).toBe(ErrorCode.INVALID_PAYLOAD);
    expect(refused(payload([{ path: '/r/a', after: 'x' }]))).toBe(ErrorCode.INVALID_PAYLOAD);
    expect(refused(payload([{ path: '/r/a\0b', before: null, after: 'x' }]))).toBe(ErrorCode.INVALID_PAYLOAD);
    expect(
      refused(
        payload(
          [
            { path: 'a', before: null, after: 'x' },
            { path: '/r/a', before: null, after: 'y' },
          ],
          { base_dir: '/r' },
        ),
      ),
    ).toBe(ErrorCode.INVALID_PAYLOAD);
  });
});
