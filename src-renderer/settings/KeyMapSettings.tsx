import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  effectiveKeyMap,
  KEY_COMMAND_NAMES,
  KEY_COMMANDS,
  type KeyCommand,
  type KeyMapChanges,
} from '../../shared/keymap';
import { useApi } from '../state/api-context';
import { chordLabel, chordOfEvent } from '../keys/key-chords';
import { isChanged, withChord, withDefaultKeys, withoutChord, type KeyMapEdit } from '../keys/key-map-editor';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import './key-map-settings.css';

const NO_CHANGES: KeyMapChanges = {};
type Recording = { command: KeyCommand; mode: 'replace' | 'add' };
/** A refusal, beside the command it is about (or the whole section's, for Reset all). */
type Refusal = { command: KeyCommand | null; message: string };

const changeButtonId = (command: KeyCommand): string => `dt-keymap-change-${command}`;

/**
 * Settings → Keyboard: every command with its keys. "Change" and "Add" record the next chord pressed
 * (Escape cancels); a chord another command holds is refused on the spot and not sent. Each change is
 * sent at once (AppApi.updateSettings, only the commands that differ from the defaults); a refusal
 * from main is shown beside the command. The keys work as soon as main's settings come back.
 */
export function KeyMapSettings() {
  const api = useApi();
  const announce = useAppStore((s) => s.announce);
  const held = useAppStore((s) => s.snapshot?.settings?.keyMap ?? NO_CHANGES);
  // Main's answer to a change counts until its state feed brings the settings (then the feed does), so
  // a second change made at once starts from the first.
  const [answered, setAnswered] = useState<{ basis: KeyMapChanges; keyMap: KeyMapChanges } | null>(null);
  const changes = answered?.basis === held ? answered.keyMap : held;
  const keyMap = effectiveKeyMap(changes);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const returnFocusTo = useRef<KeyCommand | null>(null);

  // When recording ends, focus goes back to the command's Change button, not to the page.
  useEffect(() => {
    if (recording || !returnFocusTo.current) return;
    document.getElementById(changeButtonId(returnFocusTo.current))?.focus();
    returnFocusTo.current = null;
  }, [recording]);

  const save = async (next: KeyMapChanges, command: KeyCommand | null, outcome: string): Promise<void> => {
    setBusy(true);
    try {
      const settings = await api.call('updateSettings', { keyMap: next });
      setAnswered({ basis: held, keyMap: settings.keyMap });
      setRefusal(null);
      announce(outcome);
    } catch (error) {
      const folders = useAppStore.getState().snapshot?.workspaceFolders ?? [];
      setRefusal({ command, message: errorMessage(error, folders) });
    } finally {
      setBusy(false);
    }
  };

  /** Sends an edit, or shows why it was refused; answers whether it was sent. */
  const apply = (edit: KeyMapEdit, command: KeyCommand, outcome: string): boolean => {
    if ('refused' in edit) {
      setRefusal({ command, message: edit.refused });
      return false;
    }
    void save(edit.changes, command, outcome);
    return true;
  };

  const stopRecording = (): void => {
    returnFocusTo.current = recording?.command ?? null;
    setRecording(null);
  };

  const recorded = (chord: string): void => {
    if (!recording) return;
    const { command, mode } = recording;
    const name = KEY_COMMAND_NAMES[command];
    const verb = mode === 'add' ? 'now also' : 'now';
    if (apply(withChord(changes, command, chord, mode), command, `${name} is ${verb} ${chordLabel(chord)}`)) {
      stopRecording();
    }
  };

  const anyChanged = KEY_COMMANDS.some((command) => isChanged(changes, command));

  return (
    <section
      className="dt-settings-section dt-keymap"
      aria-labelledby="dt-settings-keys"
      data-testid="keymap-settings"
    >
      <h2 id="dt-settings-keys">Keyboard</h2>
      <p className="dt-settings-hint">
        The keys of the review. Change or Add records the next key you press (Escape cancels). Keys work
        everywhere except in text fields.
      </p>
      <ul className="dt-keymap-list" aria-label="Keys">
        {KEY_COMMANDS.map((command) => {
          const name = KEY_COMMAND_NAMES[command];
          const chords = keyMap[command];
          const refusalId = `dt-keymap-refusal-${command}`;
          const ownRefusal = refusal?.command === command ? refusal.message : undefined;
          return (
            <li key={command} className="dt-keymap-row" data-command={command}>
              <span className="dt-keymap-name">{name}</span>
              <span className="dt-keymap-keys">
                {chords.length === 0 && <span className="dt-keymap-none">No key</span>}
                {chords.map((chord) => (
                  <span key={chord} className="dt-keymap-chord">
                    <kbd>{chordLabel(chord)}</kbd>
                    <button
                      type="button"
                      aria-label={`Remove ${chordLabel(chord)} from ${name}`}
                      title={`Remove ${chordLabel(chord)}`}
                      disabled={busy}
                      onClick={() =>
                        void save(
                          withoutChord(changes, command, chord),
                          command,
                          `${chordLabel(chord)} no longer runs ${name}`,
                        )
                      }
                    >
                      ×
                    </button>
                  </span>
                ))}
              </span>
              <span className="dt-keymap-actions">
                {recording?.command === command ? (
                  <ChordRecorder
                    name={name}
                    describedBy={ownRefusal ? refusalId : undefined}
                    onChord={recorded}
                    onCancel={stopRecording}
                  />
                ) : (
                  <>
                    <button
                      type="button"
                      id={changeButtonId(command)}
                      aria-label={`Change the keys of ${name}`}
                      disabled={busy}
                      onClick={() => {
                        setRefusal(null);
                        setRecording({ command, mode: 'replace' });
                      }}
                    >
                      Change
                    </button>
                    <button
                      type="button"
                      aria-label={`Add a key to ${name}`}
                      disabled={busy}
                      onClick={() => {
                        setRefusal(null);
                        setRecording({ command, mode: 'add' });
                      }}
                    >
                      Add
                    </button>
                    <button
                      type="button"
                      aria-label={`Reset the keys of ${name}`}
                      disabled={busy || !isChanged(changes, command)}
                      onClick={() =>
                        apply(withDefaultKeys(changes, command), command, `${name} is back on its keys`)
                      }
                    >
                      Reset
                    </button>
                  </>
                )}
              </span>
              <p id={refusalId} className="dt-settings-refusal dt-keymap-refusal" role="alert">
                {ownRefusal}
              </p>
            </li>
          );
        })}
      </ul>
      <p className="dt-settings-refusal" role="alert">
        {refusal?.command === null ? refusal.message : undefined}
      </p>
      <button
        type="button"
        disabled={busy || !anyChanged}
        onClick={() => void save({}, null, 'Every key is back on its default')}
      >
        Reset all keys
      </button>
    </section>
  );
}

/**
 * Where the next chord is pressed. A text field, so the window's keys leave the press to it (a key the
 * review map holds is recorded, not run); Tab still moves on, which cancels like Escape does.
 */
function ChordRecorder({
  name,
  describedBy,
  onChord,
  onCancel,
}: {
  name: string;
  describedBy: string | undefined;
  onChord: (chord: string) => void;
  onCancel: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'Tab') return;
    // Settings closes on Escape; here it only cancels the recording.
    e.preventDefault();
    e.stopPropagation();
    if (e.key === 'Escape') onCancel();
    else {
      const chord = chordOfEvent(e.nativeEvent);
      if (chord !== null) onChord(chord);
    }
  };
  return (
    <input
      ref={field}
      type="text"
      readOnly
      className="dt-keymap-recorder"
      aria-label={`New key for ${name}`}
      aria-describedby={describedBy}
      placeholder="Press the new key…"
      onKeyDown={onKeyDown}
      onBlur={onCancel}
    />
  );
}
