/**
 * Adding and removing workspace folders from the app (Settings, the first-run ask). Each change is
 * remembered in settings.json first and then made, so a folder is never open to agents without the
 * person seeing it there next time, and a settings file that cannot be written refuses the change.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { AppCore } from '../app-core';
import { expandHome } from '../settings/settings';
import { broadFolderProblem, type FolderContext } from './workspace-choice';
import { isInside, resolveRealPath } from './workspace-paths';
import { messageOf } from '../../../shared/error-message';

export class WorkspaceFolderError extends Error {}

export interface WorkspaceEditorOptions {
  context: FolderContext;
  /** The workspace folders settings.json lists now (as written there). */
  remembered: () => readonly string[];
  /** Writes the list to settings.json; throws, with the reason, when it cannot. */
  remember: (folders: readonly string[]) => void;
}

export class WorkspaceEditor {
  constructor(
    private readonly core: AppCore,
    private readonly options: WorkspaceEditorOptions,
  ) {}

  /** Adds a folder (absolute, or ~/...); answers the workspace folders after. */
  add(requested: string): string[] {
    const folder = this.checkedFolder(requested);
    const current = this.core.workspaceFolders;
    if (current.includes(folder)) return [...current];
    const outer = current.find((existing) => isInside(existing, folder));
    if (outer !== undefined) {
      throw new WorkspaceFolderError(`${folder} is already in the workspace, inside ${outer}`);
    }
    const remembered = this.options.remembered();
    if (!remembered.some((entry) => this.realOf(entry) === folder)) this.remember([...remembered, folder]);
    this.core.setWorkspaceFolders([...current, folder]);
    return [...this.core.workspaceFolders];
  }

  /** Removes a folder, named as the app lists it; answers the workspace folders after. */
  remove(requested: string): string[] {
    const current = this.core.workspaceFolders;
    const folder = current.find((existing) => existing === requested || existing === this.realOf(requested));
    if (folder === undefined) throw new WorkspaceFolderError(`${requested} is not a workspace folder`);
    const remembered = this.options.remembered();
    const kept = remembered.filter((entry) => this.realOf(entry) !== folder && entry !== folder);
    if (kept.length !== remembered.length) this.remember(kept);
    this.core.setWorkspaceFolders(current.filter((existing) => existing !== folder));
    return [...this.core.workspaceFolders];
  }

  /**
   * settings.json's list was edited by hand, from `before` to `after` (as written there): folders taken
   * out leave the workspace; folders put in join it when they may be workspace folders, else `log` says
   * why. Nothing is written back.
   */
  followHandEdit(before: readonly string[], after: readonly string[], log: (message: string) => void): void {
    const realBefore = new Set(before.map((entry) => this.realOf(entry)));
    const realAfter = new Set(after.map((entry) => this.realOf(entry)));
    let next = this.core.workspaceFolders.filter(
      (folder) => !realBefore.has(folder) || realAfter.has(folder),
    );
    for (const entry of after) {
      if (realBefore.has(this.realOf(entry))) continue;
      try {
        const folder = this.checkedFolder(entry);
        if (!next.includes(folder)) next = [...next, folder];
      } catch (error) {
        log(`settings.json: ${entry} is not taken as a workspace folder: ${messageOf(error)}`);
      }
    }
    this.core.setWorkspaceFolders(next);
  }

  private checkedFolder(requested: string): string {
    const given = expandHome(requested, this.options.context.home);
    if (!path.isAbsolute(given)) {
      throw new WorkspaceFolderError(`${requested} is not a full path: start it with / or ~/`);
    }
    // The real path is what is kept and used, so it is what is looked at: a link swapped after the
    // look cannot turn a folder into something else.
    const folder = resolveRealPath(path.resolve(given));
    let isFolder: boolean;
    try {
      isFolder = lstatSync(folder).isDirectory();
    } catch {
      throw new WorkspaceFolderError(`${given} does not exist`);
    }
    if (!isFolder) throw new WorkspaceFolderError(`${given} is not a folder`);
    const problem = broadFolderProblem(folder, this.options.context, { homeAllowed: true });
    if (problem !== undefined)
      throw new WorkspaceFolderError(`${folder} cannot be a workspace folder: ${problem}`);
    return folder;
  }

  private realOf(entry: string): string {
    return resolveRealPath(path.resolve(expandHome(entry, this.options.context.home)));
  }

  private remember(folders: readonly string[]): void {
    try {
      this.options.remember(folders);
    } catch (error) {
      throw new WorkspaceFolderError(`The workspace folders cannot be saved: ${messageOf(error)}`);
    }
  }
}
