/**
 * A bare Monaco diff editor with the app's options: REVIEW_DIFF_OPTIONS, the view preferences a fresh
 * page starts with (loadPrefs), the app's models (createReviewModel) and language guess. The host gets
 * the size of the app's diff host (?w=&h=). `data-diff-ready` turns true when Monaco has computed the
 * diff; `j` goes to the next change with the diff editor's own navigation.
 */
import { createReviewModel } from '../../../src-renderer/review/diff-editor/text-models';
import { guessLanguage } from '../../../src-renderer/review/language';
import { monaco, REVIEW_DIFF_OPTIONS } from '../../../src-renderer/review/monaco';
import { loadPrefs } from '../../../src-renderer/state/prefs';

const wrapper = document.getElementById('diff')!;
const host = document.getElementById('host')!;
const counter = document.getElementById('counter')!;
const size = new URLSearchParams(location.search);
host.style.width = `${Number(size.get('w') ?? 900)}px`;
host.style.height = `${Number(size.get('h') ?? 600)}px`;

const prefs = loadPrefs();
const editor = monaco.editor.createDiffEditor(host, {
  ...REVIEW_DIFF_OPTIONS,
  renderSideBySide: prefs.sideBySide,
  ignoreTrimWhitespace: prefs.ignoreWhitespace,
  hideUnchangedRegions: { enabled: prefs.hideUnchanged },
});
editor.onDidUpdateDiff(() => {
  if (editor.getModel() && editor.getLineChanges()) wrapper.dataset.diffReady = 'true';
});

let moves = 0;
document.addEventListener('keydown', (event) => {
  if (event.key !== 'j') return;
  editor.goToDiff('next');
  counter.textContent = `Change ${++moves}`;
});

const socket = new WebSocket(`ws://${location.host}/`);
socket.onopen = () => (document.body.dataset.connected = 'true');
socket.onmessage = (event: MessageEvent<string>) => {
  const { path, base, proposed } = JSON.parse(event.data) as { path: string; base: string; proposed: string };
  const language = guessLanguage(path, monaco.languages.getLanguages());
  editor.setModel({
    original: createReviewModel(base, language),
    modified: createReviewModel(proposed, language),
  });
};
