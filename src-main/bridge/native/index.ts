/** DiffTray's own protocol (docs/protocols/native.md): `startNativeEndpoint` and the shared wire types. */
export {
  startNativeEndpoint,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_SESSION_GRACE_MS,
  type NativeEndpoint,
  type NativeEndpointOptions,
} from './endpoint';
export type { AppHooks } from './connection';
export * from '../../../shared/native-protocol';
