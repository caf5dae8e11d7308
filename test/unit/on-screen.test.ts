/** What the person looks at now: the review a window last named, until that window names none or closes. */
import { describe, expect, it } from 'vitest';
import { AppCore } from '../../src-main/core/app-core';

function coreWithReviews(count: number): { core: AppCore; ids: string[] } {
  const core = new AppCore(['/ws']);
  const client = core.clients.connect('agent', 'native');
  const ids = Array.from(
    { length: count },
    (_, i) =>
      core.queue.add({
        client,
        title: `r${i}`,
        files: [
          { path: `/ws/f${i}.txt`, base: { exists: true, kind: 'text', text: 'a\n' }, proposedText: 'b\n' },
        ],
      }).id,
  );
  return { core, ids };
}

describe('the review on screen', () => {
  it('is the one the last window named; another window naming none or closing leaves it', () => {
    const { core, ids } = coreWithReviews(2);
    const first = core.subscribe(() => {});
    const second = core.subscribe(() => {});
    let changes = 0;
    core.onScreen.onChange(() => changes++);
    expect(core.onScreen.get()).toBeNull();

    first.focus(ids[0]!);
    second.focus(ids[1]!, 0);
    expect(core.onScreen.get()).toEqual({ reviewId: ids[1], fileIndex: 0 });
    first.focus(null);
    first.close();
    expect(core.onScreen.get()).toEqual({ reviewId: ids[1], fileIndex: 0 });
    expect(changes).toBe(2);

    second.focus(null);
    expect(core.onScreen.get()).toBeNull();
    second.focus(ids[0]!);
    second.close();
    expect(core.onScreen.get()).toBeNull();
  });

  it('a review that does not exist is not on screen', () => {
    const { core } = coreWithReviews(0);
    core.subscribe(() => {}).focus('no-such-review');
    expect(core.onScreen.get()).toBeNull();
  });
});
