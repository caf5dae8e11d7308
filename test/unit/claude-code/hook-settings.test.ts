import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOOK_TIMEOUT_SECONDS,
  HookSettingsError,
  isDiffTrayHookCommand,
  parseToolList,
  PROMPT_HOOK_TIMEOUT_SECONDS,
  updateHookSettings,
} from '../../../shared/claude-code/hook-settings';

const COMMAND = '"/usr/bin/node" "/opt/difftray/dist/main/cli.cjs" hook claude-code';
const MOVED = '"/usr/local/bin/node" "/home/me/difftray/dist/main/cli.cjs" hook claude-code';

const ours = (command = COMMAND) => ({
  type: 'command',
  command,
  timeout: HOOK_TIMEOUT_SECONDS,
  onFailure: 'block',
});
/** Our turn-review hooks: the same command, no matcher, no onFailure. */
const promptHook = (command = COMMAND) => ({
  type: 'command',
  command,
  timeout: PROMPT_HOOK_TIMEOUT_SECONDS,
});
const stopHook = (command = COMMAND) => ({ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS });
/** Our UserPromptSubmit and Stop groups, up to date: with them, a test sees only what PreToolUse changes. */
const turnHooks = () => ({
  UserPromptSubmit: [{ hooks: [promptHook()] }],
  Stop: [{ hooks: [stopHook()] }],
});

/** Settings as a person might have them: their own hooks on PreToolUse and on other events. */
function personsSettings() {
  return {
    model: 'opus',
    permissions: { allow: ['Bash(npm test)'], deny: [] },
    env: { FOO: 'bar' },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: '/home/me/bin/guard.sh' }] },
        { matcher: 'Write', hooks: [{ type: 'command', command: 'prettier-check', timeout: 30 }] },
      ],
      PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'npm run lint' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
    },
  };
}

describe('setting up the hook', () => {
  it('adds it to empty settings, in the shape Claude Code reads', () => {
    const result = updateHookSettings({}, COMMAND);
    expect(result.settings).toEqual({
      hooks: {
        PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }],
        UserPromptSubmit: [{ hooks: [promptHook()] }],
        Stop: [{ hooks: [stopHook()] }],
      },
    });
    expect(JSON.stringify(result.settings)).toBe(
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }],
          UserPromptSubmit: [{ hooks: [promptHook()] }],
          Stop: [{ hooks: [stopHook()] }],
        },
      }),
    );
    expect(result.unchanged).toBe(false);
    expect(result.changes).toEqual([
      `Add a PreToolUse hook for Edit|MultiEdit|Write|Bash: ${COMMAND} (timeout 3600 s)`,
      `Add a UserPromptSubmit hook: ${COMMAND} (timeout 30 s)`,
      `Add a Stop hook: ${COMMAND} (timeout 3600 s)`,
    ]);
  });

  it('keeps every other setting and hook, adding ours after the person’s own', () => {
    const before = personsSettings();
    const { settings } = updateHookSettings(before, COMMAND);
    const expected = {
      ...personsSettings(),
      hooks: {
        ...personsSettings().hooks,
        PreToolUse: [
          ...personsSettings().hooks.PreToolUse,
          { matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] },
        ],
        Stop: [...personsSettings().hooks.Stop, { hooks: [stopHook()] }],
        UserPromptSubmit: [{ hooks: [promptHook()] }],
      },
    };
    // The same keys in the same order: a list that was not there comes last.
    expect(JSON.stringify(settings)).toBe(JSON.stringify(expected));
    // The input object is not touched.
    expect(before).toEqual(personsSettings());
  });

  it('is idempotent: a second run changes nothing', () => {
    const once = updateHookSettings(personsSettings(), COMMAND).settings;
    const twice = updateHookSettings(once, COMMAND);
    expect(twice.unchanged).toBe(true);
    expect(twice.changes).toEqual([]);
    expect(JSON.stringify(twice.settings)).toBe(JSON.stringify(once));
  });

  it('updates our hook in place when DiffTray moved, keeping its place and what the person added', () => {
    const installed = updateHookSettings(personsSettings(), COMMAND).settings as ReturnType<
      typeof personsSettings
    >;
    const entry = installed.hooks.PreToolUse[2] as unknown as { hooks: Record<string, unknown>[] };
    entry.hooks[0]!.statusMessage = 'Asking DiffTray';
    installed.hooks.PreToolUse.push({ matcher: 'Read', hooks: [{ type: 'command', command: 'audit' }] });

    const moved = updateHookSettings(installed, MOVED);
    expect(moved.changes).toEqual([
      `Change the PreToolUse hook command from ${COMMAND} to ${MOVED}`,
      `Change the UserPromptSubmit hook command from ${COMMAND} to ${MOVED}`,
      `Change the Stop hook command from ${COMMAND} to ${MOVED}`,
    ]);
    const pre = (moved.settings as ReturnType<typeof personsSettings>).hooks.PreToolUse;
    expect(pre).toHaveLength(4);
    expect(pre[2]).toEqual({
      matcher: 'Edit|MultiEdit|Write|Bash',
      hooks: [{ ...ours(MOVED), statusMessage: 'Asking DiffTray' }],
    });
    expect(pre[3]).toEqual({ matcher: 'Read', hooks: [{ type: 'command', command: 'audit' }] });
  });

  it('recognises our hook by its command whatever path comes before it', () => {
    expect(isDiffTrayHookCommand(COMMAND)).toBe(true);
    expect(isDiffTrayHookCommand('difftray hook claude-code')).toBe(true);
    expect(
      isDiffTrayHookCommand(
        `ELECTRON_RUN_AS_NODE=1 "/Applications/DiffTray.app/x" "/a/cli.cjs" hook claude-code`,
      ),
    ).toBe(true);
    expect(isDiffTrayHookCommand('difftray hook claude-code-extra')).toBe(false);
    expect(isDiffTrayHookCommand('/home/me/bin/guard.sh')).toBe(false);
    expect(isDiffTrayHookCommand(undefined)).toBe(false);
  });

  it('extends the matcher with --also tools, and keeps tools added earlier', () => {
    const withWebFetch = updateHookSettings({}, COMMAND, { alsoTools: ['WebFetch'] });
    expect(matcherOf(withWebFetch.settings)).toBe('Edit|MultiEdit|Write|Bash|WebFetch');

    const plusTask = updateHookSettings(withWebFetch.settings, COMMAND, { alsoTools: ['Task', 'WebFetch'] });
    expect(matcherOf(plusTask.settings)).toBe('Edit|MultiEdit|Write|Bash|WebFetch|Task');
    expect(plusTask.changes).toEqual([
      "Change the PreToolUse hook's matcher from Edit|MultiEdit|Write|Bash|WebFetch to Edit|MultiEdit|Write|Bash|WebFetch|Task",
    ]);

    // Re-running without --also (the app's button) keeps them.
    expect(updateHookSettings(plusTask.settings, COMMAND).unchanged).toBe(true);
  });

  it('brings an old matcher and timeout up to date', () => {
    const old = {
      hooks: {
        PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: COMMAND, timeout: 60 }] }],
        ...turnHooks(),
      },
    };
    const result = updateHookSettings(old, COMMAND);
    expect(matcherOf(result.settings)).toBe('Edit|MultiEdit|Write|Bash');
    expect(result.changes).toEqual([
      "Change the PreToolUse hook's matcher from Edit|Write to Edit|MultiEdit|Write|Bash",
      'Change the PreToolUse hook timeout from 60 s to 3600 s',
      'Set the PreToolUse hook\'s "onFailure" to "block"',
    ]);
  });

  it('adds onFailure: block to a hook set up before it, once, keeping the rest of the entry', () => {
    const before = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Edit|MultiEdit|Write|Bash',
            hooks: [{ type: 'command', command: COMMAND, timeout: HOOK_TIMEOUT_SECONDS, statusMessage: 'x' }],
          },
        ],
        ...turnHooks(),
      },
    };
    const result = updateHookSettings(before, COMMAND);
    expect(result.changes).toEqual(['Set the PreToolUse hook\'s "onFailure" to "block"']);
    expect(result.edits).toEqual([
      { path: ['hooks', 'PreToolUse', 0, 'hooks', 0, 'onFailure'], value: 'block' },
    ]);
    expect(result.settings.hooks).toEqual({
      PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [{ ...ours(), statusMessage: 'x' }] }],
      ...turnHooks(),
    });
    expect(updateHookSettings(result.settings, COMMAND).unchanged).toBe(true);
  });

  it('takes a copy of our hook out of an entry it shares with other hooks', () => {
    const shared = {
      hooks: {
        PreToolUse: [
          { matcher: 'Edit', hooks: [{ type: 'command', command: 'lint' }, ours()] },
          { matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] },
        ],
        ...turnHooks(),
      },
    };
    const result = updateHookSettings(shared, COMMAND);
    expect(result.settings).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Edit', hooks: [{ type: 'command', command: 'lint' }] },
          { matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] },
        ],
        ...turnHooks(),
      },
    });
    expect(result.changes).toEqual(['Remove a second DiffTray PreToolUse hook (matcher Edit)']);
  });

  it('refuses settings it cannot merge into, and tool names a matcher cannot hold', () => {
    expect(() => updateHookSettings([], COMMAND)).toThrow(HookSettingsError);
    expect(() => updateHookSettings({ hooks: 'x' }, COMMAND)).toThrow(
      '"hooks" in the settings is not an object',
    );
    expect(() => updateHookSettings({ hooks: { PreToolUse: {} } }, COMMAND)).toThrow('not a list');
    expect(() => updateHookSettings({}, COMMAND, { alsoTools: ['.*'] })).toThrow('".*" is not a tool name');
    expect(parseToolList(' WebFetch, mcp__my-server__search ,')).toEqual([
      'WebFetch',
      'mcp__my-server__search',
    ]);
    expect(() => parseToolList('Web Fetch')).toThrow(HookSettingsError);
  });
});

describe('removing the hook', () => {
  it('restores the settings exactly, other PreToolUse hooks and other events kept', () => {
    const installed = updateHookSettings(personsSettings(), COMMAND).settings;
    const removed = updateHookSettings(installed, COMMAND, { remove: true });
    expect(removed.settings).toEqual(personsSettings());
    expect(JSON.stringify(removed.settings)).toBe(JSON.stringify(personsSettings()));
    expect(removed.changes).toEqual([
      `Remove the DiffTray PreToolUse hook for Edit|MultiEdit|Write|Bash: ${COMMAND}`,
      `Remove the DiffTray UserPromptSubmit hook: ${COMMAND}`,
      `Remove the DiffTray Stop hook: ${COMMAND}`,
    ]);
  });

  it('takes away the containers only our hook used', () => {
    const installed = updateHookSettings({ model: 'opus' }, COMMAND).settings;
    expect(updateHookSettings(installed, COMMAND, { remove: true }).settings).toEqual({ model: 'opus' });

    const onlyOtherEvents = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } };
    const withOurs = updateHookSettings(onlyOtherEvents, COMMAND).settings;
    expect(updateHookSettings(withOurs, COMMAND, { remove: true }).settings).toEqual(onlyOtherEvents);
  });

  it('removes ours wherever it is, even installed from another path, and nothing else', () => {
    const settings = {
      hooks: {
        PreToolUse: [
          { matcher: 'Edit', hooks: [{ type: 'command', command: 'lint' }, ours(MOVED)] },
          { matcher: 'Bash', hooks: [ours()] },
        ],
      },
    };
    const removed = updateHookSettings(settings, COMMAND, { remove: true });
    expect(removed.settings).toEqual({
      hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'lint' }] }] },
    });
    expect(removed.changes).toHaveLength(2);
  });

  it('changes nothing when there is no hook of ours', () => {
    for (const settings of [{}, personsSettings(), { hooks: { PreToolUse: [] } }]) {
      const result = updateHookSettings(settings, COMMAND, { remove: true });
      expect(result.unchanged).toBe(true);
      expect(result.settings).toEqual(settings);
    }
  });

  it('gives back any settings as they were (property)', () => {
    const hook = fc.record({
      type: fc.constant('command'),
      command: fc.oneof(fc.constantFrom('lint', 'say done', './guard.sh'), fc.string()),
    });
    const entry = fc.record(
      {
        matcher: fc.constantFrom('Edit', 'Bash', 'Write|Edit', ''),
        hooks: fc.array(hook, { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['hooks'] },
    );
    const event = fc.array(entry, { minLength: 1, maxLength: 3 });
    const settings = fc.record(
      {
        model: fc.string(),
        env: fc.dictionary(fc.string(), fc.string()),
        hooks: fc
          .record(
            { PreToolUse: event, PostToolUse: event, UserPromptSubmit: event, Stop: event },
            { requiredKeys: [] },
          )
          .filter((hooks) => Object.keys(hooks).length > 0),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(settings, fc.array(fc.constantFrom('WebFetch', 'Task', 'Read')), (before, also) => {
        fc.pre(!JSON.stringify(before).includes('hook claude-code'));
        const installed = updateHookSettings(before, COMMAND, { alsoTools: also });
        expect(updateHookSettings(installed.settings, COMMAND, { alsoTools: also }).unchanged).toBe(true);
        const removed = updateHookSettings(installed.settings, COMMAND, { remove: true });
        expect(JSON.stringify(removed.settings)).toBe(JSON.stringify(before));
      }),
    );
  });
});

describe('the turn review hooks: UserPromptSubmit and Stop, groups without a matcher', () => {
  /** The person's own groups on the two events, and ours (the PreToolUse one) already in place. */
  function personsTurnHooks() {
    return {
      hooks: {
        PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: './log-prompt.sh', timeout: 5 }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      },
    };
  }
  type TurnSettings = { hooks: Record<string, Record<string, unknown>[]> };
  const hooksOf = (settings: unknown) => (settings as TurnSettings).hooks;

  it('adds ours as {hooks: [ours]} after the person’s own groups, which stay untouched', () => {
    const result = updateHookSettings(personsTurnHooks(), COMMAND, { alsoTools: ['Task'] });
    const { UserPromptSubmit, Stop } = personsTurnHooks().hooks;
    expect(hooksOf(result.settings).UserPromptSubmit).toEqual([
      ...UserPromptSubmit,
      { hooks: [promptHook()] },
    ]);
    expect(hooksOf(result.settings).Stop).toEqual([...Stop, { hooks: [stopHook()] }]);
    // No matcher, not even --also's tools: those are PreToolUse's.
    expect(JSON.stringify(hooksOf(result.settings).Stop![1])).toBe(JSON.stringify({ hooks: [stopHook()] }));
    expect(result.changes).toEqual([
      "Change the PreToolUse hook's matcher from Edit|MultiEdit|Write|Bash to Edit|MultiEdit|Write|Bash|Task",
      `Add a UserPromptSubmit hook: ${COMMAND} (timeout 30 s)`,
      `Add a Stop hook: ${COMMAND} (timeout 3600 s)`,
    ]);
    // Appended to the lists that were there: the person's entries keep their place and their bytes.
    expect(result.edits).toEqual([
      { path: ['hooks', 'PreToolUse', 0, 'matcher'], value: 'Edit|MultiEdit|Write|Bash|Task' },
      { path: ['hooks', 'UserPromptSubmit', -1], value: { hooks: [promptHook()] } },
      { path: ['hooks', 'Stop', -1], value: { hooks: [stopHook()] } },
    ]);
  });

  it('is idempotent, wherever our group is in the list', () => {
    const once = updateHookSettings(personsTurnHooks(), COMMAND).settings;
    // The person adds a group of their own after ours.
    hooksOf(once).Stop!.push({ hooks: [{ type: 'command', command: 'notify-send done' }] });
    const twice = updateHookSettings(once, COMMAND);
    expect(twice.unchanged).toBe(true);
    expect(twice.changes).toEqual([]);
    expect(twice.edits).toEqual([]);
    expect(JSON.stringify(twice.settings)).toBe(JSON.stringify(once));
  });

  it('updates our command in place when DiffTray moved, keeping what the person added', () => {
    const installed = updateHookSettings(personsTurnHooks(), COMMAND).settings;
    hooksOf(installed).Stop![1]!.hooks = [{ ...stopHook(), statusMessage: 'Reviewing the turn' }];
    hooksOf(installed).Stop!.push({ hooks: [{ type: 'command', command: 'notify-send done' }] });

    const moved = updateHookSettings(installed, MOVED);
    const stop = hooksOf(moved.settings).Stop!;
    expect(stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      { hooks: [{ ...stopHook(MOVED), statusMessage: 'Reviewing the turn' }] },
      { hooks: [{ type: 'command', command: 'notify-send done' }] },
    ]);
    expect(hooksOf(moved.settings).UserPromptSubmit![1]).toEqual({ hooks: [promptHook(MOVED)] });
    expect(moved.edits).toEqual([
      { path: ['hooks', 'PreToolUse', 0, 'hooks', 0, 'command'], value: MOVED },
      { path: ['hooks', 'UserPromptSubmit', 1, 'hooks', 0, 'command'], value: MOVED },
      { path: ['hooks', 'Stop', 1, 'hooks', 0, 'command'], value: MOVED },
    ]);
    expect(updateHookSettings(moved.settings, MOVED).unchanged).toBe(true);
  });

  it('brings a timeout up to date, and never gives our group a matcher nor takes one away', () => {
    const old = {
      hooks: {
        PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 3600 }] }],
        Stop: [{ matcher: '', hooks: [{ type: 'command', command: COMMAND }] }],
      },
    };
    const result = updateHookSettings(old, COMMAND);
    expect(result.changes).toEqual([
      'Change the UserPromptSubmit hook timeout from 3600 s to 30 s',
      'Change the Stop hook timeout from the default to 3600 s',
    ]);
    expect(result.settings.hooks).toEqual({
      ...old.hooks,
      ...turnHooks(),
      Stop: [{ matcher: '', hooks: [stopHook()] }],
    });
  });

  it('takes our hook out of a person’s group it shares with their own, as for PreToolUse', () => {
    // Nowhere else: theirs keep their group, ours gets its own after it.
    const beside = {
      hooks: {
        ...turnHooks(),
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }, stopHook(MOVED)] }],
      },
    };
    const alone = updateHookSettings(
      { hooks: { PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }], ...beside.hooks } },
      COMMAND,
    );
    expect(hooksOf(alone.settings).Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      { hooks: [stopHook()] },
    ]);
    expect(alone.changes).toEqual([
      'Remove a second DiffTray Stop hook',
      `Add a Stop hook: ${COMMAND} (timeout 3600 s)`,
    ]);
    expect(alone.edits).toEqual([
      { path: ['hooks', 'Stop', 0, 'hooks', 1], value: undefined },
      { path: ['hooks', 'Stop', -1], value: { hooks: [stopHook()] } },
    ]);

    // Beside a group of ours: the copy goes, our group stays as it is.
    const both = {
      hooks: {
        PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }],
        UserPromptSubmit: [{ hooks: [promptHook()] }],
        Stop: [
          { hooks: [stopHook()] },
          { hooks: [stopHook(MOVED), { type: 'command', command: 'say done' }] },
        ],
      },
    };
    const result = updateHookSettings(both, COMMAND);
    expect(result.changes).toEqual(['Remove a second DiffTray Stop hook']);
    expect(hooksOf(result.settings).Stop).toEqual([
      { hooks: [stopHook()] },
      { hooks: [{ type: 'command', command: 'say done' }] },
    ]);
    expect(updateHookSettings(result.settings, COMMAND).unchanged).toBe(true);

    // Two copies of ours in one group: one is kept.
    const twice = { hooks: { ...both.hooks, Stop: [{ hooks: [stopHook(), stopHook()] }] } };
    const once = updateHookSettings(twice, COMMAND);
    expect(once.changes).toEqual(['Remove a second DiffTray Stop hook']);
    expect(hooksOf(once.settings).Stop).toEqual([{ hooks: [stopHook()] }]);
  });

  it('removal takes ours out of a shared group, leaving the person’s, and restores the settings', () => {
    const shared = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }],
        UserPromptSubmit: [{ hooks: [promptHook()] }],
        Stop: [
          { hooks: [{ type: 'command', command: 'say done' }, stopHook(MOVED)] },
          { hooks: [stopHook()] },
        ],
      },
    };
    const removed = updateHookSettings(shared, COMMAND, { remove: true });
    expect(JSON.stringify(removed.settings)).toBe(
      JSON.stringify({
        model: 'opus',
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
      }),
    );
    expect(removed.changes).toEqual([
      `Remove the DiffTray PreToolUse hook for Edit|MultiEdit|Write|Bash: ${COMMAND}`,
      `Remove the DiffTray UserPromptSubmit hook: ${COMMAND}`,
      `Remove the DiffTray Stop hook: ${MOVED}`,
      `Remove the DiffTray Stop hook: ${COMMAND}`,
    ]);

    // Setup, then removal, gives back the person's own turn hooks byte for byte.
    const installed = updateHookSettings(personsTurnHooks(), COMMAND).settings;
    const back = updateHookSettings(installed, COMMAND, { remove: true }).settings;
    const { PreToolUse: _ours, ...theirs } = personsTurnHooks().hooks;
    expect(JSON.stringify(back)).toBe(JSON.stringify({ hooks: theirs }));
  });
});

function matcherOf(settings: unknown): unknown {
  const pre = (settings as { hooks: { PreToolUse: { matcher: string }[] } }).hooks.PreToolUse;
  return pre[pre.length - 1]!.matcher;
}
