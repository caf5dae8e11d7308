import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { HunkView, ReviewFileContent } from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';
import { hunkGeometryKey, hunkLineDecorations, type LineDecoration } from '../hunk-decorations';
import { guessLanguage } from '../language';
import { monaco } from '../monaco';
import type { ViewPrefs } from '../prefs';
import { HunkBar } from './HunkBar';

/** Height of the room made above every hunk for its control. */
const ZONE_HEIGHT_PX = 30;
/** Monaco reports a zone scrolled out of the rendered range with a top of about -1e6. */
const OFFSCREEN_TOP = -100_000;

/** Keeps a control over its zone; hidden while the zone is not rendered, so it is not tabbable there. */
function placeControl(control: HTMLElement, top: number, left: number): void {
  // Called for every zone on every editor render (scrolling): write only what changed.
  const hidden = top < OFFSCREEN_TOP;
  const style = control.style;
  const display = hidden ? 'none' : '';
  if (style.display !== display) style.display = display;
  if (hidden) return;
  const topPx = `${top}px`;
  const leftPx = `${left}px`;
  if (style.top !== topPx) style.top = topPx;
  if (style.left !== leftPx) style.left = leftPx;
}

type DiffEditorInstance = monaco.editor.IStandaloneDiffEditor;
interface Decorations {
  original: monaco.editor.IEditorDecorationsCollection;
  modified: monaco.editor.IEditorDecorationsCollection;
}

function toMonacoDecorations(lines: LineDecoration[]): monaco.editor.IModelDeltaDecoration[] {
  return lines.map((line) => ({
    range: new monaco.Range(line.startLine, 1, line.endLine, 1),
    options: {
      isWholeLine: true,
      className: line.className,
      linesDecorationsClassName: line.gutterClassName,
      ...(line.inlineClassName ? { inlineClassName: line.inlineClassName } : {}),
    },
  }));
}

export interface DiffEditorProps {
  reviewId: string;
  fileIndex: number;
  content: ReviewFileContent;
  /** Exactly the hunks main sent; positions in this list are what "Hunk N" counts. */
  hunks: HunkView[];
  currentHunk: number | null;
  prefs: ViewPrefs;
  /** An ended review: hunk states are shown, without Accept/Reject buttons. */
  readOnly?: boolean;
  onDecide: (hunkIndex: number, decision: HunkDecision) => void;
  onSelectHunk: (hunkIndex: number) => void;
}

/**
 * Monaco's diff editor showing base vs proposed, with a control zone above each of main's hunks.
 * `data-diff-ready="true"` on the wrapper means: Monaco finished computing the diff for the current
 * texts and every hunk control is in place (what e2e tests wait for).
 */
export function DiffEditor(props: DiffEditorProps) {
  const { content, hunks, currentHunk, prefs, readOnly = false, onDecide, onSelectHunk } = props;
  const wrapperRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<DiffEditorInstance | null>(null);
  const decorationsRef = useRef<Decorations | null>(null);
  // Bumped on every setModel; the diff and the zones count as ready only for the current version.
  const versionRef = useRef(0);
  const diffDoneRef = useRef(-1);
  const zonesKeyRef = useRef('');
  const revealedRef = useRef('');
  // Ticks whenever Monaco reports a computed diff, so the readiness effect runs again.
  const [diffTick, setDiffTick] = useState(0);
  const geometry = hunkGeometryKey(hunks);
  const { path, baseText, proposedText } = content;

  // One node per hunk for its control; React renders the controls into them through portals.
  const controlNodes = useMemo(
    () =>
      Array.from({ length: hunks.length }, () => {
        const node = document.createElement('div');
        node.className = 'dt-hunk-widget';
        node.style.height = `${ZONE_HEIGHT_PX}px`;
        node.style.display = 'none'; // until Monaco tells us where its zone is
        return node;
      }),
    [hunks.length],
  );

  // Create the editor once per mount; models and options change underneath it. Declared first, so
  // the effects below see editorRef set within the same commit.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const editor = monaco.editor.createDiffEditor(host, {
      readOnly: true,
      originalEditable: false,
      renderSideBySide: true,
      automaticLayout: true,
      // Keep the layout predictable: no collapsing to inline on narrow windows unless asked.
      useInlineViewWhenSpaceIsLimited: false,
      // Let Tab leave the editor so keyboard users reach the hunk controls and the toolbar.
      tabFocusMode: true,
      scrollBeyondLastLine: false,
      minimap: { enabled: false },
      renderMarginRevertIcon: false,
      ariaLabel: 'Proposed change',
    });
    const listener = editor.onDidUpdateDiff(() => {
      diffDoneRef.current = versionRef.current;
      setDiffTick((tick) => tick + 1);
    });
    editorRef.current = editor;
    decorationsRef.current = {
      original: editor.getOriginalEditor().createDecorationsCollection(),
      modified: editor.getModifiedEditor().createDecorationsCollection(),
    };
    return () => {
      const model = editor.getModel();
      listener.dispose();
      editorRef.current = null;
      decorationsRef.current = null;
      editor.dispose();
      model?.original.dispose();
      model?.modified.dispose();
    };
  }, []);

  // New texts: new models. The version is bumped first, as the diff may be reported any time after.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const language = guessLanguage(path, monaco.languages.getLanguages());
    const previous = editor.getModel();
    versionRef.current += 1;
    editor.setModel({
      original: monaco.editor.createModel(baseText, language),
      modified: monaco.editor.createModel(proposedText, language),
    });
    previous?.original.dispose();
    previous?.modified.dispose();
  }, [path, baseText, proposedText]);

  useEffect(() => {
    editorRef.current?.updateOptions({
      renderSideBySide: prefs.sideBySide,
      hideUnchangedRegions: { enabled: prefs.hideUnchanged },
    });
  }, [prefs.sideBySide, prefs.hideUnchanged]);

  // Above each hunk's first proposed line (after line proposedStart, 1-based, which also suits pure
  // deletions, and 0 for insertions at the top) an empty view zone makes room, and an overlay widget
  // holding the control is kept on top of it. The control cannot live in the zone itself: Monaco
  // hides view zones from assistive technology (aria-hidden), and our buttons must be reachable.
  // Rebuilt when models or line ranges change, not on decisions.
  useEffect(() => {
    const modified = editorRef.current?.getModifiedEditor();
    if (!modified) return;
    const zoneIds: string[] = [];
    const widgets: monaco.editor.IOverlayWidget[] = [];
    modified.changeViewZones((accessor) => {
      hunks.forEach((hunk, position) => {
        const control = controlNodes[position];
        if (!control) return;
        const widget: monaco.editor.IOverlayWidget = {
          getId: () => `difftray.hunk.${position}`,
          getDomNode: () => control,
          getPosition: () => null, // placed by hand, following the zone
        };
        modified.addOverlayWidget(widget);
        widgets.push(widget);
        const spacer = document.createElement('div');
        spacer.className = 'dt-hunk-zone';
        zoneIds.push(
          accessor.addZone({
            afterLineNumber: hunk.proposedStart,
            heightInPx: ZONE_HEIGHT_PX,
            domNode: spacer,
            onDomNodeTop: (top) => placeControl(control, top, modified.getLayoutInfo().contentLeft),
          }),
        );
      });
    });
    zonesKeyRef.current = `${versionRef.current}|${geometry}`;
    return () => {
      zonesKeyRef.current = '';
      // The editor is already gone when the component unmounts.
      if (!modified.getModel()) return;
      modified.changeViewZones((accessor) => zoneIds.forEach((id) => accessor.removeZone(id)));
      widgets.forEach((widget) => modified.removeOverlayWidget(widget));
    };
    // hunks is read for its line ranges only, which geometry captures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [controlNodes, geometry, path, baseText, proposedText]);

  useEffect(() => {
    const collections = decorationsRef.current;
    if (!collections) return;
    collections.modified.set(toMonacoDecorations(hunkLineDecorations(hunks, 'modified', currentHunk)));
    collections.original.set(toMonacoDecorations(hunkLineDecorations(hunks, 'original', currentHunk)));
  }, [hunks, currentHunk, path, baseText, proposedText]);

  // Readiness for tests, and bringing the current hunk into view once the diff is laid out.
  useEffect(() => {
    const editor = editorRef.current;
    const wrapper = wrapperRef.current;
    if (!editor || !wrapper) return;
    const version = versionRef.current;
    const ready = diffDoneRef.current === version && zonesKeyRef.current === `${version}|${geometry}`;
    wrapper.dataset.diffReady = ready ? 'true' : 'false';
    const hunk = currentHunk === null ? undefined : hunks[currentHunk];
    const revealKey = `${version}|${currentHunk}`;
    if (!ready || !hunk || revealedRef.current === revealKey) return;
    // Only when the current hunk or the texts change: decisions must not scroll the view away.
    revealedRef.current = revealKey;
    const first = Math.max(1, hunk.proposedStart);
    const last = Math.max(first, hunk.proposedEnd);
    editor
      .getModifiedEditor()
      .revealLinesInCenterIfOutsideViewport(first, last, monaco.editor.ScrollType.Immediate);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [diffTick, geometry, currentHunk, path, baseText, proposedText]);

  return (
    <div
      ref={wrapperRef}
      className="dt-diff"
      data-testid="diff-editor"
      data-diff-ready="false"
      data-current-hunk={currentHunk === null ? '' : String(currentHunk + 1)}
    >
      <div ref={hostRef} className="dt-diff-host" />
      {controlNodes.map((node, position) => {
        const hunk = hunks[position];
        return hunk
          ? createPortal(
              <HunkBar
                hunk={hunk}
                position={position}
                current={position === currentHunk}
                readOnly={readOnly}
                onDecide={(decision) => onDecide(position, decision)}
                onSelect={() => onSelectHunk(position)}
              />,
              node,
              `zone-${position}`,
            )
          : null;
      })}
    </div>
  );
}
