/** The open-files limit raised to the hard limit, on a real process started with a small soft limit. */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileLimit, raiseOpenFileLimit } from '../../src-main/process-guard';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

describe.runIf(process.platform === 'linux')('raiseOpenFileLimit', () => {
  it('raises a soft limit below the hard one to the hard one', async () => {
    const own = openFileLimit()!;
    expect(own.hard).toBeGreaterThan(64);
    child = spawn('sh', ['-c', 'ulimit -S -n 64 && exec sleep 60'], { stdio: 'ignore' });
    // exec replaces the shell: the pid is sleep's once its limits show the 64.
    for (let tries = 0; openFileLimit(child.pid!)?.soft !== 64; tries++) {
      expect(tries).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const lines: string[] = [];
    const raised = raiseOpenFileLimit(child.pid!, (line) => lines.push(line));
    expect(raised).toEqual({ soft: own.hard, hard: own.hard });
    expect(openFileLimit(child.pid!)).toEqual({ soft: own.hard, hard: own.hard });
    expect(lines).toEqual([]);
  });

  it('leaves a soft limit that is already the hard one as it is', () => {
    const own = openFileLimit()!;
    expect(raiseOpenFileLimit()).toEqual(own);
    expect(own.soft).toBe(own.hard);
  });
});
