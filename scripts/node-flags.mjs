// How the app's Node process is launched (`npm start`, and the tests and fuzz that start the built app).
//
// --max-semi-space-size=8 (MB): V8 grows its young generation up to 16 MB a semi-space under a burst of
// large frames (a 60 MB MCP frame) and keeps it committed afterwards. It must be given at launch: V8
// sizes its heap once, and v8.setFlagsFromString at run time was measured to change nothing.
export const APP_V8_FLAGS = ['--max-semi-space-size=8'];

// glibc.malloc.mmap_threshold=65536: Node reads a socket into 64 KB malloc'd chunks, and a 60 MB
// WebSocket frame is held as ~1,000 of them until it is whole. Under glibc's default (a threshold that
// rises to 32 MB once large blocks are freed) they land in the main heap, and small allocations made
// meanwhile pin its top, so the freed chunks stay in RSS for good: on Claude Code's endpoint
// (`npm run fuzz`, seed 2323, 20,000 frames) `[heap]` grew 3 -> 69 MB and RSS after GC +66 MB, the JS
// heap flat. With chunks of 64 KB and more mapped on their own, they go back to the system when freed:
// `[heap]` 2 -> 7 MB, RSS after GC +17 MB. Other C libraries ignore the variable.
export const APP_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=65536';

/** `env` with the app's malloc tunables added; any the caller set come after them, so the caller's win. */
export function withAppMallocTunables(env) {
  const given = env.GLIBC_TUNABLES;
  return { ...env, GLIBC_TUNABLES: given ? `${APP_MALLOC_TUNABLES}:${given}` : APP_MALLOC_TUNABLES };
}
