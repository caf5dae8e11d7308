import '../settings.css';
import { useId, useState, type FormEvent, type Ref } from 'react';
import { Refusal } from './Refusal';
import { messageOf } from '../../../shared/error-message';

/**
 * A path field with Add (and, where there is one, "Choose folder…" for the desktop app's picker). `add`
 * answers why the folder was not added, or undefined when it was; the reason stays beside the field until
 * the next try.
 */
export function AddFolderForm({
  fieldLabel,
  add,
  pick,
  fieldRef,
}: {
  /** The field's accessible name, e.g. "Workspace folder to add". */
  fieldLabel: string;
  add(path: string): Promise<string | undefined>;
  /** The native folder picker; absent in a browser. Answers null when the person cancelled. */
  pick?: () => Promise<string | null>;
  /** The path field, for a section that puts focus there (after Remove took away the focused button). */
  fieldRef?: Ref<HTMLInputElement>;
}) {
  const [path, setPath] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const problemId = useId();

  const run = async (folder: string): Promise<void> => {
    setBusy(true);
    try {
      const refused = await add(folder);
      setProblem(refused);
      if (refused === undefined) setPath('');
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    if (!busy) void run(path);
  };
  const choose = async (): Promise<void> => {
    if (!pick || busy) return;
    let chosen: string | null;
    try {
      chosen = await pick();
    } catch (error) {
      setProblem(messageOf(error));
      return;
    }
    if (chosen !== null) await run(chosen);
  };

  return (
    <div className="dt-add-folder">
      {pick && (
        <button type="button" disabled={busy} onClick={() => void choose()}>
          Choose folder…
        </button>
      )}
      <form className="dt-add-folder-form" onSubmit={onSubmit}>
        <input
          ref={fieldRef}
          type="text"
          aria-label={fieldLabel}
          placeholder="/path/to/folder"
          spellCheck={false}
          autoComplete="off"
          value={path}
          aria-invalid={problem !== undefined || undefined}
          aria-describedby={problem !== undefined ? problemId : undefined}
          onChange={(event) => setPath(event.target.value)}
        />
        <button type="submit" disabled={busy} aria-busy={busy || undefined}>
          Add
        </button>
      </form>
      <Refusal id={problemId} message={problem} />
    </div>
  );
}
