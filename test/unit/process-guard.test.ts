/**
 * The open-files limit raised to the hard limit, on a real process started with a small soft limit; and
 * output to a closed pipe dropped, in a real process whose stdout reader went away.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileLimit, raiseOpenFileLimit } from '../../src-main/process-guard';
import { makeTempDir } from '../support/temp';

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

/**
 * A real process whose stdout is a pipe that was closed (`npm start | tee log` after Ctrl-C): it keeps
 * writing, then, told to stop, says so in a file. With ignoreClosedOutput the EPIPE is dropped and it
 * gets there; without it (`guard` false), the unhandled error ends it first.
 */
describe('ignoreClosedOutput', () => {
  async function writerAfterClosedPipe(guard: boolean): Promise<{ code: number | null; stopped: boolean }> {
    const temp = makeTempDir('closed-output');
    try {
      const entry = path.join(temp.dir, 'writer.ts');
      const marker = path.join(temp.dir, 'stopped');
      writeFileSync(
        entry,
        [
          `import { writeFileSync } from 'node:fs';`,
          `import { ignoreClosedOutput } from ${JSON.stringify(path.resolve(__dirname, '../../src-main/process-guard'))};`,
          guard ? 'ignoreClosedOutput();' : '',
          `process.stdout.write('ready\\n');`,
          `setInterval(() => process.stdout.write('x'.repeat(1024)), 5);`,
          `process.on('SIGTERM', () => { writeFileSync(${JSON.stringify(marker)}, 'yes'); process.exit(0); });`,
        ].join('\n'),
      );
      const bundle = path.join(temp.dir, 'writer.cjs');
      await build({
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        outfile: bundle,
        logLevel: 'silent',
      });
      child = spawn(process.execPath, [bundle], { stdio: ['ignore', 'pipe', 'ignore'] });
      const writer = child;
      const exited = new Promise<number | null>((resolve) => writer.once('exit', (code) => resolve(code)));
      await new Promise((resolve) => writer.stdout!.once('data', resolve));
      writer.stdout!.destroy();
      // Long enough for many writes into the closed pipe.
      await new Promise((resolve) => setTimeout(resolve, 300));
      writer.kill('SIGTERM');
      const code = await exited;
      return { code, stopped: existsSync(marker) };
    } finally {
      temp.cleanup();
    }
  }

  it('keeps the process alive to clean up after its output pipe closed', async () => {
    expect(await writerAfterClosedPipe(true)).toEqual({ code: 0, stopped: true });
  });

  it('is what keeps it alive: without it, EPIPE ends the process first', async () => {
    expect(await writerAfterClosedPipe(false)).toMatchObject({ stopped: false });
  });
});
