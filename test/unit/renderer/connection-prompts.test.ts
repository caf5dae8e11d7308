import { describe, expect, it } from 'vitest';
import type { ConnectionRequest } from '../../../shared/app-api';
import {
  canAllowAlways,
  connectionPromptTitle,
  programDescription,
} from '../../../src-renderer/connection-prompts';

const request: ConnectionRequest = {
  id: 'connect-1',
  name: 'Clio',
  protocol: 'clio',
  identifiedBy: 'process',
  pid: 4242,
  executable: '/usr/bin/node',
  script: '/opt/clio/cli.js',
  cwd: '/home/me/code/app',
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
        askedAt: 0,
        expiresAt: 1,
      }),
    ).toBe('Clio (identified by the name it gave) wants to connect');
  });

  it('"Always" is offered only with something to recognise the program by', () => {
    expect(canAllowAlways(request)).toBe(true);
    expect(canAllowAlways({ ...request, executable: undefined })).toBe(false);
    expect(canAllowAlways({ ...request, identifiedBy: 'name', executable: undefined })).toBe(true);
    expect(programDescription(request)).toBe('/usr/bin/node /opt/clio/cli.js');
    expect(programDescription({})).toBeUndefined();
  });
});
