/** The line `difftray watch` prints, from the folders DiffTray says it watches after the change. */
import { describe, expect, it } from 'vitest';
import { describeWatched, shellWord } from '../../src-main/cli/watch';

describe('difftray watch: what it says', () => {
  it('the folder watched now, with the command that turns it off', () => {
    expect(describeWatched('/w/app', true, ['/w/app', '/w/lib'])).toBe(
      'Reviewing changes on disk in /w/app (turn off: difftray watch --off /w/app)',
    );
  });

  it('a folder inside a watched one: already watched, and which folder to turn off', () => {
    expect(describeWatched('/w/app/src', true, ['/w/app'])).toBe(
      'Already reviewing changes on disk in /w/app/src, as part of /w/app (turn off: difftray watch --off /w/app)',
    );
    // A sibling whose name starts the same is not around it.
    expect(() => describeWatched('/w/app-2', true, ['/w/app'])).toThrow(
      'DiffTray did not start watching /w/app-2 (watched: /w/app)',
    );
  });

  it('turned off', () => {
    expect(describeWatched('/w/app', false, [])).toBe('Stopped reviewing changes on disk in /w/app');
  });

  it('quotes a folder the shell would split or expand', () => {
    expect(shellWord('/w/my app')).toBe(`'/w/my app'`);
    expect(shellWord("/w/it's")).toBe(`'/w/it'\\''s'`);
    expect(shellWord('/w/$HOME')).toBe(`'/w/$HOME'`);
    expect(shellWord('/w/a_b-c.d@1')).toBe('/w/a_b-c.d@1');
  });
});
