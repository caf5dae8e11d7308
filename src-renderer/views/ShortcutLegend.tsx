import { useState } from 'react';
import type { KeyCommand, KeyMap } from '../../shared/keymap';
import { KEY_PAUSE_MS } from '../keys/key-pause';
import { keysLabel } from '../keys/key-chords';
import { useKeyMap } from '../keys/key-map';
import { commandDescriptions, MOD, REVIEW_COMMANDS } from '../keys/keyboard';
import { LINE_COMMANDS } from '../keys/line-keys';
import './ShortcutLegend.css';

/** Keys of the lines selected in the diff; they work in the diff also while the proposal is edited. */
const SELECTION_COMMANDS: readonly KeyCommand[] = [...LINE_COMMANDS, 'sendToAgent'];

function LegendRows({ commands, keyMap }: { commands: readonly KeyCommand[]; keyMap: KeyMap }) {
  return commands.map((command) => (
    <div key={command} className="dt-legend-row" data-command={command}>
      <dt>{keyMap[command].length > 0 ? <kbd>{keysLabel(keyMap, command)}</kbd> : 'No key'}</dt>
      <dd>{commandDescriptions[command]}</dd>
    </div>
  ));
}

/** The keyboard map, always one click away. Keys work anywhere except in text fields. */
export function ShortcutLegend() {
  const keyMap = useKeyMap();
  const submitKeys = keysLabel(keyMap, 'submit');
  // The rows are made when the legend is first opened: the first screen does not show them.
  const [opened, setOpened] = useState(false);
  return (
    <details className="dt-legend" onToggle={(event) => event.currentTarget.open && setOpened(true)}>
      <summary>Keyboard shortcuts</summary>
      {opened && <ShortcutRows keyMap={keyMap} submitKeys={submitKeys} />}
    </details>
  );
}

function ShortcutRows({ keyMap, submitKeys }: { keyMap: KeyMap; submitKeys: string }) {
  return (
    <>
      <dl>
        <LegendRows commands={REVIEW_COMMANDS} keyMap={keyMap} />
        <LegendRows commands={SELECTION_COMMANDS} keyMap={keyMap} />
      </dl>
      <p className="dt-legend-note">
        In the note to the agent, letter keys type; {MOD}+Enter submits from there too, and Esc leaves it. On
        an approval card (a command to run), {submitKeys ? `${submitKeys} allows` : 'Allow is its button'};
        Deny is only its button, and the hunk keys do nothing. Keys can be changed in Settings, under
        Keyboard.
      </p>
      <p className="dt-legend-note">
        When the next review comes up by itself, decision keys wait {KEY_PAUSE_MS / 1000} s, so a key meant
        for the previous review cannot decide the new one.
      </p>
    </>
  );
}
