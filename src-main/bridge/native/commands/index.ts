/**
 * The native protocol's commands, one entry per command the protocol names (shared/native-protocol.ts):
 * the table's type makes a missing or misnamed entry a compile error.
 */
import type { RequestCommand } from '../../../../shared/native-protocol';
import { showWindow, status } from './app';
import { requestApproval } from './approval';
import type { NativeCommand } from './command';
import {
  activeFile,
  entireCodebase,
  filterInfoCommand,
  folderContent,
  openFilesCommand,
  registerActiveTarget,
  searchWorkspace,
  workspaceTrustCommand,
} from './context';
import { proposeChangeSet } from './propose';
import { cancelReview, getReview, listReviews } from './reviews';
import { heartbeat, hello } from './session';
import { turnBegin, turnEnd, turnTouch } from './turn';
import { watchFolder } from './watch';
import { fileContent, fileTree } from './workspace-files';

export const nativeCommands: { readonly [C in RequestCommand]: NativeCommand<C> } = {
  hello,
  heartbeat,
  propose_change_set: proposeChangeSet,
  get_review: getReview,
  list_reviews: listReviews,
  cancel_review: cancelReview,
  status,
  show_window: showWindow,
  get_file_tree: fileTree,
  get_file_content: fileContent,
  request_approval: requestApproval,
  watch_folder: watchFolder,
  get_folder_content: folderContent,
  get_entire_codebase: entireCodebase,
  get_active_file_info: activeFile,
  get_open_files: openFilesCommand,
  search_workspace: searchWorkspace,
  check_workspace_trust: workspaceTrustCommand,
  get_filter_info: filterInfoCommand,
  register_active_target: registerActiveTarget,
  turn_begin: turnBegin,
  turn_touch: turnTouch,
  turn_end: turnEnd,
};

export {
  RequestError,
  type AppHooks,
  type CommandConnection,
  type NativeServices,
  type PairedIdentity,
} from './command';
