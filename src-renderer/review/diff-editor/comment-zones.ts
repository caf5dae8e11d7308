/**
 * Room under a commented line of one side of the diff, and the node its comment box goes into.
 *
 * As for the hunk controls (hunk-zones.ts), an empty view zone makes the room and the box lives in an
 * overlay widget laid over it: Monaco's view zones are aria-hidden, and a comment's text and buttons must
 * be reachable. Keys typed in a box stay in it: neither Monaco nor the review keys see them.
 */
import type { monaco } from '../monaco';

type CodeEditor = monaco.editor.ICodeEditor;

/** Monaco reports a zone scrolled out of the rendered range with a top of about -1e6. */
const OFFSCREEN_TOP = -100_000;

/** One comment box wanted under a line (0-based); `height` is the room it takes. */
export interface CommentZoneSpec {
  key: string;
  line: number;
  height: number;
}

/** A comment box on screen: the node it is rendered into. */
export interface CommentSlot {
  key: string;
  node: HTMLElement;
}

export class CommentZones {
  private readonly layer = document.createElement('div');
  private readonly widget: monaco.editor.IOverlayWidget;
  private ids: string[] = [];
  private nodes: HTMLElement[] = [];
  private model: monaco.editor.ITextModel | null = null;

  constructor(
    private readonly editor: CodeEditor,
    id: string,
  ) {
    this.layer.className = 'dt-comment-layer';
    this.widget = { getId: () => id, getDomNode: () => this.layer, getPosition: () => null };
    editor.addOverlayWidget(this.widget);
  }

  /** Replaces the boxes shown with `specs`; answers the nodes to render them into, in the same order. */
  show(specs: readonly CommentZoneSpec[]): CommentSlot[] {
    this.clear();
    this.model = this.editor.getModel();
    const lines = this.model?.getLineCount() ?? 0;
    const slots: CommentSlot[] = [];
    this.editor.changeViewZones((accessor) => {
      for (const spec of specs) {
        const node = document.createElement('div');
        node.className = 'dt-comment-widget';
        node.style.height = `${spec.height}px`;
        // The box keeps its keys: Monaco's own key handling on the editor must not act on them.
        node.addEventListener('keydown', (e) => e.stopPropagation());
        this.layer.appendChild(node);
        this.nodes.push(node);
        const spacer = document.createElement('div');
        spacer.className = 'dt-comment-zone';
        this.ids.push(
          accessor.addZone({
            afterLineNumber: Math.min(spec.line + 1, lines),
            heightInPx: spec.height,
            domNode: spacer,
            onDomNodeTop: (top) => this.place(node, top),
          }),
        );
        slots.push({ key: spec.key, node });
      }
    });
    return slots;
  }

  clear(): void {
    this.nodes.forEach((node) => node.remove());
    this.nodes = [];
    const ids = this.ids;
    this.ids = [];
    // Zones made on another model went with it.
    if (ids.length > 0 && this.editor.getModel() === this.model) {
      this.editor.changeViewZones((accessor) => ids.forEach((id) => accessor.removeZone(id)));
    }
  }

  dispose(): void {
    this.clear();
    this.editor.removeOverlayWidget(this.widget);
  }

  /** Keeps a box over its zone, as wide as the text area; hidden while the zone is not rendered. */
  private place(node: HTMLElement, top: number): void {
    const hidden = !(top > OFFSCREEN_TOP);
    node.style.display = hidden ? 'none' : '';
    if (hidden) return;
    const layout = this.editor.getLayoutInfo();
    node.style.top = `${top}px`;
    node.style.left = `${layout.contentLeft}px`;
    node.style.width = `${Math.max(120, layout.contentWidth - layout.verticalScrollbarWidth - 8)}px`;
  }
}
