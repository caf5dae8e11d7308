/** `ide/contextUpdate`: what DiffTray has "open", as the CLI's context about the IDE. */
import type { ReviewItem } from '../../../../shared/app-api';
import type { SentSelection } from '../../mcp-http-session';

/** The CLI keeps the 10 most recent files; sending more only costs bytes. */
export const MAX_OPEN_FILES = 10;

export interface OpenFile {
  path: string;
  timestamp: number;
  /** Only the file the person sent lines of ("Send to agent"), while it is the most recent one. */
  isActive?: true;
  selectedText?: string;
  cursor?: { line: number; character: number };
}

// A type alias, not an interface: it passes as notification params (an index-signature type).
export type IdeContext = {
  workspaceState: { openFiles: OpenFile[]; isTrusted: boolean };
};

/**
 * What DiffTray has "open": the files of every pending review, newest first, each with the time its
 * latest review arrived. None is active, as DiffTray does not know which one the person looks at,
 * except the file of the last selection sent ("Send to agent"), with its text: active as long as no
 * review arrived after it (the CLI counts only the most recent file as active, as an editor's focus).
 */
export function ideContext(reviews: readonly ReviewItem[], selection?: SentSelection): IdeContext {
  const latest = new Map<string, number>();
  for (const review of reviews) {
    if (review.state !== 'pending') continue;
    for (const file of review.files) {
      latest.set(file.path, Math.max(latest.get(file.path) ?? 0, review.createdAt));
    }
  }
  const newest = Math.max(0, ...latest.values());
  const active = selection && selection.sentAt >= newest ? selectedFile(selection) : undefined;
  if (active) latest.delete(active.path);
  const others = [...latest]
    .map(([filePath, timestamp]) => ({ path: filePath, timestamp }))
    .sort((a, b) => b.timestamp - a.timestamp);
  const openFiles = (active ? [active, ...others] : others).slice(0, MAX_OPEN_FILES);
  return { workspaceState: { openFiles, isTrusted: true } };
}

/**
 * The selected file as the VS Code companion describes its active editor: the cursor where the
 * selection ends, its line 1-based (SelectionContext's are 0-based) and its character as VS Code counts
 * it, 0-based (the companion sends VS Code's own; the schema's comment says 1-based, the CLI only shows it).
 */
function selectedFile(selection: SentSelection): OpenFile {
  return {
    path: selection.path,
    timestamp: selection.sentAt,
    isActive: true,
    selectedText: selection.text,
    cursor: { line: selection.endLine + 1, character: selection.endCharacter },
  };
}
