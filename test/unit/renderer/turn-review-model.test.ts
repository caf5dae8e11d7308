import { describe, expect, it } from 'vitest';
import { appSettingsPatchSchema } from '../../../shared/app-settings-schema';
import {
  describeTurnChange,
  editsChoices,
  parseTimeout,
  turnReviewRows,
  withAgentTurnSettings,
} from '../../../src-renderer/settings/turn-review-model';

describe('Settings → Turn review', () => {
  it('lists every agent with hooks, with the defaults where the person changed nothing', () => {
    const rows = turnReviewRows({ codex: { review: 'always' } });
    expect(rows.map((row) => row.name)).toEqual([
      'Claude Code',
      'Codex CLI',
      'Gemini CLI',
      'Copilot CLI',
      'Qwen Code',
    ]);
    expect(rows[0]!.settings).toEqual({ edits: 'mode', review: 'unreviewed', timeoutMinutes: null });
    expect(rows[1]!.settings).toEqual({ edits: 'each', review: 'always', timeoutMinutes: null });
  });

  it('following the mode is offered for Claude Code only', () => {
    expect(editsChoices('claude-code')).toEqual(['each', 'turn', 'mode']);
    expect(editsChoices('gemini')).toEqual(['each', 'turn']);
  });

  it('keeps only what differs from the defaults, and leaves the other agents as they were', () => {
    const start = withAgentTurnSettings({ qwen: { timeoutMinutes: 5 } }, 'codex', { edits: 'turn' });
    expect(start).toEqual({ qwen: { timeoutMinutes: 5 }, codex: { edits: 'turn' } });
    const more = withAgentTurnSettings(start, 'codex', { timeoutMinutes: 10 });
    expect(more).toEqual({ qwen: { timeoutMinutes: 5 }, codex: { edits: 'turn', timeoutMinutes: 10 } });
    const back = withAgentTurnSettings(more, 'codex', { edits: 'each', timeoutMinutes: null });
    expect(back).toEqual({ qwen: { timeoutMinutes: 5 } });
    // Claude Code's default is the mode: choosing it again drops the entry.
    expect(
      withAgentTurnSettings({ 'claude-code': { edits: 'each' } }, 'claude-code', { edits: 'mode' }),
    ).toEqual({});
    expect(appSettingsPatchSchema.safeParse({ turnReview: more }).success).toBe(true);
  });

  it('a time limit is whole minutes from 1 to a day, or empty for none', () => {
    expect(parseTimeout('')).toEqual({ minutes: null });
    expect(parseTimeout(' 10 ')).toEqual({ minutes: 10 });
    expect(parseTimeout('1440')).toEqual({ minutes: 1440 });
    for (const bad of ['0', '1441', '1.5', '-3', 'ten', '1e2'])
      expect(parseTimeout(bad)).toHaveProperty('problem');
  });

  it('says what each change did', () => {
    expect(describeTurnChange('Codex CLI', { edits: 'turn' })).toBe(
      'Codex CLI: edits reviewed with the whole turn',
    );
    expect(describeTurnChange('Qwen Code', { review: 'off' })).toBe(
      'Qwen Code: no turn review, every edit reviewed one by one',
    );
    expect(describeTurnChange('Gemini CLI', { timeoutMinutes: 1 })).toBe(
      'Gemini CLI: the turn review ends after 1 minute',
    );
    expect(describeTurnChange('Gemini CLI', { timeoutMinutes: null })).toBe(
      'Gemini CLI: no time limit on the turn review',
    );
  });
});
