/** Opening the person's browser from DiffTray's own process: which program, and what it is given. */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserCommand, systemBrowserOpener, throttledOpener } from '../../src-main/headless/open-browser';
import { browserRecorder } from '../support/headless-process';
import { makeTempDir } from '../support/temp';
import { until } from '../support/wait';

const URL_WITH_TOKEN = 'http://127.0.0.1:4000/?token=abc';

let temp: { dir: string; cleanup: () => void } | undefined;
afterEach(() => temp?.cleanup());

describe('browserCommand', () => {
  it("is the platform's opener, with the address as one argument (no shell)", () => {
    expect(browserCommand(URL_WITH_TOKEN, 'linux')).toEqual({ command: 'xdg-open', args: [URL_WITH_TOKEN] });
    expect(browserCommand(URL_WITH_TOKEN, 'darwin')).toEqual({ command: 'open', args: [URL_WITH_TOKEN] });
    expect(browserCommand(URL_WITH_TOKEN, 'win32')).toEqual({
      command: 'rundll32',
      args: ['url.dll,FileProtocolHandler', URL_WITH_TOKEN],
    });
  });

  it('is $BROWSER when set', () => {
    expect(browserCommand(URL_WITH_TOKEN, 'linux', { BROWSER: '/opt/firefox' })).toEqual({
      command: '/opt/firefox',
      args: [URL_WITH_TOKEN],
    });
    expect(browserCommand(URL_WITH_TOKEN, 'darwin', { BROWSER: '' }).command).toBe('open');
  });
});

describe.runIf(process.platform !== 'win32')('systemBrowserOpener', () => {
  it('starts the program on the address and says so', async () => {
    temp = makeTempDir('open-browser');
    const browser = browserRecorder(path.join(temp.dir, 'browser'));
    expect(await systemBrowserOpener('linux', { BROWSER: browser.program })(URL_WITH_TOKEN)).toBe(true);
    expect(
      await until(() => (browser.opened().length ? browser.opened() : undefined), 'the address'),
    ).toEqual([URL_WITH_TOKEN]);
  });

  it('says false when no program could be started', async () => {
    temp = makeTempDir('open-browser');
    const missing = path.join(temp.dir, 'no-such-browser');
    expect(await systemBrowserOpener('linux', { BROWSER: missing })(URL_WITH_TOKEN)).toBe(false);
  });
});

describe('throttledOpener', () => {
  it('opens once per quiet time, answering repeats with the last outcome', async () => {
    let clock = 0;
    const opened: string[] = [];
    const open = throttledOpener(
      async (url) => {
        opened.push(url);
        return opened.length === 1;
      },
      2000,
      () => clock,
    );
    expect(await open('a')).toBe(true);
    clock = 1999;
    expect(await open('a')).toBe(true);
    expect(opened).toEqual(['a']);
    clock = 2000;
    expect(await open('a')).toBe(false);
    expect(opened).toEqual(['a', 'a']);
  });
});
