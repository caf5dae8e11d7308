/**
 * Watch mode: reviews what any agent writes directly into the watched workspace folders (DESIGN.md,
 * "Agents that write directly"). One client, "Changes on disk", stands for every such change; each folder
 * has its own tree watch, baselines and bursts (folder-reviews.ts).
 *
 * Reviews of other clients move the baselines too: a file accepted through Claude Code's IDE protocol,
 * say, is written (by the agent or by DiffTray) with the text the person accepted, which must not be
 * reviewed a second time.
 */
import type { ClientInfo } from '../../../shared/app-api';
import type { AppCore } from '../app-core';
import { Baselines } from './baselines';
import { FolderReviews, type FolderReviewsOptions } from './folder-reviews';
import { GitIndex } from './git-index';
import { TreeWatch } from './tree-watch';

export const WATCH_CLIENT_NAME = 'Changes on disk';

export interface WatchModeOptions extends FolderReviewsOptions {
  /** Baseline bytes kept per folder (limits.ts WATCH_BASELINE_MAX_BYTES by default). */
  baselineMaxBytes?: number;
}

export class WatchMode {
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly core: AppCore,
    readonly client: ClientInfo,
    private readonly folders: FolderReviews[],
  ) {
    this.unsubscribe = core.queue.onEnded((request, outcome) => {
      if (request.client.id !== client.id && outcome.kind === 'accepted') {
        for (const final of outcome.files) {
          const folder = this.folders.find((candidate) => candidate.covers(final.path));
          folder?.acceptedElsewhere(final.path, { exists: true, kind: 'text', text: final.finalText });
        }
      }
      // Once the review has let go of its paths.
      setImmediate(() => {
        for (const folder of this.folders) folder.reviewEnded();
      });
    });
  }

  /** Starts watching `folders` (real paths inside the workspace): each is walked once, here. */
  static async start(
    core: AppCore,
    folders: readonly string[],
    options: WatchModeOptions = {},
  ): Promise<WatchMode> {
    // The person's "Disconnect" stops watch mode.
    const started: { mode?: WatchMode } = {};
    const client = core.clients.connect(WATCH_CLIENT_NAME, 'watch', () => void started.mode?.close());
    const watched: FolderReviews[] = [];
    for (const root of folders) {
      const git = await GitIndex.find(root);
      const baselines = new Baselines(git, options.baselineMaxBytes);
      let starting = true;
      let failed = 0;
      let firstFailure = '';
      const tree = new TreeWatch(root, {
        onChange: (file) => reviews.noteChange(file),
        onFound: (file, size) => baselines.noteFound(file, size),
        ...(git && { gitTopLevel: git.topLevel }),
        onWatchFailed: (folder, error) => {
          if (!starting) options.log?.(`Watch mode: ${folder} cannot be watched: ${error.message}`);
          else if (failed++ === 0) firstFailure = `${folder}: ${error.message}`;
        },
        ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
      });
      const reviews = new FolderReviews(root, core, client, baselines, tree, options);
      tree.start();
      await baselines.snapshotStart(root);
      starting = false;
      if (failed > 0) {
        options.log?.(
          `Watch mode: ${failed} folder(s) in ${root} cannot be watched, their changes are not seen ` +
            `(first: ${firstFailure}; on Linux, fs.inotify.max_user_watches may be too low)`,
        );
      }
      watched.push(reviews);
    }
    started.mode = new WatchMode(core, client, watched);
    return started.mode;
  }

  /** Waits for the bursts under way. */
  async settled(): Promise<void> {
    await Promise.all(this.folders.map((folder) => folder.settled()));
  }

  /** Stops watching; its pending reviews are cancelled, leaving the changes on disk as they were written. */
  close(): Promise<void> {
    this.unsubscribe();
    for (const folder of this.folders.splice(0)) folder.close();
    this.core.clientGone(this.client.id, 'watch mode stopped');
    return Promise.resolve();
  }
}
