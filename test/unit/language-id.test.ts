import { describe, expect, it } from 'vitest';
import { languageIdOf } from '../../shared/language-id';

describe('languageIdOf', () => {
  it('names the language by extension or file name, VS Code’s ids, plaintext otherwise', () => {
    expect(languageIdOf('/w/src/app.tsx')).toBe('typescriptreact');
    expect(languageIdOf('C:\\w\\calc.PY')).toBe('python');
    expect(languageIdOf('/w/Dockerfile')).toBe('dockerfile');
    expect(languageIdOf('/w/notes')).toBe('plaintext');
    expect(languageIdOf('/w/.bashrc')).toBe('plaintext');
    expect(languageIdOf('/w/data.unknown')).toBe('plaintext');
    // Object's own names are not languages.
    expect(languageIdOf('/w/constructor')).toBe('plaintext');
    expect(languageIdOf('/w/x.constructor')).toBe('plaintext');
  });
});
