/**
 * Finding the process at the other end of a loopback connection through the real /proc: a child process
 * connects to a server here, and its pid, executable, script and working folder must be found.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { findLoopbackPeer, INLINE_SCRIPT, parseProcNetTcp } from '../../src-main/core/clients/peer-process';
import { makeTempDir } from '../support/temp';

const linux = process.platform === 'linux';

describe('parseProcNetTcp', () => {
  it('reads ports, uid and inode of each row, IPv4 and IPv6, and skips what is not a row', () => {
    const text = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:A1B2 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 123456 1 0 20 4 30 10 -1',
      '   1: 00000000000000000000000001000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1',
      'garbage line',
      '',
    ].join('\n');
    expect(parseProcNetTcp(text)).toEqual([
      { localPort: 0xa1b2, remotePort: 0x1f90, uid: 1000, inode: 123456 },
      { localPort: 80, remotePort: 0, uid: 0, inode: 777 },
    ]);
  });
});

describe.runIf(linux)('findLoopbackPeer (real /proc)', () => {
  let server: net.Server | undefined;
  let child: ChildProcess | undefined;
  let temp: ReturnType<typeof makeTempDir> | undefined;

  afterEach(() => {
    child?.kill();
    server?.close();
    temp?.cleanup();
  });

  it("finds a child process's pid, executable, script and working folder, running as our user", async () => {
    temp = makeTempDir('peer');
    const cwd = realpathSync(temp.dir);
    const accepted = new Promise<net.Socket>((resolve) => {
      server = net.createServer(resolve);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server!.address() as net.AddressInfo).port;
    // Code given inline (node -e): the "script" says so, not the code's text.
    const script = `require('node:net').connect(${port}, '127.0.0.1'); setInterval(() => {}, 1000);`;
    child = spawn(process.execPath, ['-e', script], { cwd, stdio: 'ignore' });
    const socket = await accepted;
    const lookup = findLoopbackPeer(port, socket.remotePort!);
    expect(lookup).toEqual({
      kind: 'same-user',
      process: {
        pid: child.pid,
        executable: realpathSync(process.execPath),
        script: INLINE_SCRIPT,
        cwd,
        argv: [process.execPath, '-e', script],
        environment: expect.any(Object),
      },
    });
    socket.destroy();
  });

  it('names the script an interpreter runs (after its options), resolved against its working folder', async () => {
    temp = makeTempDir('peer');
    const cwd = realpathSync(temp.dir);
    const accepted = new Promise<net.Socket>((resolve) => {
      server = net.createServer(resolve);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server!.address() as net.AddressInfo).port;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${cwd}/agent.cjs`,
      `require('node:net').connect(${port}, '127.0.0.1'); setInterval(() => {}, 1000);`,
    );
    child = spawn(process.execPath, ['--no-warnings', '-r', 'node:net', 'agent.cjs'], {
      cwd,
      stdio: 'ignore',
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=200', LD_PRELOAD: '', HARMLESS: 'x' },
    });
    const socket = await accepted;
    const lookup = findLoopbackPeer(port, socket.remotePort!);
    expect(lookup).toMatchObject({
      kind: 'same-user',
      process: {
        pid: child.pid,
        script: `${cwd}/agent.cjs`,
        // The whole command line, and the environment that changes what runs (read from /proc).
        argv: [process.execPath, '--no-warnings', '-r', 'node:net', 'agent.cjs'],
        environment: expect.objectContaining({ NODE_OPTIONS: '--max-old-space-size=200', LD_PRELOAD: '' }),
      },
    });
    expect(lookup.kind === 'same-user' && lookup.process?.environment).not.toHaveProperty('HARMLESS');
    socket.destroy();
  });

  it('a connection that is not there is unknown', () => {
    expect(findLoopbackPeer(1, 2)).toEqual({ kind: 'unknown' });
  });

  it('the uid compared is our own', () => {
    expect(os.userInfo().uid).toBe(process.getuid!());
  });
});
