/**
 * Everything that draws with Monaco, as one module the page loads lazily (editor-loader.ts): Monaco and
 * its language definitions are most of the renderer's code, and the queue, History and Connections are
 * shown without them. Only editor-loader.ts imports this file, and only with import().
 */
export { DiffEditor } from './diff-editor/DiffEditor';
export { prepareDiffEditor } from './diff-editor/kept-editor';
export { DiskDiff } from './DiskDiff';
export { followAppTheme } from './monaco';
export { ReadOnlyDiff } from './ReadOnlyDiff';
