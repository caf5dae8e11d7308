/**
 * The life of a connection prompt in core: asked, answered (once, always, deny), withdrawn, unanswered;
 * the programs allowed always, remembered through `save` and revoked; a name is no program's identity.
 */
import { describe, expect, it } from 'vitest';
import type { TrustedProgram } from '../../shared/app-api';
import {
  ConnectionRequestError,
  ConnectionRequests,
  type ConnectionPeer,
} from '../../src-main/core/connection-requests';
import { MAX_CONNECTION_REQUESTS } from '../../src-main/core/limits';
import { trustedPrograms } from '../../src-main/core/settings';
import { readSettingsFile } from '../../src-main/core/settings-read';
import { makeTempDir } from '../support/temp';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const clio: ConnectionPeer = {
  name: 'Clio',
  protocol: 'clio',
  identifiedBy: 'process',
  pid: 4242,
  executable: '/usr/bin/node',
  script: '/opt/clio/cli.js',
  cwd: '/home/me/code/app',
};

function requests(options: ConstructorParameters<typeof ConnectionRequests>[0] = {}) {
  const saved: Array<ReadonlyArray<Omit<TrustedProgram, 'key'>>> = [];
  const core = new ConnectionRequests({
    now: () => 1000,
    save: (programs) => saved.push(programs),
    ...options,
  });
  return { core, saved };
}

describe('connection prompts', () => {
  it('a prompt is listed with what identifies the process until answered; "once" lets in and forgets', async () => {
    const { core, saved } = requests({ timeoutMs: 60_000 });
    let changes = 0;
    core.onChange(() => changes++);
    const pending = core.ask(clio);
    expect(core.list()).toEqual([
      {
        id: pending.request.id,
        name: 'Clio',
        protocol: 'clio',
        identifiedBy: 'process',
        pid: 4242,
        executable: '/usr/bin/node',
        script: '/opt/clio/cli.js',
        cwd: '/home/me/code/app',
        askedAt: 1000,
        expiresAt: 61_000,
      },
    ]);
    core.answer(pending.request.id, 'once');
    expect(await pending.decision).toBe('once');
    expect(core.list()).toEqual([]);
    expect(core.isTrusted(clio)).toBe(false);
    expect(saved).toEqual([]);
    expect(changes).toBe(2);
    expect(() => core.answer(pending.request.id, 'once')).toThrow(ConnectionRequestError);
  });

  it('"always" saves the program by executable and script; the same program is trusted, another is not', async () => {
    const { core, saved } = requests();
    const pending = core.ask(clio);
    core.answer(pending.request.id, 'always');
    expect(await pending.decision).toBe('always');
    expect(saved).toEqual([[{ name: 'Clio', executable: '/usr/bin/node', script: '/opt/clio/cli.js' }]]);
    expect(core.isTrusted({ ...clio, pid: 9999, cwd: '/elsewhere' })).toBe(true);
    expect(core.isTrusted({ ...clio, script: '/tmp/other.js' })).toBe(false);
    // A name is no identity: a process identified by its executable claiming the name is still asked.
    expect(core.isTrusted({ ...clio, identifiedBy: 'name', executable: undefined, script: undefined })).toBe(
      false,
    );
    const [program] = core.trustedPrograms();
    core.revoke(program!.key);
    expect(core.isTrusted(clio)).toBe(false);
    expect(saved.at(-1)).toEqual([]);
    expect(() => core.revoke(program!.key)).toThrow(ConnectionRequestError);
  });

  it('by name where the process cannot be identified: trusts only that name, and only for name-identified peers', () => {
    const { core } = requests({ trusted: [{ name: 'Clio' }] });
    expect(core.isTrusted({ name: 'Clio', protocol: 'clio', identifiedBy: 'name' })).toBe(true);
    expect(core.isTrusted({ name: 'Other', protocol: 'clio', identifiedBy: 'name' })).toBe(false);
    expect(core.isTrusted(clio)).toBe(false);
  });

  it('a process whose executable is unknown cannot be allowed always', () => {
    const { core } = requests();
    const pending = core.ask({ name: 'Clio', protocol: 'clio', identifiedBy: 'process', pid: 7 });
    expect(() => core.answer(pending.request.id, 'always')).toThrow(/allow it once/);
    expect(core.list()).toHaveLength(1);
  });

  it('deny, unanswered (the time limit) and withdrawn each end the prompt', async () => {
    const { core } = requests({ timeoutMs: 30 });
    const denied = core.ask(clio);
    core.answer(denied.request.id, 'deny');
    expect(await denied.decision).toBe('deny');
    const unanswered = core.ask(clio);
    expect(await unanswered.decision).toBe('timeout');
    const withdrawn = core.ask(clio);
    withdrawn.cancel();
    expect(await withdrawn.decision).toBe('gone');
    expect(core.list()).toEqual([]);
  });

  it(`at most ${MAX_CONNECTION_REQUESTS} prompts wait; one more is refused at once`, () => {
    const { core } = requests();
    for (let i = 0; i < MAX_CONNECTION_REQUESTS; i++) core.ask({ ...clio, pid: i });
    expect(() => core.ask(clio)).toThrow(/already wait/);
    core.close();
    expect(core.list()).toEqual([]);
  });

  it('a save that fails refuses "always": the prompt stays, nothing is trusted', () => {
    const core = new ConnectionRequests({
      save: () => {
        throw new ConnectionRequestError('disk full');
      },
    });
    const pending = core.ask(clio);
    expect(() => core.answer(pending.request.id, 'always')).toThrow(/disk full/);
    expect(core.isTrusted(clio)).toBe(false);
    expect(core.list()).toHaveLength(1);
    core.close();
  });
});

describe('settings.json trustedPrograms', () => {
  it('reads valid entries and skips (with a warning) the others', () => {
    const temp = makeTempDir('trusted');
    try {
      const file = path.join(temp.dir, 'settings.json');
      writeFileSync(
        file,
        JSON.stringify({
          trustedPrograms: [
            { name: 'Clio', executable: '/usr/bin/node', script: '/opt/clio/cli.js' },
            { name: 'Clio' },
            { name: 'x', executable: 'relative/exe' },
            { name: 'y', script: '/a.js' },
            'nonsense',
          ],
        }),
      );
      const warnings: string[] = [];
      expect(trustedPrograms(readSettingsFile(file).main, (w) => warnings.push(w))).toEqual([
        { name: 'Clio', executable: '/usr/bin/node', script: '/opt/clio/cli.js' },
        { name: 'Clio' },
      ]);
      expect(warnings).toHaveLength(3);
    } finally {
      temp.cleanup();
    }
  });
});
