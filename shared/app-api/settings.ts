/** The Settings view's calls: change settings.json, and set up (or remove) each agent's hooks. */
import { z } from 'zod';
import type { AppSettings } from '../app-settings';
import { appSettingsPatchSchema } from '../app-settings-schema';
import { SETUP_AGENTS, type HookStatus, type SetupAgent } from '../hook-setup/agent-hooks';
import { answers, type CallSpec } from './call-spec';

// Types only: the settings' schemas are in app-settings-schema.ts.
export type {
  AppSettings,
  AppSettingsPatch,
  NotificationSettings,
  SettingsFileState,
  ThemeChoice,
} from '../app-settings';

/** What `difftray setup <agent>` (or `--remove`) would change in an agent's hook file, shown before it is done. */
export interface AgentHooksPlan {
  agent: SetupAgent;
  /** The agent's hook file, e.g. ~/.claude/settings.json or ~/.codex/hooks.json. */
  settingsPath: string;
  /** Already so: applying changes nothing. */
  upToDate: boolean;
  /** One line per change, for the person to read first. */
  changes: string[];
  /** The hook commands setup writes (absolute paths that work from any folder); none for a removal. */
  commands: string[];
  /** After an apply: where the file from before the day's first change was copied. */
  backupPath?: string;
  /** What the person still has to do in the agent itself (Codex: trust the hook); none when nothing. */
  pendingStep?: string;
}

/** What is set up for one agent, read from its own files (`unreadable`: setup would refuse the file). */
export interface AgentHookState {
  agent: SetupAgent;
  label: string;
  file: string;
  status: HookStatus | 'unreadable';
  /** Why the file cannot be used, for `unreadable`. */
  problem?: string;
}

export const settingsCalls = {
  /** What setting up (or, with `remove`, removing) an agent's hooks would change; `apply` does it. */
  agentHooksSetup: {
    params: z.object({ agent: z.enum(SETUP_AGENTS), apply: z.boolean(), remove: z.boolean().optional() }),
    result: answers<AgentHooksPlan>(),
  },
  /** Every agent's hooks as its own files say now, in SETUP_AGENTS' order. Reads only. */
  agentHooksStatus: {
    params: z.object({}),
    result: answers<AgentHookState[]>(),
  },
  /**
   * Changes the settings named in `patch` and applies them at once; answers the settings now. Refused
   * with the reason when a value is invalid (a key used twice...) or settings.json cannot be used.
   * The patch is the whole of the parameters.
   */
  updateSettings: {
    params: appSettingsPatchSchema,
    result: answers<AppSettings>(),
  },
} satisfies Record<string, CallSpec>;
