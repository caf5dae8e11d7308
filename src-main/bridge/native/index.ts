/** DiffTray's own protocol (DESIGN.md §3): `startNativeEndpoint` and the wire types clients share. */
export {
  startNativeEndpoint,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_SESSION_GRACE_MS,
  type NativeEndpoint,
  type NativeEndpointOptions,
} from './endpoint';
export type { AppHooks } from './connection';
export * from '../../../shared/native-protocol';
