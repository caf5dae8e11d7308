// V8 flags the app is started with (`npm start`, and the tests and fuzz that start the built app).
//
// --max-semi-space-size=8 (MB): V8 grows its young generation up to 16 MB a semi-space under a burst of
// large frames (a 60 MB MCP frame) and keeps it committed afterwards. On the Claude Code endpoint
// (`npm run fuzz`, seed 2323, 20,000 frames) RSS after GC ended +82 MB above its start without it and
// +27 to +69 MB with it, the heap flat (17 -> 20 MB) either way: the rest is freed malloc pages, which
// vary from run to run. It must be given at launch: V8 sizes its heap once, and
// v8.setFlagsFromString at run time was measured to change nothing.
export const APP_V8_FLAGS = ['--max-semi-space-size=8'];
