import { useId, useState, type FormEvent } from 'react';
import type { AgentTurnSettings, TurnReviewSettings } from '../../../shared/turn-settings';
import { TURN_REVIEW_CHOICES } from '../../../shared/turn-settings';
import {
  describeTurnChange,
  EDITS_LABELS,
  editsChoices,
  parseTimeout,
  TIMEOUT_HELP,
  TURN_REVIEW_HELP,
  TURN_REVIEW_LABELS,
  turnReviewRows,
  withAgentTurnSettings,
  type TurnReviewRow,
} from '../turn-review-model';
import { Refusal } from './Refusal';
import { useSettingsChange } from './use-settings-change';
import '../turn-review.css';

/**
 * Settings → Turn review: per agent reviewed through its hooks, which edits wait for the review at the
 * end of its turn, when that review comes, and how long it waits for the person.
 */
export function TurnReviewSection({ settings }: { settings: TurnReviewSettings }) {
  const change = useSettingsChange();
  const apply = (row: TurnReviewRow, patch: Partial<AgentTurnSettings>): Promise<string | undefined> =>
    change.apply(
      { turnReview: withAgentTurnSettings(settings, row.agent, patch) },
      describeTurnChange(row.name, patch),
    );
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-turns">
      <h2 id="dt-settings-turns">Turn review</h2>
      <p className="dt-settings-hint">{TURN_REVIEW_HELP}</p>
      <p className="dt-settings-hint" id={TIMEOUT_HINT_ID}>
        {TIMEOUT_HELP}
      </p>
      <div className="dt-turn-rows">
        {turnReviewRows(settings).map((row) => (
          <AgentTurnRow key={row.agent} row={row} apply={apply} />
        ))}
      </div>
      <Refusal message={change.refusal} />
    </section>
  );
}

const TIMEOUT_HINT_ID = 'dt-settings-turn-timeout-hint';

function AgentTurnRow({
  row,
  apply,
}: {
  row: TurnReviewRow;
  apply(row: TurnReviewRow, patch: Partial<AgentTurnSettings>): Promise<string | undefined>;
}) {
  const { edits, review, timeoutMinutes } = row.settings;
  const off = review === 'off';
  const id = useId();
  return (
    <fieldset className="dt-turn-row" aria-describedby={off ? `${id}-off` : undefined}>
      <legend>{row.name}</legend>
      <label>
        Review edits
        <select
          value={off ? 'each' : edits}
          disabled={off}
          onChange={(event) => {
            const value = editsChoices(row.agent).find((choice) => choice === event.target.value);
            if (value) void apply(row, { edits: value });
          }}
        >
          {editsChoices(row.agent).map((choice) => (
            <option key={choice} value={choice}>
              {EDITS_LABELS[choice]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Turn review
        <select
          value={review}
          onChange={(event) => {
            const value = TURN_REVIEW_CHOICES.find((choice) => choice === event.target.value);
            if (value) void apply(row, { review: value });
          }}
        >
          {TURN_REVIEW_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {TURN_REVIEW_LABELS[choice]}
            </option>
          ))}
        </select>
      </label>
      <TimeoutField
        agentName={row.name}
        minutes={timeoutMinutes}
        disabled={off}
        save={(minutes) => apply(row, { timeoutMinutes: minutes })}
      />
      {off && (
        <p className="dt-settings-hint" id={`${id}-off`}>
          Every edit is reviewed one by one.
        </p>
      )}
    </fieldset>
  );
}

/** The time limit in minutes, saved on Enter or when the field is left; empty for none. */
function TimeoutField({
  agentName,
  minutes,
  disabled,
  save,
}: {
  agentName: string;
  minutes: number | null;
  disabled: boolean;
  save(minutes: number | null): Promise<unknown>;
}) {
  const shown = minutes === null ? '' : String(minutes);
  const [draft, setDraft] = useState(shown);
  // Main's value wins whenever it changes (saved here, in another window, or in the file).
  const [known, setKnown] = useState(shown);
  if (known !== shown) {
    setKnown(shown);
    setDraft(shown);
  }
  const [problem, setProblem] = useState<string>();
  const problemId = useId();
  const commit = async (): Promise<void> => {
    const parsed = parseTimeout(draft);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(undefined);
    // A refusal from main is said under the section, as for its other controls.
    if (parsed.minutes !== minutes) await save(parsed.minutes);
  };
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void commit();
  };
  return (
    <form className="dt-turn-timeout" onSubmit={onSubmit}>
      <label>
        Time limit
        <input
          type="text"
          inputMode="numeric"
          aria-label={`Turn review time limit for ${agentName}, in minutes`}
          placeholder="none"
          size={5}
          value={draft}
          disabled={disabled}
          aria-invalid={problem !== undefined || undefined}
          aria-describedby={problem !== undefined ? problemId : TIMEOUT_HINT_ID}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => void commit()}
        />
        minutes
      </label>
      <Refusal id={problemId} message={problem} />
    </form>
  );
}
