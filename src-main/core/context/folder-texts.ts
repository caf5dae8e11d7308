/**
 * The text files of a folder inside the workspace (get_folder_content, get_entire_codebase): walked
 * confined, .gitignore honoured, bounded by CONTEXT_MAX_FILES and CONTEXT_MAX_TOTAL_BYTES, with every
 * file left out named (or counted) with its reason.
 */
import type { FilterType, LeftOut } from '../../../shared/native-context';
import {
  CONTEXT_MAX_FILES,
  CONTEXT_MAX_TOTAL_BYTES,
  CONTEXT_MAX_WALK_ENTRIES,
  CONTEXT_MAX_WALK_MS,
  describeBytes,
  utf8ByteLength,
} from '../../../shared/limits';
import { confinedWalk } from './confined-walk';
import { contextRules, filterTypeOf, type ContextFolder } from './context-folders';
import { LeftOutList, readWalkedText } from './left-out';

export interface FolderText {
  path: string;
  /** From the folder, with "/" separators. */
  relative: string;
  text: string;
  bytes: number;
}

export interface FolderTexts extends LeftOut {
  files: FolderText[];
  totalBytes: number;
  filterType: FilterType;
}

export async function readFolderTexts(
  target: ContextFolder,
  folders: readonly string[],
): Promise<FolderTexts> {
  const { rules } = await contextRules(target, folders);
  const leftOut = new LeftOutList();
  const files: FolderText[] = [];
  let totalBytes = 0;
  const walk = confinedWalk(target.folder, {
    folders,
    rules,
    maxEntries: CONTEXT_MAX_WALK_ENTRIES,
    deadline: Date.now() + CONTEXT_MAX_WALK_MS,
  });
  for await (const item of walk) {
    if (item.kind === 'skip') {
      leftOut.add(item.path, item.reason, item.note);
      continue;
    }
    if (files.length >= CONTEXT_MAX_FILES) {
      leftOut.add(item.path, 'file_count', `past the ${CONTEXT_MAX_FILES} files one answer carries`);
      continue;
    }
    const text = await readWalkedText(item, leftOut);
    if (text === undefined) continue;
    const bytes = utf8ByteLength(text);
    if (totalBytes + bytes > CONTEXT_MAX_TOTAL_BYTES) {
      const limit = describeBytes(CONTEXT_MAX_TOTAL_BYTES);
      leftOut.add(item.path, 'total_bytes', `past the ${limit} of text one answer carries`);
      continue;
    }
    totalBytes += bytes;
    files.push({ path: item.path, relative: item.relative, text, bytes });
  }
  return { files, totalBytes, filterType: filterTypeOf(rules), ...leftOut.result() };
}
