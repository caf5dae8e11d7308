import { HOOK_GUIDES } from '../settings/cli-guides';
import { useHooksSetup } from '../settings/hooks-setup';
import { CopyCommand } from './CopyCommand';
import './HookGuides.css';

/**
 * The empty state's "Review before it writes": every agent DiffTray installs hooks for (from the protocol
 * descriptors), with its one setup command to copy and a button that shows the exact change first.
 */
export function HookGuides() {
  const show = useHooksSetup((s) => s.show);
  return (
    <>
      <h2 id="dt-hook-guides-title">Review before it writes</h2>
      <p>
        Through its hooks, an agent asks DiffTray before each edit and shell command, from any terminal: you
        review per hunk, and your note reaches it. Run the command, or set it up here:
      </p>
      <ul className="dt-hook-guides" aria-labelledby="dt-hook-guides-title">
        {HOOK_GUIDES.map((guide) => (
          // Not a heading: the agent's own card above is headed by the same name.
          <li key={guide.agent} className="dt-hook-guide" data-hook-agent={guide.agent}>
            <strong>{guide.name}</strong>
            <CopyCommand command={guide.command} cliName={guide.name} />
            <button
              type="button"
              aria-label={`Set up ${guide.name} hooks…`}
              onClick={() => show(guide.agent)}
            >
              Set up…
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
