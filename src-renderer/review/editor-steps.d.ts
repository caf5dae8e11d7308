/** Provided by scripts/editor-steps.mjs (a Vite plugin): Monaco's code as steps, each imported in turn. */
declare module 'virtual:editor-steps' {
  const steps: readonly (() => Promise<unknown>)[];
  export default steps;
}
