import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useActions } from '../context';
import { MOD } from '../keyboard';

/** Rejecting the whole review, with a reason that reaches the agent. A modal <dialog> traps focus for us. */
export function RejectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const actions = useActions();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void actions.reject(reason);
    setReason('');
    onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  };

  return (
    <dialog ref={dialogRef} className="dt-dialog" aria-labelledby="dt-reject-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="dt-reject-title">Reject review</h2>
        <p>Nothing is written. The reason is sent back to the agent.</p>
        <label htmlFor="dt-reject-reason">Reason</label>
        <textarea
          id="dt-reject-reason"
          rows={4}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={onKeyDown}
          autoFocus
        />
        <div className="dt-dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="dt-danger" title={`Reject review (${MOD}+Enter)`}>
            Reject review
          </button>
        </div>
      </form>
    </dialog>
  );
}
