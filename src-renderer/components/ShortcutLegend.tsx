import { KEY_PAUSE_MS } from '../key-pause';
import { commandDescriptions, MOD, shortcutLabels, type Command } from '../keyboard';
import { SEND_SHORTCUT } from '../send-to-agent';
import { LINE_SHORTCUTS } from './Toolbar';

const ORDER: Command[] = [
  'nextHunk',
  'prevHunk',
  'acceptHunk',
  'rejectHunk',
  'acceptAll',
  'rejectAll',
  'undo',
  'submit',
  'nextReview',
  'prevReview',
];

/** Keys of the lines selected in the diff; they work in the diff also while the proposal is edited. */
const SELECTION_KEYS: Array<[key: string, description: string]> = [
  [LINE_SHORTCUTS.accept, 'Accept the selected lines'],
  [LINE_SHORTCUTS.reject, 'Reject the selected lines'],
  [SEND_SHORTCUT, 'Send the selected lines to the agent'],
];

/** The keyboard map, always one click away. Keys work anywhere except in text fields. */
export function ShortcutLegend() {
  return (
    <details className="dt-legend">
      <summary>Keyboard shortcuts</summary>
      <dl>
        {ORDER.map((command) => (
          <div key={command} className="dt-legend-row">
            <dt>
              <kbd>{shortcutLabels[command]}</kbd>
            </dt>
            <dd>{commandDescriptions[command]}</dd>
          </div>
        ))}
        {SELECTION_KEYS.map(([key, description]) => (
          <div key={key} className="dt-legend-row">
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{description}</dd>
          </div>
        ))}
      </dl>
      <p className="dt-legend-note">
        In the note to the agent, letter keys type; {MOD}+Enter submits from there too. On an approval card (a
        command to run), {shortcutLabels.submit} allows; Deny is only its button, and the hunk keys do
        nothing.
      </p>
      <p className="dt-legend-note">
        When the next review comes up by itself, decision keys wait {KEY_PAUSE_MS / 1000} s, so a key meant
        for the previous review cannot decide the new one.
      </p>
    </details>
  );
}
