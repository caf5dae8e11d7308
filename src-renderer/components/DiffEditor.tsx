import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { HunkView, ReviewFileContent } from '../../shared/app-api';
import type { HunkDecision } from '../../shared/hunks';
import {
  currentHunkDecorations,
  decisionDecorations,
  hunkGeometryKey,
  type LineDecoration,
} from '../hunk-decorations';
import { foldedRuns, hunkViewRanges, sameRuns, unfoldTargets, type LineProbe } from '../hunk-reveal';
import { guessLanguage } from '../language';
import { selectedLineRanges, type DiffSide } from '../line-selection';
import { monaco, REVIEW_DIFF_OPTIONS } from '../monaco';
import type { ViewPrefs } from '../prefs';
import { registerEditFlusher, useReviewUi } from '../review-ui';
import { HunkBar } from './HunkBar';

/** Height of the room made above every hunk for its control. */
const ZONE_HEIGHT_PX = 30;
/** Monaco reports a zone scrolled out of the rendered range with a top of about -1e6. */
const OFFSCREEN_TOP = -100_000;
/** Edits of the proposal go to main this long after the last keystroke. */
export const EDIT_DEBOUNCE_MS = 400;
/** Cursors per call when unfolding hunks (Monaco caps an editor at 10,000 cursors). */
const UNFOLD_CURSORS_PER_CALL = 1000;
/** Unfolding rounds at most; each one at least halves every folded run, so 32 is never reached. */
const UNFOLD_ROUNDS = 32;

type DiffEditorInstance = monaco.editor.IStandaloneDiffEditor;
type TextModel = monaco.editor.ITextModel;

/** Keeps a control over its zone; hidden while the zone is not rendered, so it is not tabbable there. */
function placeControl(control: HTMLElement, top: number, left: number): void {
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

/**
 * A model for one side of a review diff. Bracket-pair colouring, a model option, would parse the
 * whole document on the main thread at first render (about 100 ms per side for a 1 MB file).
 */
export function createReviewModel(text: string, language: string): TextModel {
  const model = monaco.editor.createModel(text, language);
  model.updateOptions({
    bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false },
  });
  return model;
}

/** The model's text as the file has it (with its BOM, if any). */
const textOf = (model: TextModel): string => model.getValue(undefined, true);

/**
 * Puts `text` into a model by replacing only the part that differs, so the person's cursor and scroll
 * survive when main sends back a text (an undo, a rebase). Falls back to setValue where the model's
 * own line-ending or BOM handling would make a partial edit come out wrong.
 */
function replaceText(model: TextModel, text: string): void {
  const current = textOf(model);
  if (current === text) return;
  const max = Math.min(current.length, text.length);
  let start = 0;
  while (start < max && current.charCodeAt(start) === text.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < max - start &&
    current.charCodeAt(current.length - 1 - end) === text.charCodeAt(text.length - 1 - end)
  )
    end++;
  if (current.charCodeAt(0) !== 0xfeff && text.charCodeAt(0) !== 0xfeff) {
    const range = monaco.Range.fromPositions(
      model.getPositionAt(start),
      model.getPositionAt(current.length - end),
    );
    model.applyEdits([{ range, text: text.slice(start, text.length - end) }]);
    if (textOf(model) === text) return;
  }
  model.setValue(text);
}

/**
 * Unfolds whatever "Hide unchanged lines" folded of main's hunks (see hunk-reveal.ts), so every hunk,
 * with its context, is on screen however Monaco's own diff saw it. Monaco's diff editor unfolds the
 * lines cursors are put on: cursors go on the folded lines, and then the caret goes back where the
 * person had it when they are in the editor, or else to the current hunk. `stuck` remembers lines
 * that only look folded (see foldedRuns), so they do not move the caret again and again.
 */
function unfoldHunks(
  modified: monaco.editor.ICodeEditor,
  hunks: readonly HunkView[],
  current: HunkView | undefined,
  stuck: { key: string },
): void {
  const model = modified.getModel();
  if (!model) return;
  const lineCount = model.getLineCount();
  const probe: LineProbe = {
    lineCount,
    top: (line) => modified.getTopForLineNumber(line),
    bottom: (line) => modified.getBottomForLineNumber(line),
  };
  const ranges = hunkViewRanges(hunks, lineCount);
  let runs = foldedRuns(ranges, probe);
  const keyOf = (found: typeof runs): string =>
    found.length === 0 ? '' : `${model.id}|${model.getVersionId()}|${JSON.stringify(found)}`;
  if (runs.length === 0 || keyOf(runs) === stuck.key) return;
  const inEditor = modified.hasTextFocus();
  const saved = modified.getSelections();
  for (let round = 0; round < UNFOLD_ROUNDS; round++) {
    const targets = unfoldTargets(runs);
    for (let i = 0; i < targets.length; i += UNFOLD_CURSORS_PER_CALL) {
      const batch = targets.slice(i, i + UNFOLD_CURSORS_PER_CALL);
      modified.setSelections(batch.map((line) => new monaco.Selection(line, 1, line, 1)));
    }
    const left = foldedRuns(ranges, probe);
    const progressed = !sameRuns(left, runs);
    runs = left;
    if (runs.length === 0 || !progressed) break;
  }
  stuck.key = keyOf(runs);
  if (inEditor && saved && saved.length > 0) {
    modified.setSelections(saved);
  } else {
    // Not in the editor: the caret is not drawn, and the current hunk is where Tab would want it.
    const line = current ? current.proposedStart + 1 : (ranges[0]?.[0] ?? 1);
    const lineNumber = Math.min(Math.max(1, line), lineCount);
    modified.setSelection(new monaco.Selection(lineNumber, 1, lineNumber, 1));
  }
}

export interface DiffEditorProps {
  reviewId: string;
  fileIndex: number;
  /**
   * Undefined while the review's contents load: the editor is created meanwhile, so creating it and
   * filling it with a big file do not block the page in one piece.
   */
  content: ReviewFileContent | undefined;
  /**
   * The file's content revision in the newest snapshot. `content` can be older while the newer one
   * loads; the editor then keeps what it shows rather than going back to the older text.
   */
  revision: number;
  /** Exactly the hunks main sent; positions in this list are what "Hunk N" counts. */
  hunks: HunkView[];
  currentHunk: number | null;
  prefs: ViewPrefs;
  /** An ended review: hunk states are shown, without Accept/Reject buttons, nothing is editable. */
  readOnly?: boolean;
  /** The proposed (modified) side takes typing; edits go to `onEdit`, debounced. */
  editable?: boolean;
  onDecide: (hunkIndex: number, decision: HunkDecision) => void;
  onSelectHunk: (hunkIndex: number) => void;
  /** Sends the edited proposed text of a file; resolves false when main refused it. */
  onEdit?: (fileIndex: number, proposedText: string) => Promise<boolean>;
}

/** One rendered hunk control: the hunk's position and the node its HunkBar is portalled into. */
interface Slot {
  position: number;
  node: HTMLElement;
}

/** The zones and controls for one hunk geometry on one model version. */
interface ZoneSet {
  key: string;
  ids: string[];
  nodes: Map<number, HTMLElement>;
  dispose(): void;
}

/**
 * Monaco's diff editor showing base vs proposed, with a control zone above each of main's hunks.
 *
 * Every hunk gets an empty view zone (so the layout never jumps), but only hunks whose zone Monaco
 * renders get a control: scrolling moves the few controls on screen by hand, and React renders a
 * HunkBar only when a hunk comes into or leaves view, so a file with 500 hunks costs what the
 * dozen on screen cost.
 *
 * `data-diff-ready="true"` on the wrapper means: Monaco finished computing the diff for the current
 * texts, the controls of the hunks on screen are in place, and main's hunks describe the text shown
 * (no edit of the person's is still on its way). End-to-end tests and the bench wait for it.
 */
export function DiffEditor(props: DiffEditorProps) {
  const { reviewId, fileIndex, content, revision, hunks, currentHunk, prefs } = props;
  const { readOnly = false, editable = false, onDecide, onSelectHunk } = props;
  const wrapperRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<DiffEditorInstance | null>(null);
  const layerRef = useRef<HTMLDivElement | null>(null);
  const decorationsRef = useRef<{
    decisions: Record<DiffSide, monaco.editor.IEditorDecorationsCollection>;
    current: Record<DiffSide, monaco.editor.IEditorDecorationsCollection>;
  } | null>(null);
  const latestRef = useRef(props);
  // Bumped whenever a model's text is replaced from outside; the diff counts as done only for it.
  const versionRef = useRef(0);
  const diffDoneRef = useRef(-1);
  const zonesRef = useRef<ZoneSet | null>(null);
  // Which zone set has had every zone reported by Monaco at least once (controls placed).
  const [placedKey, setPlacedKey] = useState('');
  const revealedRef = useRef('');
  /** What the models hold, as far as main knows it, and the file they belong to. */
  const syncRef = useRef({ fileKey: '', base: '', proposed: '', applyingRemote: false });
  /** The person's edits: a debounce timer, and sends main has not answered yet. */
  const editRef = useRef<{
    timer: number | undefined;
    model: TextModel | null;
    fileIndex: number;
    inFlight: number;
  }>({
    timer: undefined,
    model: null,
    fileIndex: 0,
    inFlight: 0,
  });
  const sendEditRef = useRef<() => Promise<void>>(async () => {});
  /** Unfolds main's hunks where "Hide unchanged lines" folded them (unfoldHunks). */
  const unfoldRef = useRef<() => void>(() => {});
  const [slots, setSlots] = useState<Slot[]>([]);
  // Ticks whenever Monaco reports a computed diff or an edit's state changes, so effects run again.
  const [diffTick, setDiffTick] = useState(0);
  const [editTick, setEditTick] = useState(0);
  const geometry = hunkGeometryKey(hunks);
  const loaded = content !== undefined;
  const path = content?.path ?? '';
  const baseText = content?.baseText ?? '';
  const proposedText = content?.proposedText ?? '';
  const contentRevision = content?.contentRevision ?? -1;
  const fileKey = `${reviewId}|${fileIndex}|${path}`;

  useEffect(() => {
    latestRef.current = props;
  });

  // Create the editor once per mount; models and options change underneath it. Declared first, so
  // the effects below see editorRef set within the same commit.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const editor = monaco.editor.createDiffEditor(host, {
      ...REVIEW_DIFF_OPTIONS,
      renderSideBySide: true,
      // Monaco's own revert arrows would compete with the hunk controls once the proposal is editable.
      renderGutterMenu: false,
      renderIndicators: true,
      ariaLabel: 'Proposed change',
      originalAriaLabel: 'Base text',
      modifiedAriaLabel: 'Proposed text',
    });
    const original = editor.getOriginalEditor();
    const modified = editor.getModifiedEditor();
    // Whatever Monaco folds, main's hunks stay on screen: checked whenever its folding may have changed.
    const stuck = { key: '' };
    const unfold = (): void => {
      const { prefs: viewPrefs, hunks: shownHunks, currentHunk: current } = latestRef.current;
      const edit = editRef.current;
      // Nothing is folded without the option; while an edit is on its way, main's hunks lag the text.
      if (!viewPrefs.hideUnchanged || edit.timer !== undefined || edit.inFlight > 0) return;
      unfoldHunks(modified, shownHunks, current === null ? undefined : shownHunks[current], stuck);
    };
    unfoldRef.current = unfold;
    let unfoldQueued = false;
    // Monaco reports from inside its own updates: unfold once they are done.
    const scheduleUnfold = (): void => {
      if (unfoldQueued) return;
      unfoldQueued = true;
      queueMicrotask(() => {
        unfoldQueued = false;
        if (editorRef.current === editor) unfold();
      });
    };
    const subscriptions = [
      editor.onDidUpdateDiff(() => {
        diffDoneRef.current = versionRef.current;
        setDiffTick((tick) => tick + 1);
        scheduleUnfold();
      }),
      modified.onDidChangeHiddenAreas(scheduleUnfold),
    ];
    // A selection the person makes (mouse or keyboard) in either side: what line decisions apply to.
    const trackSelection = (side: DiffSide, code: monaco.editor.ICodeEditor) =>
      code.onDidChangeCursorSelection((e) => {
        if (e.reason !== monaco.editor.CursorChangeReason.Explicit) return;
        const { reviewId: id, fileIndex: index } = latestRef.current;
        const ranges = selectedLineRanges(code.getSelections() ?? []);
        useReviewUi
          .getState()
          .setLineSelection({ reviewId: id, fileIndex: index, selection: { side, ranges } });
      });
    subscriptions.push(trackSelection('original', original), trackSelection('modified', modified));

    // One overlay widget holds all hunk controls; Monaco's view zones are aria-hidden, and the
    // controls must be reachable, so they live on top of the zones rather than in them.
    const layer = document.createElement('div');
    layer.className = 'dt-hunk-layer';
    const layerWidget: monaco.editor.IOverlayWidget = {
      getId: () => 'difftray.hunk-controls',
      getDomNode: () => layer,
      getPosition: () => null, // the controls are placed by hand, following their zones
    };
    modified.addOverlayWidget(layerWidget);
    layerRef.current = layer;

    // The person's edits of the proposal, sent to main once they pause typing.
    const sendEdit = async (): Promise<void> => {
      const edit = editRef.current;
      if (edit.timer === undefined || !edit.model) return;
      window.clearTimeout(edit.timer);
      edit.timer = undefined;
      const sent = edit.model;
      const text = textOf(sent);
      const ownModel = modified.getModel() === sent;
      if (ownModel) syncRef.current.proposed = text;
      edit.inFlight += 1;
      setEditTick((tick) => tick + 1);
      const ok = (await latestRef.current.onEdit?.(edit.fileIndex, text)) ?? false;
      edit.inFlight -= 1;
      // Refused: what main has is still its last text; the next keystroke sends the whole text again.
      if (!ok && ownModel && modified.getModel() === sent) {
        syncRef.current.proposed = latestRef.current.content?.proposedText ?? text;
      }
      setEditTick((tick) => tick + 1);
    };
    sendEditRef.current = sendEdit;
    const unregisterFlusher = registerEditFlusher(sendEdit);

    const collections = () => ({
      original: original.createDecorationsCollection(),
      modified: modified.createDecorationsCollection(),
    });
    editorRef.current = editor;
    decorationsRef.current = { decisions: collections(), current: collections() };
    const sync = syncRef.current;
    return () => {
      // An edit still waiting for its debounce goes out before the editor does.
      void sendEdit();
      unregisterFlusher();
      useReviewUi.getState().setEditsPending(false);
      zonesRef.current?.dispose();
      zonesRef.current = null;
      sync.fileKey = '';
      const model = editor.getModel();
      subscriptions.forEach((subscription) => subscription.dispose());
      modified.removeOverlayWidget(layerWidget);
      layerRef.current = null;
      editorRef.current = null;
      unfoldRef.current = () => {};
      decorationsRef.current = null;
      editor.dispose();
      model?.original.dispose();
      model?.modified.dispose();
    };
  }, []);

  // Texts and hunk zones. A new file gets new models. For the same file, a newer text from main (an
  // undo, a rebase) is patched in, keeping the person's cursor; the text the person's own edit
  // produced comes back equal to what the editor shows and is left alone. Zones are rebuilt when
  // main's hunk geometry changes or main replaced a text, not on decisions.
  useEffect(() => {
    const editor = editorRef.current;
    const layer = layerRef.current;
    if (!editor || !layer || !loaded) return;
    const sync = syncRef.current;
    const edit = editRef.current;
    let changed = false;
    if (sync.fileKey !== fileKey || !editor.getModel()) {
      // Whatever the person typed in the previous file goes to main first.
      void sendEditRef.current();
      const language = guessLanguage(path, monaco.languages.getLanguages());
      const previous = editor.getModel();
      const modifiedModel = createReviewModel(proposedText, language);
      modifiedModel.onDidChangeContent(() => {
        if (syncRef.current.applyingRemote) return;
        if (edit.timer !== undefined) window.clearTimeout(edit.timer);
        edit.model = modifiedModel;
        edit.fileIndex = latestRef.current.fileIndex;
        edit.timer = window.setTimeout(() => void sendEditRef.current(), EDIT_DEBOUNCE_MS);
        setEditTick((tick) => tick + 1);
      });
      editor.setModel({ original: createReviewModel(baseText, language), modified: modifiedModel });
      previous?.original.dispose();
      previous?.modified.dispose();
      Object.assign(sync, { fileKey, base: baseText, proposed: proposedText });
      changed = true;
      // A selection made in another file's text means nothing here.
      const selection = useReviewUi.getState().lineSelection;
      if (selection && (selection.reviewId !== reviewId || selection.fileIndex !== fileIndex)) {
        useReviewUi.getState().setLineSelection(null);
      }
    } else if (contentRevision >= revision) {
      const model = editor.getModel();
      const localEdits = edit.timer !== undefined || edit.inFlight > 0;
      sync.applyingRemote = true;
      try {
        if (model && baseText !== sync.base) {
          replaceText(model.original, baseText);
          sync.base = baseText;
          changed = true;
        }
        if (model && proposedText !== sync.proposed && !localEdits) {
          replaceText(model.modified, proposedText);
          sync.proposed = proposedText;
          changed = true;
        }
      } finally {
        sync.applyingRemote = false;
      }
    }
    if (changed) versionRef.current += 1;

    const key = `${versionRef.current}|${geometry}`;
    if (zonesRef.current?.key === key) return;
    zonesRef.current?.dispose();
    zonesRef.current = buildZones(
      editor.getModifiedEditor(),
      layer,
      latestRef.current.hunks,
      key,
      (placed) => {
        setSlots(placed);
        setPlacedKey(key);
      },
    );
    // hunks is read for its line ranges only, which geometry captures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, fileKey, baseText, proposedText, contentRevision, revision, geometry]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    editor.updateOptions({
      renderSideBySide: prefs.sideBySide,
      ignoreTrimWhitespace: prefs.ignoreWhitespace,
      hideUnchangedRegions: {
        enabled: prefs.hideUnchanged,
        contextLineCount: 3,
        minimumLineCount: 3,
        revealLineCount: 20,
      },
    });
  }, [prefs.sideBySide, prefs.hideUnchanged, prefs.ignoreWhitespace]);

  // The proposed side takes typing only while the person edits the proposal.
  const canEdit = editable && !readOnly;
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    // On the diff editor, readOnly governs the modified side; originalEditable keeps the base read-only.
    editor.updateOptions({ readOnly: !canEdit });
    const modified = editor.getModifiedEditor();
    // keyboard.ts leaves keys to an editable editor (typing "j" must not jump to the next hunk).
    const container = modified.getContainerDomNode();
    if (canEdit) container.dataset.editable = 'true';
    else delete container.dataset.editable;
  }, [canEdit]);

  // "Go to the first conflict": focus the proposed side on the first conflict marker.
  const conflictRequest = useReviewUi((s) => s.conflictEditRequest);
  useEffect(() => {
    const modified = editorRef.current?.getModifiedEditor();
    const model = modified?.getModel();
    if (!modified || !model || conflictRequest === 0) return;
    const match = model.findNextMatch('<<<<<<<', { lineNumber: 1, column: 1 }, false, true, null, false);
    if (match) {
      modified.setSelection(match.range);
      modified.revealLineInCenter(match.range.startLineNumber, monaco.editor.ScrollType.Immediate);
    }
    modified.focus();
  }, [conflictRequest]);

  useEffect(() => {
    const collections = decorationsRef.current;
    if (!collections) return;
    collections.decisions.modified.set(toMonacoDecorations(decisionDecorations(hunks, 'modified')));
    collections.decisions.original.set(toMonacoDecorations(decisionDecorations(hunks, 'original')));
  }, [hunks, fileKey, baseText, proposedText]);

  useEffect(() => {
    const collections = decorationsRef.current;
    if (!collections) return;
    const hunk = currentHunk === null ? undefined : hunks[currentHunk];
    collections.current.modified.set(toMonacoDecorations(currentHunkDecorations(hunk, 'modified')));
    collections.current.original.set(toMonacoDecorations(currentHunkDecorations(hunk, 'original')));
    // Only the current hunk's line range matters, which geometry captures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentHunk, geometry, fileKey, baseText, proposedText]);

  // Readiness for tests, whether line decisions may go out, and bringing the current hunk into view
  // once the diff is laid out.
  useEffect(() => {
    const editor = editorRef.current;
    const wrapper = wrapperRef.current;
    if (!editor || !wrapper) return;
    const edit = editRef.current;
    const sync = syncRef.current;
    const inSync =
      loaded &&
      edit.timer === undefined &&
      edit.inFlight === 0 &&
      contentRevision >= revision &&
      proposedText === sync.proposed &&
      baseText === sync.base;
    if (useReviewUi.getState().editsPending === inSync) useReviewUi.getState().setEditsPending(!inSync);
    const version = versionRef.current;
    const key = `${version}|${geometry}`;
    const ready =
      inSync && diffDoneRef.current === version && zonesRef.current?.key === key && placedKey === key;
    // Main's hunks describe the text now: none of them may stay folded away.
    if (ready) unfoldRef.current();
    wrapper.dataset.diffReady = ready ? 'true' : 'false';
    const hunk = currentHunk === null ? undefined : hunks[currentHunk];
    const revealKey = `${fileKey}|${version}|${currentHunk}`;
    if (!ready || !hunk || revealedRef.current === revealKey) return;
    // Only when the current hunk or the texts change: decisions must not scroll the view away.
    revealedRef.current = revealKey;
    const first = Math.max(1, hunk.proposedStart);
    const last = Math.max(first, hunk.proposedEnd);
    editor
      .getModifiedEditor()
      .revealLinesInCenterIfOutsideViewport(first, last, monaco.editor.ScrollType.Immediate);
  }, [
    diffTick,
    editTick,
    placedKey,
    geometry,
    currentHunk,
    hunks,
    loaded,
    fileKey,
    baseText,
    proposedText,
    contentRevision,
    revision,
  ]);

  return (
    <div
      ref={wrapperRef}
      className="dt-diff"
      data-testid="diff-editor"
      data-diff-ready="false"
      data-editing={canEdit ? 'true' : 'false'}
      data-current-hunk={currentHunk === null ? '' : String(currentHunk + 1)}
    >
      <div ref={hostRef} className="dt-diff-host" />
      {!loaded && <p className="dt-pane-message dt-diff-loading">Loading the proposed change…</p>}
      {slots.map(({ position, node }) => {
        const hunk = hunks[position];
        return hunk
          ? createPortal(
              <HunkBar
                hunk={hunk}
                position={position}
                current={position === currentHunk}
                readOnly={readOnly}
                onDecide={onDecide}
                onSelect={onSelectHunk}
              />,
              node,
              `${placedKey}#${position}`,
            )
          : null;
      })}
    </div>
  );
}

/**
 * An empty zone above each hunk's first proposed line (after line proposedStart, 1-based, which also
 * suits pure deletions, and 0 for insertions at the top), and a control node for each hunk whose zone
 * Monaco renders. `onPlaced` gets the hunks on screen whenever that set changes (after every zone was
 * reported once), batched per editor render.
 */
function buildZones(
  modified: monaco.editor.ICodeEditor,
  layer: HTMLElement,
  hunks: readonly HunkView[],
  key: string,
  onPlaced: (slots: Slot[]) => void,
): ZoneSet {
  const count = hunks.length;
  const tops = new Float64Array(count);
  // 0: not reported yet, 1: off screen, 2: on screen.
  const shown = new Uint8Array(count);
  let unreported = count;
  const nodes = new Map<number, HTMLElement>();
  const ids: string[] = [];
  let queued = false;
  let disposed = false;

  const publish = (): void => {
    queued = false;
    if (disposed || unreported > 0) return;
    const left = modified.getLayoutInfo().contentLeft;
    const slots: Slot[] = [];
    for (let position = 0; position < count; position++) {
      if (shown[position] !== 2) continue;
      let node = nodes.get(position);
      if (!node) {
        node = document.createElement('div');
        node.className = 'dt-hunk-widget';
        node.style.height = `${ZONE_HEIGHT_PX}px`;
        layer.appendChild(node);
        nodes.set(position, node);
      }
      placeControl(node, tops[position]!, left);
      slots.push({ position, node });
    }
    onPlaced(slots);
  };
  const schedule = (): void => {
    if (queued) return;
    queued = true;
    queueMicrotask(publish);
  };

  modified.changeViewZones((accessor) => {
    hunks.forEach((hunk, position) => {
      const spacer = document.createElement('div');
      spacer.className = 'dt-hunk-zone';
      ids.push(
        accessor.addZone({
          afterLineNumber: hunk.proposedStart,
          heightInPx: ZONE_HEIGHT_PX,
          domNode: spacer,
          onDomNodeTop: (top) => {
            tops[position] = top;
            const node = nodes.get(position);
            if (node) placeControl(node, top, modified.getLayoutInfo().contentLeft);
            const state = top > OFFSCREEN_TOP ? 2 : 1;
            if (shown[position] === state) return;
            if (shown[position] === 0) unreported -= 1;
            shown[position] = state;
            schedule();
          },
        }),
      );
    });
  });
  // Nothing to wait for when there are no hunks.
  if (count === 0) schedule();

  return {
    key,
    ids,
    nodes,
    dispose() {
      disposed = true;
      nodes.forEach((node) => node.remove());
      nodes.clear();
      // The editor is already gone when the component unmounts.
      if (!modified.getModel()) return;
      modified.changeViewZones((accessor) => ids.forEach((id) => accessor.removeZone(id)));
    },
  };
}
