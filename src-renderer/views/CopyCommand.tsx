import { useRef } from 'react';
import { copyLabel } from '../settings/cli-guides';
import { MOD } from '../keys/keyboard';
import { useAppStore } from '../state/store';
import './CopyCommand.css';

/** Puts the element's text in the selection, so the person can copy it by hand. */
function selectText(element: HTMLElement): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/**
 * A command as code with a Copy button. Where the clipboard is not available (an insecure context, a
 * denied permission) the command is selected instead, so one keystroke copies it. Focus stays put.
 * `block`: the command on a line of its own, wrapped only between its words, the button beside it.
 */
export function CopyCommand({
  command,
  cliName,
  block = false,
}: {
  command: string;
  cliName: string;
  block?: boolean;
}) {
  const code = useRef<HTMLElement>(null);
  const announce = useAppStore((s) => s.announce);

  const copy = async (): Promise<void> => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(command);
      announce(`Copied: ${command}`);
    } catch {
      if (code.current) selectText(code.current);
      announce(`Could not copy. The command is selected: press ${MOD}+C to copy it.`);
    }
  };

  return (
    <span className={block ? 'dt-command dt-command-block' : 'dt-command'}>
      <code ref={code}>{command}</code>
      <button
        type="button"
        className="dt-copy"
        aria-label={copyLabel(command, cliName)}
        onClick={() => void copy()}
      >
        Copy
      </button>
    </span>
  );
}
