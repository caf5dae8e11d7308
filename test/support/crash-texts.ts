/** The texts the crash test's child writes: big enough that a kill often lands mid-write. */
export const CRASH_TEXTS = {
  a: 'a'.repeat(2 * 1024 * 1024 - 1) + '\n',
  b: 'b'.repeat(3 * 1024 * 1024 - 1) + '\n',
  doomed: 'delete me\n'.repeat(100_000),
};
