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
} from '../../src-main/core/clients/connection-requests';
import { MAX_CONNECTION_REQUESTS } from '../../src-main/core/limits';
import { trustedPrograms } from '../../src-main/core/settings/settings';
import { readSettingsFile } from '../../src-main/core/settings/settings-read';
import { makeTempDir } from '../support/temp';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { messageOf } from '../../shared/error-message';

const clio: ConnectionPeer = {
  name: 'Clio',
  protocol: 'clio',
  identifiedBy: 'process',
  pid: 4242,
  executable: '/usr/bin/node',
  script: '/opt/clio/cli.js',
  cwd: '/home/me/code/app',
  argv: ['node', '/opt/clio/cli.js'],
  environment: {},
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
        argv: ['node', '/opt/clio/cli.js'],
        environment: {},
        canTrustAlways: true,
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

  it('"always" saves the program by executable, command line and environment; the same program is trusted, another is not', async () => {
    const { core, saved } = requests();
    const pending = core.ask(clio);
    core.answer(pending.request.id, 'always');
    expect(await pending.decision).toBe('always');
    expect(saved).toEqual([
      [
        {
          name: 'Clio',
          executable: '/usr/bin/node',
          script: '/opt/clio/cli.js',
          argv: ['node', '/opt/clio/cli.js'],
          environment: {},
        },
      ],
    ]);
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

  it('a process whose executable, command line or environment is unknown cannot be allowed always', () => {
    const { core } = requests();
    const peers: ConnectionPeer[] = [
      { name: 'Clio', protocol: 'clio', identifiedBy: 'process', pid: 7 },
      { ...clio, pid: 8, argv: undefined },
      { ...clio, pid: 9, environment: undefined, script: '/opt/other.js' },
    ];
    for (const peer of peers) {
      const pending = core.ask(peer);
      expect(pending.request.canTrustAlways).toBe(false);
      expect(() => core.answer(pending.request.id, 'always')).toThrow(/allow it once/);
    }
    expect(core.list()).toHaveLength(3);
    core.close();
  });

  it('attack: "always" for `node cli.js` admits neither `node -r evil.js cli.js` nor NODE_OPTIONS=--require, nor an unreadable environment', async () => {
    const { core } = requests();
    const pending = core.ask(clio);
    core.answer(pending.request.id, 'always');
    await pending.decision;
    expect(core.isTrusted({ ...clio, pid: 5 })).toBe(true);
    expect(core.isTrusted({ ...clio, argv: ['node', '-r', '/tmp/evil.js', '/opt/clio/cli.js'] })).toBe(false);
    expect(core.isTrusted({ ...clio, environment: { NODE_OPTIONS: '--require=/tmp/evil.js' } })).toBe(false);
    expect(core.isTrusted({ ...clio, environment: { LD_PRELOAD: '/tmp/evil.so' } })).toBe(false);
    expect(core.isTrusted({ ...clio, environment: undefined })).toBe(false);
    expect(core.isTrusted({ ...clio, argv: undefined })).toBe(false);
  });

  it('an entry remembered without a command line (an older DiffTray) trusts no process: it is asked again', () => {
    const { core } = requests({
      trusted: [{ name: 'Clio', executable: '/usr/bin/node', script: '/opt/clio/cli.js' }],
    });
    expect(core.trustedPrograms()).toHaveLength(1);
    expect(core.isTrusted(clio)).toBe(false);
  });

  it('deny, unanswered (the time limit) and withdrawn each end the prompt', async () => {
    const { core } = requests({ timeoutMs: 30 });
    const denied = core.ask(clio);
    core.answer(denied.request.id, 'deny');
    expect(await denied.decision).toBe('deny');
    const unanswered = core.ask({ ...clio, script: '/opt/b.js' });
    expect(await unanswered.decision).toBe('timeout');
    const withdrawn = core.ask({ ...clio, script: '/opt/c.js' });
    withdrawn.cancel();
    expect(await withdrawn.decision).toBe('gone');
    expect(core.list()).toEqual([]);
  });

  it(`at most ${MAX_CONNECTION_REQUESTS} prompts wait; one more is refused at once`, () => {
    const { core } = requests();
    for (let i = 0; i < MAX_CONNECTION_REQUESTS; i++) core.ask({ ...clio, pid: i, script: `/opt/${i}.js` });
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

describe('back-off: a program that keeps connecting cannot flood the person with prompts', () => {
  function clocked() {
    let now = 1_000_000;
    const { core } = requests({ now: () => now, timeoutMs: 60_000 });
    return { core, advance: (ms: number) => (now += ms) };
  }

  it('attack: connect, leave, connect again 100 times: one prompt, then refusals saying when to try again', () => {
    const { core } = clocked();
    let prompts = 0;
    const refusals = new Set<string>();
    for (let i = 0; i < 100; i++) {
      try {
        const pending = core.ask({ ...clio, pid: 1000 + i, argv: ['node', '/opt/clio/cli.js', `${i}`] });
        prompts++;
        pending.cancel();
      } catch (error) {
        expect(error).toBeInstanceOf(ConnectionRequestError);
        refusals.add(messageOf(error).replace(/\d+ s/, 'N s'));
      }
    }
    expect(prompts).toBe(1);
    expect([...refusals]).toEqual([
      'DiffTray asked about this program recently and got no answer; try again in N s',
    ]);
  });

  it('one prompt per program at a time; another program is still asked', () => {
    const { core } = clocked();
    core.ask(clio);
    expect(() => core.ask({ ...clio, pid: 2 })).toThrow(/already asks the person about this program/);
    expect(core.ask({ ...clio, script: '/opt/other.js' }).request.name).toBe('Clio');
    expect(core.list()).toHaveLength(2);
    core.close();
  });

  it('unanswered prompts: the wait doubles (30 s, 60 s...); an answer resets it', async () => {
    const { core, advance } = clocked();
    core.ask(clio).cancel();
    advance(29_000);
    expect(() => core.ask(clio)).toThrow(/try again in 1 s/);
    advance(1000);
    core.ask(clio).cancel();
    advance(59_000);
    expect(() => core.ask(clio)).toThrow(/try again/);
    advance(1000);
    const third = core.ask(clio);
    core.answer(third.request.id, 'once');
    expect(await third.decision).toBe('once');
    core.ask(clio).cancel();
    advance(30_000);
    expect(core.ask(clio).request.name).toBe('Clio');
    core.close();
  });

  it('denied: refused without a prompt for 10 minutes, then asked again', () => {
    const { core, advance } = clocked();
    const denied = core.ask(clio);
    core.answer(denied.request.id, 'deny');
    advance(9 * 60_000);
    expect(() => core.ask({ ...clio, pid: 77 })).toThrow(
      /The person denied this program in DiffTray; it is refused for 60 s/,
    );
    advance(60_000);
    expect(core.ask(clio).request.name).toBe('Clio');
    core.close();
  });

  it('attack: new programs (or names) one after another: at most 6 prompts a minute in all', () => {
    const { core, advance } = clocked();
    let prompts = 0;
    for (let i = 0; i < 50; i++) {
      try {
        core.ask({ name: `agent-${i}`, protocol: 'clio', identifiedBy: 'name' }).cancel();
        prompts++;
      } catch (error) {
        expect(messageOf(error)).toMatch(/6 connection prompts were shown in the last minute/);
      }
    }
    expect(prompts).toBe(6);
    advance(60_000);
    expect(core.ask({ name: 'later', protocol: 'clio', identifiedBy: 'name' }).request.name).toBe('later');
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
            {
              name: 'Clio',
              executable: '/usr/bin/node',
              argv: ['node', 'cli.js'],
              environment: { NODE_OPTIONS: '--max-old-space-size=100' },
            },
            { name: 'z', executable: '/usr/bin/node', argv: ['node'] },
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
        {
          name: 'Clio',
          executable: '/usr/bin/node',
          argv: ['node', 'cli.js'],
          environment: { NODE_OPTIONS: '--max-old-space-size=100' },
        },
      ]);
      expect(warnings).toHaveLength(4);
    } finally {
      temp.cleanup();
    }
  });
});
