import { describe, it, expect } from 'vitest';
import { processWorkingFolder } from '../../src-main/core/clients/process-info';

describe('processWorkingFolder', () => {
  it.runIf(process.platform === 'linux')('is the working folder of a live process (Linux)', () => {
    expect(processWorkingFolder(process.pid)).toBe(process.cwd());
  });

  it.runIf(process.platform !== 'linux')('is undefined off Linux', () => {
    expect(processWorkingFolder(process.pid)).toBeUndefined();
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31 - 1])(
    'is undefined for the pid %s',
    (pid) => {
      expect(processWorkingFolder(pid)).toBeUndefined();
    },
  );
});
