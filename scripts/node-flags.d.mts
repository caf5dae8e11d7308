/** V8 flags the app is started with (node-flags.mjs). */
export const APP_V8_FLAGS: readonly string[];
