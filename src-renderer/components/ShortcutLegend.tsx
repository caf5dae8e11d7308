import { commandDescriptions, shortcutLabels, type Command } from '../keyboard';

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
      </dl>
    </details>
  );
}
