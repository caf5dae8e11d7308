/**
 * Every protocol's descriptor (one file each beside this one). Adding a protocol: its id in
 * descriptor.ts's ClientProtocol, its descriptor file, its line here, and its adapter folder (lint
 * finds the folder itself).
 */
import {
  codexHooksProtocol,
  copilotHooksProtocol,
  geminiHooksProtocol,
  qwenHooksProtocol,
} from './agent-hooks';
import { claudeHooksProtocol } from './claude-hooks';
import { claudeIdeProtocol } from './claude-ide';
import { clioProtocol } from './clio';
import { copilotCliProtocol } from './copilot-cli';
import type { ClientProtocol, ProtocolDescriptor, ProtocolTable } from './descriptor';
import { difftrayProtocol } from './difftray';
import { geminiIdeProtocol } from './gemini-ide';
import { nativeProtocol } from './native';
import { nexus3IdeProtocol } from './nexus3-ide';
import { qwenIdeProtocol } from './qwen-ide';
import { watchProtocol } from './watch';

export type * from './descriptor';

/** In the order the empty state lists their guides. */
export const PROTOCOL_DESCRIPTORS = {
  'claude-ide': claudeIdeProtocol,
  'claude-hooks': claudeHooksProtocol,
  'codex-hooks': codexHooksProtocol,
  'gemini-hooks': geminiHooksProtocol,
  'copilot-hooks': copilotHooksProtocol,
  'qwen-hooks': qwenHooksProtocol,
  'nexus3-ide': nexus3IdeProtocol,
  'gemini-ide': geminiIdeProtocol,
  'qwen-ide': qwenIdeProtocol,
  'copilot-cli': copilotCliProtocol,
  clio: clioProtocol,
  native: nativeProtocol,
  watch: watchProtocol,
  difftray: difftrayProtocol,
} satisfies ProtocolTable;

/** Every descriptor, in PROTOCOL_DESCRIPTORS' order. */
export const ALL_PROTOCOLS: readonly ProtocolDescriptor[] = Object.values(PROTOCOL_DESCRIPTORS);

export function describeProtocol(protocol: ClientProtocol): ProtocolDescriptor {
  return PROTOCOL_DESCRIPTORS[protocol];
}

/** Whether `name` is a protocol DiffTray knows (a remembered pause in settings.json names one). */
export function isClientProtocol(name: string): name is ClientProtocol {
  return Object.hasOwn(PROTOCOL_DESCRIPTORS, name);
}
