/** The Electron window's end of the stream, without Electron: nothing is built for a hidden window. */
import { describe, expect, it } from 'vitest';
import type { StateEvent } from '../../shared/app-api';
import { AppCore } from '../../src-main/core/app-core';
import { WindowFeed } from '../../src-main/desktop/window-feed';

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('WindowFeed', () => {
  it('sends the whole state when shown, changes while shown, nothing while hidden', async () => {
    const core = new AppCore(['/ws']);
    const sent: StateEvent[] = [];
    const feed = new WindowFeed(core, (event) => sent.push(event));
    const client = core.clients.connect('agent', 'native');
    const propose = (title: string) => core.queue.add({ client, title, files: [] }).id;

    propose('before the window');
    await flush();
    expect(sent).toEqual([]);
    expect(feed.current).toBeUndefined();

    feed.shown();
    expect(sent).toHaveLength(1);
    expect('snapshot' in sent[0]! && sent[0].snapshot.reviews.map((r) => r.title)).toEqual([
      'before the window',
    ]);
    propose('while shown');
    await flush();
    expect(sent).toHaveLength(2);
    expect('change' in sent[1]! && sent[1].change.added?.map((r) => r.title)).toEqual(['while shown']);

    feed.hidden();
    propose('while hidden');
    await flush();
    expect(sent).toHaveLength(2);

    feed.shown();
    expect(sent).toHaveLength(3);
    expect('snapshot' in sent[2]! && sent[2].snapshot.reviews.map((r) => r.title)).toEqual([
      'before the window',
      'while shown',
      'while hidden',
    ]);
    // Shown twice in a row: still one subscription, one snapshot.
    feed.shown();
    expect(sent).toHaveLength(3);
  });
});
