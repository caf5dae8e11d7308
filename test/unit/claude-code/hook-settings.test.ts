import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOOK_TIMEOUT_SECONDS,
  HookSettingsError,
  isDiffTrayHookCommand,
  parseToolList,
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
      hooks: { PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] }] },
    });
    expect(result.unchanged).toBe(false);
    expect(result.changes).toEqual([
      `Add a PreToolUse hook for Edit|MultiEdit|Write|Bash: ${COMMAND} (timeout 3600 s)`,
    ]);
  });

  it('keeps every other setting and hook, adding ours after the person’s own', () => {
    const before = personsSettings();
    const { settings } = updateHookSettings(before, COMMAND);
    const expected = personsSettings();
    expected.hooks.PreToolUse.push({ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] } as never);
    expect(settings).toEqual(expected);
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
    expect(moved.changes).toEqual([`Change the hook command from ${COMMAND} to ${MOVED}`]);
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
      "Change the hook's matcher from Edit|MultiEdit|Write|Bash|WebFetch to Edit|MultiEdit|Write|Bash|WebFetch|Task",
    ]);

    // Re-running without --also (the app's button) keeps them.
    expect(updateHookSettings(plusTask.settings, COMMAND).unchanged).toBe(true);
  });

  it('brings an old matcher and timeout up to date', () => {
    const old = {
      hooks: {
        PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: COMMAND, timeout: 60 }] }],
      },
    };
    const result = updateHookSettings(old, COMMAND);
    expect(matcherOf(result.settings)).toBe('Edit|MultiEdit|Write|Bash');
    expect(result.changes).toEqual([
      "Change the hook's matcher from Edit|Write to Edit|MultiEdit|Write|Bash",
      'Change the hook timeout from 60 s to 3600 s',
      'Set the hook\'s "onFailure" to "block"',
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
      },
    };
    const result = updateHookSettings(before, COMMAND);
    expect(result.changes).toEqual(['Set the hook\'s "onFailure" to "block"']);
    expect(result.edits).toEqual([
      { path: ['hooks', 'PreToolUse', 0, 'hooks', 0, 'onFailure'], value: 'block' },
    ]);
    expect(result.settings.hooks).toEqual({
      PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|Bash', hooks: [{ ...ours(), statusMessage: 'x' }] }],
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
      },
    };
    const result = updateHookSettings(shared, COMMAND);
    expect(result.settings).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Edit', hooks: [{ type: 'command', command: 'lint' }] },
          { matcher: 'Edit|MultiEdit|Write|Bash', hooks: [ours()] },
        ],
      },
    });
    expect(result.changes).toEqual(['Remove a second DiffTray hook (matcher Edit)']);
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
          .record({ PreToolUse: event, PostToolUse: event, Stop: event }, { requiredKeys: [] })
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

function matcherOf(settings: unknown): unknown {
  const pre = (settings as { hooks: { PreToolUse: { matcher: string }[] } }).hooks.PreToolUse;
  return pre[pre.length - 1]!.matcher;
}
