import { describe, expect, it } from 'vitest';
import type { ConnectionRequest } from '../../../shared/app-api';
import {
  canAllowAlways,
  connectionPromptTitle,
  programDescription,
} from '../../../src-renderer/views/connection-prompts';

const request: ConnectionRequest = {
  id: 'connect-1',
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
  askedAt: 0,
  expiresAt: 60_000,
};

describe('connection prompt texts', () => {
  it('names the process by pid and folder, or says it only has the name the client gave', () => {
    expect(connectionPromptTitle(request)).toBe('Clio (pid 4242, /home/me/code/app) wants to connect');
    expect(
      connectionPromptTitle({
        id: 'c',
        name: 'Clio',
        protocol: 'clio',
        identifiedBy: 'name',
        canTrustAlways: true,
        askedAt: 0,
        expiresAt: 1,
      }),
    ).toBe('Clio (identified by the name it gave) wants to connect');
  });

  it('"Always" is offered only with something to recognise the program by', () => {
    expect(canAllowAlways(request)).toBe(true);
    expect(canAllowAlways({ ...request, canTrustAlways: false })).toBe(false);
    expect(programDescription(request)).toBe('/usr/bin/node /opt/clio/cli.js');
    expect(programDescription({})).toBeUndefined();
    expect(programDescription({ executable: '/usr/bin/node', script: '/opt/clio/cli.js' })).toBe(
      '/usr/bin/node /opt/clio/cli.js',
    );
  });

  it('shows the whole command line and the environment that changes what runs, hidden characters marked', () => {
    expect(
      programDescription({
        ...request,
        argv: ['node', '-r', '/tmp/evil.js', '/opt/clio/cli.js', 'two words', '\u202E'],
        environment: { NODE_OPTIONS: '--require /tmp/x.js' },
      }),
    ).toBe(
      'NODE_OPTIONS="--require /tmp/x.js" /usr/bin/node -r /tmp/evil.js /opt/clio/cli.js "two words" ⟨U+202E⟩',
    );
  });
});
