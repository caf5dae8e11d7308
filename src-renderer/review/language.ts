/** Monaco language id for a path, from the extensions and file names the registered languages declare. */
export interface LanguageInfo {
  id: string;
  extensions?: string[];
  filenames?: string[];
}

export function guessLanguage(path: string, languages: readonly LanguageInfo[]): string {
  const name = (path.split(/[\\/]/).pop() ?? path).toLowerCase();
  for (const language of languages) {
    if (language.filenames?.some((filename) => filename.toLowerCase() === name)) return language.id;
  }
  // Longest matching extension wins, so ".d.ts"-style suffixes beat ".ts".
  let best: { id: string; length: number } | undefined;
  for (const language of languages) {
    for (const extension of language.extensions ?? []) {
      const ext = extension.toLowerCase();
      if (name.endsWith(ext) && (!best || ext.length > best.length))
        best = { id: language.id, length: ext.length };
    }
  }
  return best?.id ?? 'plaintext';
}
