/**
 * Settings and the hooks dialog as App places them, their code loaded when first wanted or when the
 * page is idle after its first screen (preloadSettingsViews): neither is on the first screen, so the
 * page's first script does not hold them. The wrappers import only types from the views.
 */
import { useEffect, useState, type ComponentProps } from 'react';
import { lazyModule } from '../state/lazy-module';
import { LoadFailed } from '../views/LoadFailed';
import { useAppStore } from '../state/store';
import { useHooksSetup } from './hooks-setup';
import type * as SettingsViewModule from './SettingsView';

const settingsView = lazyModule(() => import('./SettingsView'));
const hooksDialog = lazyModule(() => import('./AgentHooksDialog'));

/** Imports both ahead of need; a failure is said when a view needs the module. */
export function preloadSettingsViews(): void {
  for (const module of [settingsView, hooksDialog]) {
    module.load().catch(() => {
      // Said on screen by the view that needs it.
    });
  }
}

export function SettingsView(props: ComponentProps<typeof SettingsViewModule.SettingsView>) {
  const { module, error } = settingsView.use();
  if (module) return <module.SettingsView {...props} />;
  return error === null ? (
    <p className="dt-pane-message" role="status">
      Loading Settings…
    </p>
  ) : (
    <LoadFailed what="Settings" error={error} />
  );
}

/** The hooks dialog, drawn from the first time a button asks for it (it is closed until then). */
export function AgentHooksDialog() {
  const asked = useHooksSetup((s) => s.open !== null);
  const [wanted, setWanted] = useState(asked);
  if (asked && !wanted) setWanted(true);
  return wanted ? <LoadedHooksDialog /> : null;
}

function LoadedHooksDialog() {
  const { module, error } = hooksDialog.use();
  // Until it has loaded the dialog is not shown; when it cannot be, the person is told why.
  useEffect(() => {
    if (error !== null) useAppStore.getState().announce(`The hooks dialog could not be loaded: ${error}`);
  }, [error]);
  return module ? <module.AgentHooksDialog /> : null;
}
