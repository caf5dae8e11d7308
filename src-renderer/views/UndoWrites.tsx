import { useState } from 'react';
import type { UndoableWrites } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { displayPath, errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import { undoOutcomeText, undoQuestion } from './undo-writes-model';
import './UndoWrites.css';

/**
 * "Undo changes on disk" for one review's writes: a button, then a confirmation that names the files;
 * the outcome goes to the status line. An undone set says so instead.
 */
export function UndoWrites({ set, label }: { set: UndoableWrites; label: string }) {
  const api = useApi();
  const announce = useAppStore((s) => s.announce);
  const folders = useAppStore((s) => s.snapshot?.workspaceFolders) ?? [];
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (set.spent) {
    return <p className="dt-undo-writes-done">Changes on disk undone</p>;
  }

  const undo = async (): Promise<void> => {
    setBusy(true);
    try {
      announce(undoOutcomeText(await api.call('undoWrites', { id: set.id }), folders));
    } catch (error) {
      announce(`Could not undo: ${errorMessage(error, folders)}`);
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };

  if (!asking) {
    return (
      <button
        type="button"
        className="dt-undo-writes"
        aria-label={`Undo changes on disk of ${label}`}
        onClick={() => setAsking(true)}
      >
        Undo changes on disk
      </button>
    );
  }
  return (
    <div className="dt-undo-writes-confirm" role="group" aria-label={`Undo changes on disk of ${label}`}>
      <p>{undoQuestion(set)}</p>
      <ul>
        {set.files.map((file) => (
          <li key={file}>
            <code>{displayPath(file, folders)}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="dt-danger" disabled={busy} onClick={() => void undo()}>
        Undo
      </button>
      <button type="button" disabled={busy} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  );
}
