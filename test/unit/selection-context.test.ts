/**
 * "Send to agent" in core: the lines chosen, taken from the side of the review's file the person chose,
 * bounded, and handed to the sink the client's adapter registered; refused, saying why, otherwise.
 */
import { describe, expect, it } from 'vitest';
import { createAppApiHandler } from '../../src-main/core/app-api-handler';
import { AppCore } from '../../src-main/core/app-core';
import { MAX_SELECTION_CHARS } from '../../src-main/core/limits';
import type { SelectionContext } from '../../src-main/core/review/selection-context';

const BASE = 'one\ntwo\nthree\n';
const PROPOSED = 'one\nTWO\r\nthree\nfour';

function setup(protocol: 'claude-ide' | 'clio' = 'claude-ide', proposed = PROPOSED) {
  const core = new AppCore(['/w']);
  const handler = createAppApiHandler(core);
  const client = core.clients.connect('Agent', protocol);
  const sent: SelectionContext[] = [];
  if (protocol === 'claude-ide')
    core.clients.setContextSink(client.id, (selection) => void sent.push(selection));
  const { id } = core.queue.add({
    client,
    title: 'a.txt',
    files: [{ path: '/w/a.txt', base: { exists: true, kind: 'text', text: BASE }, proposedText: proposed }],
  });
  const send = (side: string, startLine: number, endLine: number) =>
    handler('sendSelection', { reviewId: id, fileIndex: 0, side, startLine, endLine });
  return { core, client, sent, send, id, handler };
}

describe('sendSelection', () => {
  it('sends the chosen lines of the chosen side to the review’s client', async () => {
    const { sent, send } = setup();
    await send('proposed', 1, 3);
    await send('base', 0, 0);
    expect(sent).toEqual([
      {
        path: '/w/a.txt',
        side: 'proposed',
        text: 'TWO\nthree\nfour',
        startLine: 1,
        endLine: 3,
        endCharacter: 4,
      },
      { path: '/w/a.txt', side: 'base', text: 'one', startLine: 0, endLine: 0, endCharacter: 3 },
    ]);
  });

  it('refuses lines that are not there, and says how many there are', async () => {
    const { sent, send } = setup();
    await expect(send('base', 1, 3)).rejects.toThrow('Lines 2-4 are not in the file (it has 3)');
    await expect(send('proposed', 2, 1)).rejects.toThrow(/are not in the proposal/);
    await expect(send('middle', 0, 0)).rejects.toThrow(/Invalid parameters for sendSelection/);
    await expect(send('base', -1, 0)).rejects.toThrow(/Invalid parameters for sendSelection/);
    expect(sent).toEqual([]);
  });

  it('refuses more than it sends at once', async () => {
    const { sent, send } = setup('claude-ide', `${'x'.repeat(MAX_SELECTION_CHARS)}\nmore\n`);
    await expect(send('proposed', 0, 1)).rejects.toThrow(/Too much to send/);
    await send('proposed', 0, 0);
    expect(sent).toHaveLength(1);
  });

  it('refuses a client whose protocol has no way to receive it, and one that left', async () => {
    const clio = setup('clio');
    await expect(clio.send('base', 0, 0)).rejects.toThrow('Agent has no way to receive lines from DiffTray');
    const gone = setup();
    gone.core.clients.disconnect(gone.client.id);
    await expect(gone.send('base', 0, 0)).rejects.toThrow('The agent is no longer connected');
    await expect(
      gone.handler('sendSelection', {
        reviewId: 'nope',
        fileIndex: 0,
        side: 'base',
        startLine: 0,
        endLine: 0,
      }),
    ).rejects.toThrow('No review nope');
    expect(gone.sent).toEqual([]);
  });
});
