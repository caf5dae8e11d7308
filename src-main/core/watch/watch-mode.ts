/**
 * Watch mode reviews what agents write into the watched folders (docs/protocols/other-agents.md, "Agents that
 * write directly"). One client, "Changes on disk", stands for every such change while any folder is
 * watched; each folder has its own tree watch, baselines and bursts (folder-reviews.ts). Folders are
 * turned on and off while the app runs (the app's switch, `difftray watch`), one change at a time.
 *
 * Reviews of other clients move the baselines too: a file accepted through Claude Code's IDE protocol,
 * say, is written (by the agent or by DiffTray) with the text the person accepted, which must not be
 * reviewed a second time.
 */
import path from 'node:path';
import type { ClientInfo, WatchFolderIssue } from '../../../shared/app-api';
import type { AppCore } from '../app-core';
import { isInside } from '../workspace/workspace-paths';
import { Baselines } from './baselines';
import { FolderReviews, type FolderReviewsOptions } from './folder-reviews';
import { GitIndex } from './git-index';
import { TreeWatch } from './tree-watch';
import { checkWatchFolder, WatchFolderError } from './watch-folders';
import { messageOf } from '../../../shared/error-message';

export const WATCH_CLIENT_NAME = 'Changes on disk';

export interface WatchModeOptions extends FolderReviewsOptions {
  /** Baseline bytes kept per folder (limits.ts WATCH_BASELINE_MAX_BYTES by default). */
  baselineMaxBytes?: number;
}

export class WatchMode {
  private readonly folders = new Map<string, FolderReviews>();
  private client: ClientInfo | undefined;
  /** Turning folders on and off, one after the other. */
  private changing: Promise<unknown> = Promise.resolve();
  private closed = false;
  private issuesScheduled = false;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeWrites: () => void;
  private readonly unsubscribeWorkspace: () => void;
  private readonly listeners = new Set<(folders: string[]) => void>();

  constructor(
    private readonly core: AppCore,
    private readonly options: WatchModeOptions = {},
  ) {
    // DiffTray's own writes (an undo, another client's accepted review) are where the baseline is now.
    this.unsubscribeWrites = core.writer.onApplied((file, written) => {
      this.coveringFolder(file)?.writtenByDiffTray(file, written);
    });
    this.unsubscribe = core.queue.onEnded((request, outcome) => {
      // A remote review's texts were written on another host: no local baseline moves.
      if (request.client.id !== this.client?.id && outcome.kind === 'accepted' && !request.remote) {
        for (const final of outcome.files) {
          this.coveringFolder(final.path)?.acceptedElsewhere(final.path, final.finalText);
        }
      }
      // Once the review has let go of its paths.
      setImmediate(() => {
        for (const folder of this.folders.values()) folder.reviewEnded();
      });
    });
    this.unsubscribeWorkspace = core.onWorkspaceFolders((workspace) => this.leaveFoldersOutside(workspace));
  }

  /** Watch mode on `folders` (real paths inside the workspace), each walked once, here. */
  static async start(
    core: AppCore,
    folders: readonly string[],
    options: WatchModeOptions = {},
  ): Promise<WatchMode> {
    const mode = new WatchMode(core, options);
    for (const folder of folders) {
      // One folder that cannot be watched (gone since it was set) does not keep the others from it.
      await mode.setWatched(folder, true).catch((error: unknown) => {
        options.log?.(`Watch mode: ${folder} is not watched: ${messageOf(error)}`);
      });
    }
    return mode;
  }

  /** The folders watched now, sorted. */
  get watchedFolders(): string[] {
    return [...this.folders.keys()].sort();
  }

  /** The watched folders whose changes are not all reviewed now (paused, or parts not watched), sorted. */
  get issues(): WatchFolderIssue[] {
    return this.watchedFolders.flatMap((root) => this.folders.get(root)?.issue ?? []);
  }

  /** Called with the watched folders whenever the person turns one on or off. */
  onChange(listener: (folders: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Turns "Review changes on disk" on or off for `folder` (absolute, checked here, when it is used):
   * answers the folders watched after. A folder inside a watched one is already watched; turning on a
   * folder around watched ones takes their place. Their pending reviews are cancelled when a folder is
   * turned off, leaving its changes on disk as they were written. Turning on a folder watched already
   * resumes it when it is paused.
   */
  setWatched(folder: string, watched: boolean): Promise<string[]> {
    const change = this.changing.then(() => (watched ? this.add(folder) : this.remove(folder)));
    this.changing = change.catch(() => {});
    return change;
  }

  /** Looks at every folder's changes now, without waiting for their bursts to go quiet (a turn ended). */
  async flush(): Promise<void> {
    await Promise.all([...this.folders.values()].map((folder) => folder.flush()));
  }

  /** Waits for the bursts under way. */
  async settled(): Promise<void> {
    await this.changing;
    await Promise.all([...this.folders.values()].map((folder) => folder.settled()));
  }

  /** Stops watching (the app quits): what is watched stays in the settings for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    await this.changing;
    this.unsubscribe();
    this.unsubscribeWrites();
    this.unsubscribeWorkspace();
    this.stopAll('watch mode stopped');
  }

  private async add(requested: string): Promise<string[]> {
    if (this.closed) throw new WatchFolderError('stopped', 'Watch mode has stopped');
    const checked = this.check(requested);
    if ('problem' in checked) throw new WatchFolderError(checked.problem, checked.message);
    const root = checked.folder;
    if (this.outerFolder(root)) {
      this.folders.get(root)?.resume();
      return this.watchedFolders;
    }
    // Folders inside this one are seen through it from now on.
    for (const inner of [...this.folders.keys()].filter((watched) => isInside(root, watched))) {
      this.stopFolder(inner, `watching ${root} instead`);
    }
    this.client ??= this.core.clients.connect(WATCH_CLIENT_NAME, 'watch', () => {
      // The person's "Disconnect" in Connections turns watch mode off everywhere.
      void this.changing.then(() => {
        this.stopAll('watch mode turned off');
        this.changed();
      });
    });
    this.folders.set(root, await this.startFolder(root, this.client));
    this.changed();
    return this.watchedFolders;
  }

  private remove(requested: string): Promise<string[]> {
    const checked = this.check(requested);
    // The name it was turned on with comes first: a folder deleted, moved away or swapped for a link
    // since (whose real path is now elsewhere, perhaps another folder) is still turned off by that name.
    const named = path.resolve(this.base, requested);
    const real = 'folder' in checked ? checked.folder : named;
    const root = [named, real].find((candidate) => this.folders.has(candidate)) ?? real;
    if (this.folders.has(root)) {
      this.stopFolder(root, 'watch mode turned off for its folder');
      if (this.folders.size === 0) this.disconnect('watch mode turned off');
      this.changed();
    } else {
      const outer = this.outerFolder(root);
      if (outer) {
        throw new WatchFolderError(
          'covered',
          `${root} is watched as part of ${outer}: turn that folder off instead`,
        );
      }
    }
    return Promise.resolve(this.watchedFolders);
  }

  private async startFolder(root: string, client: ClientInfo): Promise<FolderReviews> {
    const { options } = this;
    const git = await GitIndex.find(root);
    const baselines = new Baselines(git, options.baselineMaxBytes);
    let starting = true;
    const tree = new TreeWatch(root, {
      onChange: (file) => reviews.noteChange(file),
      onFound: (file, size) => baselines.noteFound(file, size),
      ...(git && { gitTopLevel: git.topLevel, excludesFile: git.excludesFile }),
      onRulesRefused: (file, why) =>
        options.log?.(
          `Watch mode: ${file} not read (${why === 'symlink' ? 'a symbolic link' : why}), its rules do not apply`,
        ),
      onWatchFailed: (folder, error) => {
        if (!starting) options.log?.(`Watch mode: ${folder} cannot be watched: ${error.message}`);
        reviews.watchFailed(folder, error);
      },
      ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
    });
    const reviews = new FolderReviews(root, this.core, client, baselines, tree, options, () =>
      this.issuesChanged(),
    );
    tree.start();
    await baselines.snapshotStart(root);
    starting = false;
    const unwatched = reviews.issue?.unwatched;
    if (unwatched) {
      options.log?.(
        `Watch mode: ${unwatched.count} folder(s) in ${root} cannot be watched, their changes are not seen ` +
          `(first: ${unwatched.first}: ${unwatched.reason})` +
          (unwatched.fix ? `; fix: ${unwatched.fix.commands[0]}` : ''),
      );
    }
    return reviews;
  }

  /** Stops one folder; its pending reviews are cancelled, their changes left on disk as written. */
  private stopFolder(root: string, reason: string): void {
    this.folders.get(root)?.close();
    this.folders.delete(root);
    const clientId = this.client?.id;
    this.core.queue.cancelWhere(
      (request) => request.client.id === clientId && request.files.some((file) => isInside(root, file.path)),
      reason,
    );
  }

  /**
   * The workspace changed: a watched folder no longer inside it is no longer watched (its pending
   * reviews cancelled, its changes left on disk as written). What settings.json says is kept for runs
   * whose workspace has it.
   */
  private leaveFoldersOutside(workspace: readonly string[]): void {
    const change = this.changing.then(() => {
      const outside = [...this.folders.keys()].filter(
        (root) => !workspace.some((folder) => isInside(folder, root)),
      );
      if (outside.length === 0) return;
      for (const root of outside)
        this.stopFolder(root, 'its folder was removed from the workspace in DiffTray');
      if (this.folders.size === 0) this.disconnect('watch mode turned off');
      this.changed();
    });
    this.changing = change.catch(() => {});
  }

  private stopAll(reason: string): void {
    for (const root of [...this.folders.keys()]) this.stopFolder(root, reason);
    this.disconnect(reason);
  }

  private disconnect(reason: string): void {
    if (this.client) this.core.clientGone(this.client.id, reason);
    this.client = undefined;
  }

  private changed(): void {
    const folders = this.watchedFolders;
    this.core.noteWatchedFolders(folders);
    this.issuesChanged();
    for (const listener of this.listeners) listener(folders);
  }

  /** Coalesced: a burst of held changes tells the windows once. */
  private issuesChanged(): void {
    if (this.issuesScheduled) return;
    this.issuesScheduled = true;
    queueMicrotask(() => {
      this.issuesScheduled = false;
      this.core.noteWatchIssues(this.issues);
    });
  }

  /** Relative paths are taken from the first workspace folder, as in the settings file. */
  private check(requested: string): ReturnType<typeof checkWatchFolder> {
    return checkWatchFolder(requested, this.core.workspaceFolders, this.base);
  }

  private get base(): string {
    return this.core.workspaceFolders[0] ?? process.cwd();
  }

  /** The watched folder that `folder` is, or lies in. */
  private outerFolder(folder: string): string | undefined {
    return [...this.folders.keys()].find((watched) => isInside(watched, folder));
  }

  /** The watched folder `file` lies in (and is not skipped by). */
  private coveringFolder(file: string): FolderReviews | undefined {
    for (const folder of this.folders.values()) {
      if (folder.covers(file)) return folder;
    }
    return undefined;
  }
}
