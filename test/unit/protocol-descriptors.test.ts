/**
 * One descriptor per protocol (shared/protocols/): every protocol has one, each is complete (the
 * `@ts-expect-error` lines below fail `npm run typecheck` if an incomplete one compiled), its adapter
 * folder exists, and lint's list of adapter folders is the descriptors' list.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../eslint/boundaries.js';
import { ALL_PROTOCOLS, PROTOCOL_DESCRIPTORS, isClientProtocol } from '../../shared/protocols';
import { claudeIdeProtocol } from '../../shared/protocols/claude-ide';
import type { ProtocolDescriptor, ProtocolTable } from '../../shared/protocols/descriptor';

const SRC_MAIN = path.resolve(__dirname, '..', '..', 'src-main');

describe('protocol descriptors', () => {
  it('are keyed by their own id, once each', () => {
    for (const [key, descriptor] of Object.entries(PROTOCOL_DESCRIPTORS)) expect(descriptor.id).toBe(key);
    expect(new Set(ALL_PROTOCOLS.map((d) => d.id)).size).toBe(ALL_PROTOCOLS.length);
    expect(isClientProtocol('native')).toBe(true);
    expect(isClientProtocol('toString')).toBe(false);
  });

  it("name adapter folders that exist, and lint's ADAPTERS are exactly the bridge ones", () => {
    for (const { id, adapter } of ALL_PROTOCOLS) {
      expect(existsSync(path.join(SRC_MAIN, adapter)), `${id}: src-main/${adapter}`).toBe(true);
    }
    const bridgeFolders = new Set(
      ALL_PROTOCOLS.flatMap(({ adapter }) => (adapter.startsWith('bridge/') ? [adapter.slice(7)] : [])),
    );
    expect([...ADAPTERS].sort()).toEqual([...bridgeFolders].sort());
  });

  it('offer the hooks only through a protocol that has a setup', () => {
    for (const { id, notesVia } of ALL_PROTOCOLS) {
      if (notesVia === null) continue;
      expect(PROTOCOL_DESCRIPTORS[notesVia].setup, `${id} → ${notesVia}`).not.toBeNull();
      expect(PROTOCOL_DESCRIPTORS[notesVia].capabilities.notes).toBe(true);
    }
  });

  it('an incomplete descriptor or table does not compile', () => {
    // Checked by tsc (npm run typecheck): each line below must be an error, or tsc fails on the
    // unused @ts-expect-error. At run time they only show what was built.
    const { guide: _guide, ...withoutGuide } = claudeIdeProtocol;
    // @ts-expect-error a descriptor without its guide is not a ProtocolDescriptor
    const missingField: ProtocolDescriptor = withoutGuide;
    const { capabilities, ...rest } = claudeIdeProtocol;
    const { sendToAgent: _send, ...partialCapabilities } = capabilities;
    // @ts-expect-error a capability left out does not compile either
    const missingCapability: ProtocolDescriptor = { ...rest, capabilities: partialCapabilities };
    const { watch: _watch, ...withoutWatch } = PROTOCOL_DESCRIPTORS;
    // @ts-expect-error a table without one protocol's descriptor is not a ProtocolTable
    const missingProtocol: ProtocolTable = withoutWatch;
    // @ts-expect-error a descriptor filed under another protocol's id does not compile
    const misfiled: ProtocolTable = { ...PROTOCOL_DESCRIPTORS, watch: PROTOCOL_DESCRIPTORS.native };
    expect(missingField).not.toHaveProperty('guide');
    expect(missingCapability.capabilities).not.toHaveProperty('sendToAgent');
    expect(missingProtocol).not.toHaveProperty('watch');
    expect(misfiled.watch.id).toBe('native');
  });
});
