/**
 * The desktop's own answer to pickFolder (the native dialog, given here as the function Electron's
 * dialog would be), and every other call passed on to core's real handler.
 */
import { describe, expect, it } from 'vitest';
import type { AppSnapshot } from '../../../shared/app-api';
import { createAppApiHandler } from '../../../src-main/core/app-api-handler';
import { AppCore } from '../../../src-main/core/app-core';
import {
  desktopCalls,
  FOLDER_DIALOG_OPTIONS,
  pickFolder,
  type FolderDialogOptions,
  type ShowFolderDialog,
} from '../../../src-main/desktop/folder-picker';

/** A dialog that answers as the person did, and remembers what it was asked to show. */
function dialogAnswering(answer: { canceled: boolean; filePaths: string[] }) {
  const asked: FolderDialogOptions[] = [];
  const show: ShowFolderDialog = (options) => {
    asked.push(options);
    return Promise.resolve(answer);
  };
  return { show, asked };
}

describe('pickFolder', () => {
  it('asks for a folder (which may be created there) and answers the chosen one', async () => {
    const dialog = dialogAnswering({ canceled: false, filePaths: ['/home/ana/project'] });
    expect(await pickFolder(dialog.show)).toBe('/home/ana/project');
    expect(dialog.asked).toEqual([{ properties: ['openDirectory', 'createDirectory'] }]);
    expect(FOLDER_DIALOG_OPTIONS.properties).toContain('openDirectory');
  });

  it('answers null when the dialog is cancelled, or closes with nothing chosen', async () => {
    expect(await pickFolder(dialogAnswering({ canceled: true, filePaths: [] }).show)).toBeNull();
    expect(await pickFolder(dialogAnswering({ canceled: false, filePaths: [] }).show)).toBeNull();
  });
});

describe('desktopCalls', () => {
  const core = () => new AppCore(['/ws']);

  it('answers pickFolder with the dialog, where core alone refuses it', async () => {
    const handler = createAppApiHandler(core());
    await expect(handler('pickFolder', {})).rejects.toThrow(/needs the desktop app/);
    const dialog = dialogAnswering({ canceled: false, filePaths: ['/home/ana/project'] });
    const calls = desktopCalls(handler, dialog.show);
    expect(await calls('pickFolder', {})).toBe('/home/ana/project');
    expect(await calls('pickFolder', undefined)).toBe('/home/ana/project');
    expect(dialog.asked).toHaveLength(2);
  });

  it('refuses pickFolder with parameters of the wrong kind, without showing the dialog', async () => {
    const dialog = dialogAnswering({ canceled: false, filePaths: ['/x'] });
    const calls = desktopCalls(createAppApiHandler(core()), dialog.show);
    await expect(calls('pickFolder', 'not an object')).rejects.toThrow(/Invalid parameters for pickFolder/);
    expect(dialog.asked).toEqual([]);
  });

  it("passes every other call to core's handler and gives back its answer", async () => {
    const appCore = core();
    const client = appCore.clients.connect('agent', 'native');
    appCore.queue.add({ client, title: 'an edit', files: [] });
    const dialog = dialogAnswering({ canceled: true, filePaths: [] });
    const calls = desktopCalls(createAppApiHandler(appCore), dialog.show);
    const snapshot = (await calls('getSnapshot', {})) as AppSnapshot;
    expect(snapshot.reviews.map((review) => review.title)).toEqual(['an edit']);
    await expect(calls('formatDisk', {})).rejects.toThrow(/Unknown method: formatDisk/);
    expect(dialog.asked).toEqual([]);
  });
});
