/** V8 flags the app is started with (node-flags.mjs). */
export const APP_V8_FLAGS: readonly string[];

/** The glibc malloc tunables the app is started with (node-flags.mjs). */
export const APP_MALLOC_TUNABLES: string;

/** `env` with the app's malloc tunables added to GLIBC_TUNABLES. */
export function withAppMallocTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
