/**
 * Room above every hunk for its control, and the controls themselves.
 *
 * Every hunk gets an empty view zone (so the layout never jumps), but only hunks whose zone Monaco
 * renders have a control node: scrolling moves the few nodes on screen by hand, and React renders a
 * HunkBar into a node only when a hunk comes into or leaves view, so a file with 2,500 hunks costs
 * what the dozen on screen cost.
 */
import type { HunkView } from '../../../shared/app-api';
import type { monaco } from '../monaco';

type CodeEditor = monaco.editor.ICodeEditor;

/** Height of the room made above every hunk for its control. */
const ZONE_HEIGHT_PX = 30;
/** Monaco reports a zone scrolled out of the rendered range with a top of about -1e6. */
const OFFSCREEN_TOP = -100_000;

/** One rendered hunk control: the hunk's position and the node its HunkBar is portalled into. */
export interface Slot {
  position: number;
  node: HTMLElement;
}

/** The zones and controls for one hunk geometry on one model version. */
interface ZoneSet {
  key: string;
  /** The model the zones were made on; they go with it when the editor gets another. */
  model: monaco.editor.ITextModel | null;
  dispose(): void;
}

/** Runs `task` in a task of its own after the next frame; returns what cancels it. */
function afterNextFrame(task: () => void): () => void {
  let timer: number | undefined;
  const frame = requestAnimationFrame(() => {
    timer = window.setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    window.clearTimeout(timer);
  };
}

/**
 * The zone set of the hunks shown now. Zones for new models are made after the models' first frame:
 * made with the models, thousands of zones would lengthen that first frame (by 100 ms and more at
 * 2,500 hunks) and hold back the start of Monaco's diff, which needs the main thread to get going.
 * Made after it, they are laid out while the diff is being computed off the main thread.
 */
export class HunkZones {
  private current: ZoneSet | null = null;
  private pending: { key: string; cancel(): void } | null = null;

  constructor(
    private readonly modified: CodeEditor,
    private readonly layer: HTMLElement,
  ) {}

  /** Names what is shown (see zoneKey); undefined before the first show. */
  get key(): string | undefined {
    return this.current?.key;
  }

  /** Shows zones for `hunks` unless the set named `key` is already shown or on its way. */
  show(key: string, hunks: readonly HunkView[], onPlaced: (slots: Slot[]) => void): void {
    if (this.pending?.key === key) return;
    this.cancelPending();
    if (this.current?.key === key) return;
    const model = this.modified.getModel();
    const build = (): void => {
      this.pending = null;
      this.current?.dispose();
      this.current = buildZones(this.modified, this.layer, hunks, key, model, onPlaced);
    };
    // The same model with a text patched in (an undo, a rebase): the zones move at once.
    if (this.current?.model === model) build();
    else this.pending = { key, cancel: afterNextFrame(build) };
  }

  clear(): void {
    this.cancelPending();
    this.current?.dispose();
    this.current = null;
  }

  private cancelPending(): void {
    this.pending?.cancel();
    this.pending = null;
  }
}

/**
 * One overlay widget holds all hunk controls. Monaco's view zones are aria-hidden, and the controls
 * must be reachable, so they live on top of the zones rather than in them.
 */
export function addControlLayer(modified: CodeEditor): { layer: HTMLElement; dispose(): void } {
  const layer = document.createElement('div');
  layer.className = 'dt-hunk-layer';
  const widget: monaco.editor.IOverlayWidget = {
    getId: () => 'difftray.hunk-controls',
    getDomNode: () => layer,
    getPosition: () => null, // the controls are placed by hand, following their zones
  };
  modified.addOverlayWidget(widget);
  return { layer, dispose: () => modified.removeOverlayWidget(widget) };
}

/** Keeps a control over its zone; hidden while the zone is not rendered, so it is not tabbable there. */
/** Where the modified side's text is: the controls start at its left and are no wider than it. */
function textArea(modified: CodeEditor): { left: number; width: number } {
  const { contentLeft, contentWidth, verticalScrollbarWidth } = modified.getLayoutInfo();
  return { left: contentLeft, width: contentWidth - verticalScrollbarWidth };
}

function placeControl(
  control: HTMLElement,
  top: number,
  { left, width }: { left: number; width: number },
): void {
  // Called for every visible zone on every editor render (scrolling): write only what changed.
  const hidden = !(top > OFFSCREEN_TOP);
  const style = control.style;
  const display = hidden ? 'none' : '';
  if (style.display !== display) style.display = display;
  if (hidden) return;
  const topPx = `${top}px`;
  const leftPx = `${left}px`;
  if (style.top !== topPx) style.top = topPx;
  if (style.left !== leftPx) style.left = leftPx;
  // No wider than the text area: in a narrow window the bar's least needed part (the line counts)
  // gives way, not its buttons, and nothing runs under the scrollbar.
  const widthPx = `${Math.max(0, width)}px`;
  if (style.maxWidth !== widthPx) style.maxWidth = widthPx;
}

/**
 * An empty zone above each hunk's first proposed line (after line proposedStart, 1-based, which also
 * suits pure deletions, and 0 for insertions at the top), and a control node in `layer` for each hunk
 * whose zone Monaco renders. `onPlaced` gets the hunks on screen whenever that set changes (after
 * every zone was reported once), batched per editor render.
 *
 * Monaco reports every zone on every render of the editor, so what runs per report is a few array
 * writes; work that depends on the number of hunks happens once, when the zones are made.
 */
function buildZones(
  modified: CodeEditor,
  layer: HTMLElement,
  hunks: readonly HunkView[],
  key: string,
  model: monaco.editor.ITextModel | null,
  onPlaced: (slots: Slot[]) => void,
): ZoneSet {
  const count = hunks.length;
  const tops = new Float64Array(count);
  // 0: not reported yet, 1: off screen, 2: on screen.
  const state = new Uint8Array(count);
  let unreported = count;
  /** Control nodes of the hunks on screen; a hunk leaving the screen takes its node away. */
  const nodes: (HTMLElement | undefined)[] = new Array<HTMLElement | undefined>(count);
  const onScreen = new Set<number>();
  const left = new Set<number>();
  const ids: string[] = [];
  let queued = false;
  let disposed = false;

  const publish = (): void => {
    queued = false;
    if (disposed || unreported > 0) return;
    for (const position of left) {
      nodes[position]?.remove();
      nodes[position] = undefined;
    }
    left.clear();
    const area = textArea(modified);
    const slots: Slot[] = [];
    for (const position of [...onScreen].sort((a, b) => a - b)) {
      let node = nodes[position];
      if (!node) {
        node = document.createElement('div');
        node.className = 'dt-hunk-widget';
        node.style.height = `${ZONE_HEIGHT_PX}px`;
        layer.appendChild(node);
        nodes[position] = node;
      }
      placeControl(node, tops[position]!, area);
      slots.push({ position, node });
    }
    onPlaced(slots);
  };
  const schedule = (): void => {
    if (queued) return;
    queued = true;
    queueMicrotask(publish);
  };

  const report = (position: number, top: number): void => {
    tops[position] = top;
    const next = top > OFFSCREEN_TOP ? 2 : 1;
    const node = nodes[position];
    if (node) placeControl(node, top, textArea(modified));
    const previous = state[position];
    if (previous === next) return;
    if (previous === 0) unreported -= 1;
    state[position] = next;
    if (next === 2) {
      onScreen.add(position);
      left.delete(position);
    } else if (onScreen.delete(position)) {
      left.add(position);
    }
    schedule();
  };

  modified.changeViewZones((accessor) => {
    for (let position = 0; position < count; position++) {
      const spacer = document.createElement('div');
      spacer.className = 'dt-hunk-zone';
      ids.push(
        accessor.addZone({
          afterLineNumber: hunks[position]!.proposedStart,
          heightInPx: ZONE_HEIGHT_PX,
          domNode: spacer,
          onDomNodeTop: (top) => report(position, top),
        }),
      );
    }
  });
  // Nothing to wait for when there are no hunks.
  if (count === 0) schedule();

  return {
    key,
    model,
    dispose() {
      disposed = true;
      nodes.forEach((node) => node?.remove());
      nodes.length = 0;
      // Another model (or none, the editor emptied when its DiffEditor unmounted): the zones went with theirs.
      if (modified.getModel() !== model) return;
      modified.changeViewZones((accessor) => ids.forEach((id) => accessor.removeZone(id)));
    },
  };
}
