/**
 * get_filter_info: the ignore rules in force for a workspace folder. The folder is walked (confined,
 * bounded, no file read but the .gitignore files) so that every .gitignore that applies is found; one
 * inside an ignored folder applies to nothing and is not listed.
 */
import path from 'node:path';
import {
  CONTEXT_MAX_LISTED_RULE_FILES,
  CONTEXT_MAX_WALK_ENTRIES,
  CONTEXT_MAX_WALK_MS,
} from '../../../shared/limits';
import { ALWAYS_SKIPPED } from '../watch/ignore-rules';
import { confinedWalk } from './confined-walk';
import { contextRules, filterTypeOf, type ContextFolder } from './context-folders';

export interface FilterInfo {
  filterType: 'gitignore' | 'default';
  gitignoreFiles: string[];
  gitignoreFilesTruncated: boolean;
  gitTopLevel: string | null;
  infoExclude: string | null;
  globalExcludes: string | null;
  alwaysSkipped: string[];
}

export async function filterInfo(target: ContextFolder, folders: readonly string[]): Promise<FilterInfo> {
  const { rules, gitTopLevel } = await contextRules(target, folders);
  const walk = confinedWalk(target.folder, {
    folders,
    rules,
    maxEntries: CONTEXT_MAX_WALK_ENTRIES,
    deadline: Date.now() + CONTEXT_MAX_WALK_MS,
  });
  for await (const item of walk) void item;
  const files = rules
    .ruleFolders()
    .map((folder) => path.join(folder, '.gitignore'))
    .sort();
  return {
    filterType: filterTypeOf(rules),
    gitignoreFiles: files.slice(0, CONTEXT_MAX_LISTED_RULE_FILES),
    gitignoreFilesTruncated: files.length > CONTEXT_MAX_LISTED_RULE_FILES,
    gitTopLevel: gitTopLevel ?? null,
    infoExclude: rules.infoExclude ?? null,
    globalExcludes: rules.globalExcludes ?? null,
    alwaysSkipped: [...ALWAYS_SKIPPED],
  };
}
